"""The LLM generation path: hyp+/hyp- from a model with the overview's prompts (Tables 9 and 10), for
sources of the built datasets. Empty or unparsable completions are counted rejects, never crashes; a source
with a prompt the client got no answer for is rejected with the client's reason (e.g.
client_failure:timeout_or_connection)."""
from __future__ import annotations

import re

from tasks.models.client import REJECT_PREFIX
from tasks.stats import Tally

LANGUAGE = {"en": "English", "fr": "French", "de": "German", "sv": "Swedish"}
PARAPHRASE_PROMPT = {
    "en": "Given the src below, generate a paraphrase hypothesis hyp+ that is supported by src and a paraphrase "
          "hypothesis hyp- that is not supported by src.\nsrc: {source}",
    "sv": "Generera en parafras hyp+ som stöds av src och en andra parafras hyp- som inte stöds av src.\nsrc: {source}",
}
TRANSLATION_PROMPTS = {
    "good": "Translate the following text into {tgt}\nText: {source}\n{tgt}:",
    "general": "Translate the following text incorrectly into {tgt}\nText: {source}\n{tgt}:",
    "mentions": "Translate the following text incorrectly into {tgt} and change its meaning, for example by inserting "
                "a word, changing the tense of the text, negating the text, or replacing a date, number, named entity, "
                "or pronoun.\nText: {source}\n{tgt}:",
}
HYP = re.compile(r"hyp\s*([+-])\s*[:=]\s*[\"“]?(.+?)[\"”]?\s*(?=\n|hyp\s*[+-]\s*[:=]|$)", re.IGNORECASE | re.DOTALL)


def parse_paraphrase(completion: str | None) -> tuple[str, str] | str:
    """(hyp+, hyp-) from a completion that names both, or the reason it cannot be used."""
    if completion is None or not completion.strip():
        return "empty_completion"
    found = {}
    for sign, text in HYP.findall(completion):
        found.setdefault(sign, text.strip())
    if "+" not in found or "-" not in found or not found["+"] or not found["-"]:
        return "unparsable_completion"
    if found["+"] == found["-"]:
        return "identical_hypotheses"
    return found["+"], found["-"]


def parse_translation(completion: str | None, tgt: str) -> str | None:
    """The first non-empty line, without a leading '<Language>:' label; None when there is none."""
    if completion is None:
        return None
    for line in completion.splitlines():
        line = re.sub(rf"^\s*{re.escape(tgt)}\s*:\s*", "", line).strip()
        if line:
            return line
    return None


def generation_prompts(rows: list[dict], variants: list[str]) -> list[tuple[dict, list[str], list[str]]]:
    """Per source row, the prompts that produce its hypotheses and the example each one makes: paraphrase, one
    prompt for hyp+ and hyp- (Table 9); translation, the good-translation prompt and one incorrect-translation
    prompt per variant (Table 10: 'general', 'mentions'), an example per variant."""
    out = []
    for row in rows:
        if row["scenario"] == "paraphrase":
            out.append((row, [PARAPHRASE_PROMPT[row["langpair"]].format(source=row["source"])], ["table9"]))
        else:
            tgt = LANGUAGE[row["langpair"].split("-")[1]]
            out.append((row, [TRANSLATION_PROMPTS[k].format(tgt=tgt, source=row["source"])
                              for k in ("good", *variants)], list(variants)))
    return out


def parsed_example(row: dict, answers: list[str | None], failed: list[str | None]) -> list[tuple[str, str] | str]:
    """Per example of the row: (hyp+, hyp-), or why there is none (the client's failure first)."""
    if row["scenario"] == "paraphrase":
        return [REJECT_PREFIX + failed[0] if failed[0] else parse_paraphrase(answers[0])]
    tgt = LANGUAGE[row["langpair"].split("-")[1]]
    good = parse_translation(answers[0], tgt)
    out: list[tuple[str, str] | str] = []
    for answer, reason in zip(answers[1:], failed[1:]):
        bad = parse_translation(answer, tgt)
        why = failed[0] or reason
        out.append(REJECT_PREFIX + why if why else "empty_completion" if good is None or bad is None
                   else "identical_hypotheses" if good == bad else (good, bad))
    return out


def generate(rows: list[dict], client, variants: list[str], system: str) -> tuple[list[dict], Tally]:
    """Generated examples (type natural: model output) of generator ``system`` for the source rows, one per source
    and prompt (id ``llm:<system>:<prompt>:<source row id>``, 'llm:<system>:<prompt>' also in edit_detail), and
    the accounting: one item per example."""
    jobs = generation_prompts(rows, variants)
    flat = [p for _, prompts, _ in jobs for p in prompts]
    completions = iter(client.complete(flat))
    reasons = iter(getattr(client, "call_failures", None) or [None] * len(flat))
    tally, out = Tally(), []
    for row, prompts, names in jobs:
        answers = [next(completions) for _ in prompts]
        failed = [next(reasons) for _ in prompts]
        for name, parsed in zip(names, parsed_example(row, answers, failed)):
            if isinstance(parsed, str):
                tally.reject(parsed)
                continue
            tally.keep()
            out.append({"id": f"llm:{system}:{name}:{row['id']}", "scenario": row["scenario"],
                        "langpair": row["langpair"], "split": row["split"], "source": row["source"],
                        "hyp_good": parsed[0], "hyp_bad": parsed[1], "type": "natural", "edit_from": None,
                        "edit_to": None, "edit_start": None, "edit_detail": f"llm:{system}:{name}",
                        "origin": row["origin"], "hyp_good_origin": f"llm:{system}"})
    return out, tally

