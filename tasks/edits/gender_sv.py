"""Swedish gender edits: every noun of gender_sv.tsv is an en-word, so indefinite and definite forms
carry over (en son -> en dotter, sonen -> dottern); a weak adjective's masculine -e becomes -a (den unge
mannen -> den unga kvinnan). 'man' (also 'one') and 'far' (also 'travels') count as nouns only after a
determiner or possessive; a noun after a neuter determiner is skipped."""
from __future__ import annotations

import random
import re

from tasks.edits import lexicons
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import match_case, replace_span

DETERMINERS = {"en", "den", "denna", "denne", "ingen", "varje", "någon", "min", "din", "sin", "hans", "hennes", "dess",
               "deras", "vår", "er", "samma", "annan", "de", "dessa", "alla", "två", "tre"}
NEUTER = {"ett", "det", "detta", "mitt", "ditt", "sitt", "vårt", "ert", "inget", "något"}
AMBIGUOUS = {"man", "far"}
PRONOUNS = {"han", "hon", "hans", "hennes", "honom", "henne"}
COPULAS = {"är", "var", "blev", "blir", "förblev"}
WORD = re.compile(r"\w+")


def gender_sv(text: str, rng: random.Random) -> Edit | Skip:
    """Swap one gendered word (tried in a seeded order); Skip with the first failure's reason."""
    table = lexicons.pairs("gender", "sv")
    words = list(WORD.finditer(text))
    options = [k for k, m in enumerate(words) if m.group(0).lower() in table]
    if not options:
        return Skip("no_candidate")
    results = [_swap(text, words, k, table) for k in rng.sample(options, len(options))]
    return next((r for r in results if isinstance(r, Edit)), results[0])


def _swap(text: str, words: list, k: int, table: dict) -> Edit | Skip:
    m = words[k]
    word = m.group(0)
    prev = words[k - 1].group(0).lower() if k > 0 else ""
    before = words[k - 2].group(0).lower() if k > 1 else ""
    if word.lower() in PRONOUNS and any(w.group(0).lower() in table for j, w in enumerate(words) if j != k):
        return Skip("other_gendered_word")  # 'Han är en stor man': the two must change together
    if word.lower() not in PRONOUNS and COPULAS & {w.group(0).lower() for w in words[max(0, k - 3):k]}:
        return Skip("predicate_noun")
    if prev in NEUTER:
        return Skip("neuter_determiner")
    if word.lower() in AMBIGUOUS and prev not in DETERMINERS and before not in DETERMINERS:
        return Skip("not_a_noun")
    new = match_case(word, table[word.lower()])
    start = m.start()
    if prev.endswith("e") and prev not in DETERMINERS and before in DETERMINERS and new.lower() in {
            b.lower() for _, b in lexicons.rows("gender", "sv")}:
        start = words[k - 1].start()  # den unge mannen -> den unga kvinnan
        new = text[start:words[k - 1].end() - 1] + "a" + text[words[k - 1].end():m.start()] + new
    return replace_span(text, start, m.end(), new, "gender", f"{word}->{new.split()[-1]}")
