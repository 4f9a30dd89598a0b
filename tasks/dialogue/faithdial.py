"""FaithDial (Dziri et al. 2022): the raw data/{train,valid,test}.json of Hub dataset McGill-NLP/FaithDial,
a list of dialogues each holding `utterances` (history, knowledge, response, original_response, BEGIN, VRM)."""
from __future__ import annotations

from pathlib import Path

from tasks.dialogue.turns import LoadResult, alternating_history, make_turn
from tasks.io import read_records

SOURCE = "faithdial"


def load_faithdial(raw_dir: Path, splits: list[str]) -> tuple[LoadResult, dict[str, int]]:
    """Read each split file; turns are indexed in file order (CHARP's row_idx indexes the valid turns).

    Returns the result and the number of turns read per split."""
    result, counts = LoadResult(), {}
    for split in splits:
        file = f"{split}.json"
        index = 0
        for d_idx, dialogue in enumerate(read_records(Path(raw_dir) / file, f"{SOURCE}/{file}")):
            utterances = dialogue.get("utterances") if isinstance(dialogue, dict) else None
            if not isinstance(utterances, list):
                result.reject(SOURCE, file, index, "malformed_dialogue")
                index += 1
                continue
            for utt in utterances:
                history = utt.get("history") if isinstance(utt, dict) else None
                if not isinstance(history, list) or not all(isinstance(t, str) for t in history):
                    result.reject(SOURCE, file, index, "malformed_history")
                else:
                    row = make_turn(id=f"{SOURCE}:{split}:{index}", split=split,
                                    dialogue_id=f"{SOURCE}:{split}:{d_idx}",
                                    history=alternating_history(history), knowledge=utt.get("knowledge"),
                                    response=utt.get("response"), original_response=utt.get("original_response"),
                                    begin=utt.get("BEGIN"), vrm=utt.get("VRM"), source=SOURCE, file=file, index=index)
                    result.add(SOURCE, file, index, row)
                index += 1
        counts[split] = index
    return result, counts
