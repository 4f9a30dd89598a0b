"""Flow `charp_score`: metrics of every CHARP grid cell, the LLM judge, the blind human-evaluation sheet,
agreement with filled sheets when there are some, the summary table and plots (DVC stage `charp_score`)."""
from __future__ import annotations

import pyarrow.parquet as pq
from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows.main import run_flow
from tasks.charp import human_eval
from tasks.charp.data import eval_turns
from tasks.charp.judge import judge, load_examples
from tasks.charp.metrics import bertscore_f1, bleu, critic_rate
from tasks.charp.report import category_counts, judge_table, plot_metrics, summary_table
from tasks.io import atomic_dir, write_json
from tasks.models.client import make_client
from tasks.models.gpu_limit import GPU_TAG
from tasks.params import ROOT
from tasks.params_schema import Charp, as_dict, flow_params

DATA = ROOT / "data"


def cells_with_turns(params: dict) -> dict[str, tuple[list[dict], list[str]]]:
    """{"system|train h|eval h": (turns, predictions)} of every prediction file, joined on turn id."""
    out, turns = {}, {}
    for path in sorted((DATA / "charp" / "predictions").glob("*/*.parquet")):
        rows = pq.read_table(path).to_pylist()
        if not rows:
            continue
        h = rows[0]["eval_h"]
        if h not in turns:
            turns[h] = {t["id"]: t for t in eval_turns(DATA, params, h)}
        out[f"{rows[0]['system']}|{rows[0]['train_h']}|{h}"] = ([turns[h][r["id"]] for r in rows],
                                                                [r["prediction"] for r in rows])
    return out


def judge_labels(items: list[dict], judged: dict) -> dict[str, frozenset[int]]:
    """The judge's categories by sheet item id, for the sheet items the judge labelled."""
    out = {}
    for it in items:
        labels = judged.get(it["cell"], [])
        if it["pos"] < len(labels) and labels[it["pos"]]:
            out[human_eval.item_id(it["system"], it["cell"], it["turn"]["id"])] = frozenset(labels[it["pos"]])
    return out


@task(name="automatic-metrics", cache_policy=NO_CACHE, tags=[GPU_TAG])
def metrics_task(cells: dict, params: dict) -> dict:
    m = params["metrics"]
    bs = (m["bertscore_model"], m["bertscore_layers"])
    results, gold_done = {}, set()
    for key, (turns, preds) in cells.items():
        gold, knowledge = [t["response"] for t in turns], [t["knowledge"] for t in turns]
        results[key] = {"n": len(preds), "bleu": bleu(preds, gold), "bertscore_gold": bertscore_f1(preds, gold, *bs),
                        "bertscore_knowledge": bertscore_f1(preds, knowledge, *bs),
                        "critic": critic_rate(knowledge, preds, m["critic"])}
        h = key.split("|")[2]
        if h not in gold_done:
            gold_done.add(h)
            results[f"gold|-|{h}"] = {"n": len(gold), "bleu": None, "bertscore_gold": None,
                                      "bertscore_knowledge": bertscore_f1(gold, knowledge, *bs),
                                      "critic": critic_rate(knowledge, gold, m["critic"])}
    return results


@task(name="llm-judge", cache_policy=NO_CACHE, tags=[GPU_TAG])
def judge_task(cells: dict, params: dict) -> tuple[dict, dict]:
    j = params["judge"]
    examples = load_examples(ROOT / j["examples"])
    client = make_client(params["client"])
    judged, stats = {}, {}
    for key, (turns, preds) in cells.items():
        items = list(zip(turns, preds))[: j["max_per_cell"]]
        judged[key], stats[key] = judge(items, examples, client, j["retries"])
    stats["client_failures"] = dict(sorted(client.failures.items()))
    return judged, stats


@flow(name="charp-score")
def charp_score(params: Charp) -> None:
    params = as_dict(params)
    cells = cells_with_turns(params)
    results = metrics_task(cells, params)
    judged, judge_stats = judge_task(cells, params) if params["judge"]["enabled"] else ({}, {})
    critic = params["metrics"]["critic"]
    summary = {"cells": results,
               "judge": {k: {"categories": category_counts(v), **judge_stats[k]} for k, v in judged.items()},
               "judge_client_failures": judge_stats.get("client_failures", {})}
    text = ["# CHARP experiments\n", f"Trained on {params['dataset']} ({params['splits']['train']}); evaluated on "
            f"{params['eval_dataset']} ({params['splits']['eval']}, "
            f"{params['subsets']['eval'] or 'all'} turns per cell).\n",
            summary_table(results, critic["name"])]
    if judged:
        text += ["\n## LLM judge (Appendix C.3)\n", judge_table(judged)]
    with atomic_dir(DATA / "charp" / "reports") as tmp:
        plot_metrics(results, tmp / "metrics_by_eval_h.png")
        items = [{"system": k.split("|")[0], "cell": k, "turn": t, "prediction": p, "pos": pos}
                 for k, (turns, preds) in cells.items()
                 for pos, (t, p) in enumerate(list(zip(turns, preds))[: params["human"]["per_cell"]])]
        human_eval.export_sheet(items, params["seed"], tmp / "human_sheet.csv", tmp / "human_key.csv")
        if params["human"]["sheets"]:
            sheets = {name: human_eval.read_sheet(ROOT / path) for name, path in params["human"]["sheets"].items()}
            judge_by_item = judge_labels(items, judged)
            humans = human_eval.majority(sheets)
            summary["human"] = {**human_eval.agreement(sheets),
                                "judge_vs_human_kappa": human_eval.cohen(judge_by_item, humans),
                                "judged_items": len(judge_by_item)}
            human_eval.plot_heatmap(human_eval.contingency(judge_by_item, humans), "judge vs human categories (%)",
                                    tmp / "judge_vs_human.png")
            text += ["\n## Human evaluation\n", f"Cohen's kappa: {summary['human']['pairwise']}; Fleiss' kappa: "
                     f"{summary['human'].get('fleiss', '–')}; "
                     f"judge vs human: {summary['human']['judge_vs_human_kappa']}."]
        (tmp / "README.md").write_text("\n".join(text) + "\n", encoding="utf-8")
        write_json(summary, tmp / "results.json")
    write_json({k: {m: v for m, v in r.items() if v is not None} for k, r in results.items()},
               ROOT / "metrics" / "charp.json")
    create_markdown_artifact(key="charp-report", markdown="\n".join(text), description="CHARP experiment grid")


if __name__ == "__main__":
    run_flow(lambda: charp_score(**flow_params(charp_score)), name="charp_score")
