"""Dataset card (README.md beside the data) and length statistics of a dialogue dataset."""
from __future__ import annotations

import statistics

from tasks.fetch.registry import load_registry


def length_summary(values: list[int]) -> dict:
    """min / median / mean / max and a histogram over fixed buckets."""
    if not values:
        return {"n": 0}
    buckets = [0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 500]
    hist = []
    for lo, hi in zip(buckets, buckets[1:] + [None]):
        label = f"{lo}+" if hi is None else (f"{lo}" if hi == lo + 1 else f"{lo}-{hi - 1}")
        hist.append([label, sum(1 for v in values if v >= lo and (hi is None or v < hi))])
    return {"n": len(values), "min": min(values), "median": statistics.median(values),
            "mean": round(statistics.fmean(values), 2), "max": max(values), "histogram": hist}


def split_stats(rows: list[dict]) -> dict:
    return {"turns": len(rows),
            "history_turns": length_summary([len(r["history"]) for r in rows]),
            "knowledge_words": length_summary([len(r["knowledge"].split()) for r in rows])}


def annotation_lines(options: dict) -> list[str]:
    """The card's annotation section for a dataset written by annotators (options naming ``examples`` and
    ``review``, as charp_offline's), else nothing: where the brief and the second annotator's verdicts live."""
    if not options.get("examples"):
        return []
    folder = options["examples"].rsplit("/", 1)[0]
    review = (f"each example judged by a second annotator who wrote none of them (`{folder}/review_brief.md`; "
              f"verdicts in `{options['review']}`); the judged-invalid lines are the `judged_invalid` rejects below."
              if options.get("review") else "not yet judged by a second annotator.")
    return ["", "## Annotation", "", f"Written by annotators from `{options['examples']}` by the rules of "
            f"`{folder}/brief.md`, never from the code; {review}"]


def render_card(dataset: str, raw_sources: list[str], stats: dict, params: dict) -> str:
    registry = load_registry()
    lines = [f"# Dialogue dataset `{dataset}`", "",
             f"Built by `dvc repro dialogue@{dataset}` (flow `flows/dialogue.py`) from `data/raw/`; "
             "one row per knowledge-grounded turn in the schema `DIALOGUE_TURN` of `tasks/schemas.py`.", "",
             "## Sources", "", "| source | upstream | licence |", "|---|---|---|"]
    lines += [f"| {s} — {registry[s].title} | {registry[s].upstream_label()} | {registry[s].licence} |"
              for s in raw_sources]
    lines += ["", "## Files", "",
              f"`<split>/h-<h>.parquet` for h in {params['truncation']}: the history keeps the h most recent "
              "turns (the seeker's last one included); `h-full` keeps all of it, `h-0` none.", "",
              "## Counts", "", "| split | turns | history turns (median / max) | knowledge words (median / max) |",
              "|---|---|---|---|"]
    for split, s in stats["splits"].items():
        h, k = s["history_turns"], s["knowledge_words"]
        lines.append(f"| {split} | {s['turns']} | {h.get('median', '-')} / {h.get('max', '-')} | "
                     f"{k.get('median', '-')} / {k.get('max', '-')} |")
    lines += ["", "History-length histograms (turns), per split:", ""]
    lines += [f"- {split}: {s['history_turns'].get('histogram', [])}" for split, s in stats["splits"].items()]
    lines += ["", "Knowledge-length histograms (words), per split:", ""]
    lines += [f"- {split}: {s['knowledge_words'].get('histogram', [])}" for split, s in stats["splits"].items()]
    lines += annotation_lines(params.get("options") or {})
    lines += ["", "## Rows read, kept and rejected", "", "| file | read | kept | rejected by reason |",
              "|---|---|---|---|"]
    lines += [f"| {f} | {t['read']} | {t['kept']} | {t['rejected_by_reason']} |" for f, t in stats["files"].items()]
    lines += ["", "Every rejected row is listed with its reason in `rejects.parquet`.", ""]
    return "\n".join(lines)
