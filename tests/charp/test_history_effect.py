"""tasks/charp/history_effect.py: history deltas paired by turn id, resampled corpus BLEU, the judge-critic
kappa and per-cell intervals, against hand-computed values."""
from __future__ import annotations

import pytest

from tasks.charp.cells import Cell


def test_history_delta_pairs_turns_by_id_and_bleu_resamples_corpus_bleu():
    import sacrebleu

    from tasks.charp.history_effect import bleu_from_statistics, bleu_statistics, history_deltas

    gold = ["the hotel has free parking for guests", "the museum opens at nine every day",
            "trains leave the station every hour", "the pool is heated all year round"]
    wrong = ["I like green apples very much", "what a lovely day it is", "no idea sorry", "bananas are yellow"]
    stats = bleu_statistics(wrong[:2] + gold[2:], gold)
    assert bleu_from_statistics(stats.sum(0))[0] == pytest.approx(sacrebleu.corpus_bleu(wrong[:2] + gold[2:],
                                                                                         [gold]).score)
    ids = ["a", "b", "c", "d"]
    full = {"ids": ids, "bleu": bleu_statistics(gold, gold), "bertscore_gold": [0.9, 0.8, 0.9, 0.8],
            "critic": [0, 0, 0, 0]}
    rev = ids[::-1]  # the h=0 cell lists the same turns in another order
    zero = {"ids": rev, "bleu": bleu_statistics(wrong[::-1], gold[::-1]), "bertscore_gold": [0.5, 0.5, 0.4, 0.4],
            "critic": [1, 1, 1, 1]}
    rows = {r["metric"]: r for r in history_deltas({Cell("s", "full", "full"): full, Cell("s", "full", "0"): zero,
                                                    Cell("gold", "none", "0"): {"ids": ids, "critic": [0] * 4}}, 13)}
    assert set(rows) == {"bleu", "bertscore_gold", "critic"}  # the gold cell is no system
    assert rows["critic"] == {"system": "s", "train_h": "full", "metric": "critic", "turns": 4, "full": 0.0,
                                   "0": 1.0, "diff": 1.0, "ci": [1.0, 1.0], "p": 0.0}
    low_bleu = round(sacrebleu.corpus_bleu(wrong, [gold]).score, 4)
    assert rows["bleu"]["full"] == 100.0 and rows["bleu"]["0"] == low_bleu < 5
    assert rows["bleu"]["diff"] == pytest.approx(low_bleu - 100) and rows["bleu"]["ci"][1] < -90
    # paired by id: a = 0.4 (h=0) against 0.9, b = 0.4 against 0.8, c = d = 0.5 against 0.9 / 0.8
    assert rows["bertscore_gold"]["diff"] == pytest.approx(-0.4) and rows["bertscore_gold"]["0"] == 0.45
    lo, hi = rows["bertscore_gold"]["ci"]
    assert -0.5 <= lo < -0.4 < hi <= -0.3


def test_judge_critic_kappa_by_hand_and_cell_intervals():
    import numpy as np

    from tasks.charp.history_effect import cell_intervals, history_deltas, judge_critic_kappa, judge_flags

    assert judge_flags([[1], [3, 7], None], 4)[:2] == [0.0, 1.0] and np.isnan(judge_flags([None], 2)).all()
    judged = {"ids": ["a", "b", "c", "d"], "critic": [1, 0, 0, 1], "judge": judge_flags([[6], [1], [2], None], 4)}
    # pairs (1,1) (0,0) (1,0): po 2/3; judge 2/3 and critic 1/3 flagged: pe 4/9; kappa (2/9) / (5/9)
    assert judge_critic_kappa({Cell("s", "full", "0"): judged}) == {"n": 3, "kappa": 0.4, "judge_flags": 2,
                                                                     "critic_flags": 1}
    same = {"ids": ["a", "b"], "critic": [1, 1], "judge": judge_flags([[7], [7]], 2)}
    assert judge_critic_kappa({Cell("s", "full", "0"): same})["kappa"] is None  # both constant: 0/0
    rows = history_deltas({Cell("s", "full", "full"): {**judged, "critic": [1] * 4, "judge": judge_flags([[1]], 4)},
                           Cell("s", "full", "0"): judged}, 13)
    assert [(r["metric"], r["turns"], r["diff"]) for r in rows] == [("critic", 4, -0.5), ("judge", 1, 1.0)]
    ci = cell_intervals({Cell("s", "full", "0"): {"ids": ["a", "b", "c", "d"], "critic": [1, 1, 1, 1],
                                                  "bertscore_gold": [0.2, 0.4, 0.6, 0.8]}}, 13)
    (only,) = ci.values()
    assert only["critic_ci"] == [1.0, 1.0] and 0.2 <= only["bertscore_gold_ci"][0] < 0.5 < only["bertscore_gold_ci"][1]
