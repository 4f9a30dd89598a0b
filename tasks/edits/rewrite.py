"""Token-level rewriting of a spaCy Doc that keeps the original spacing outside the edited span."""
from __future__ import annotations

from spacy.tokens import Doc

from tasks.edits.result import Edit

CONTRACTED = {"will": "wo", "can": "ca", "shall": "sha"}  # the host of n't: won't, can't, shan't
UNCONTRACTED = {v: k for k, v in CONTRACTED.items()}


class Rewrite:
    """Replace, insert and delete tokens of ``doc``; ``edit()`` renders the result as an Edit."""

    def __init__(self, doc: Doc):
        self.doc = doc
        self.words = [t.text for t in doc]
        self.spaces = [t.whitespace_ for t in doc]
        self.changed: set[int] = set()

    def replace(self, i: int, text: str) -> None:
        """Replace token i by ``text`` (several words allowed), keeping its capitalisation."""
        original = self.doc[i].text
        if original[:1].isupper() and i == 0:
            text = text[:1].upper() + text[1:]
        if original[:1] in "'’" and text[:1] not in "'’" and i > 0 and not self.spaces[i - 1]:
            self.spaces[i - 1] = " "  # a clitic replaced by a full word: I'm -> I was, not Iwas
            self.changed.add(i - 1)
        self.words[i] = text
        self.changed.add(i)

    def insert_after(self, i: int, text: str) -> None:
        self.words[i] = f"{self.words[i]} {text}" if self.words[i] else text
        self.changed.add(i)

    def insert_before(self, i: int, text: str) -> None:
        self.words[i] = f"{text} {self.words[i]}"
        self.changed.add(i)

    def delete(self, i: int) -> None:
        self.words[i] = ""
        self.changed.add(i)

    def _render(self, lo: int, hi: int) -> str:
        """Text of tokens lo..hi-1 after the edits, spaces included, fixing n't hosts."""
        words = list(self.words[lo:hi])
        spaces = list(self.spaces[lo:hi])
        for k in range(len(words)):
            if words[k] == "" and k > 0 and spaces[k] and not spaces[k - 1]:
                spaces[k - 1] = spaces[k]  # deleting "n't" in "is|n't " keeps the space after "is"
        out = []
        for k, (w, sp) in enumerate(zip(words, spaces)):
            if not w:
                continue
            out.append(w + sp)
        text = "".join(out)
        return _fix_contractions(text)

    def edit(self, type_: str, detail: str) -> Edit:
        good = self.doc.text
        lo, hi = min(self.changed), max(self.changed) + 1
        start = self.doc[lo].idx
        end = self.doc[hi - 1].idx + len(self.doc[hi - 1].text)
        tail_space = self.spaces[hi - 1]
        rendered = self._render(lo, hi)
        keeps_tail = tail_space and rendered.endswith(tail_space)
        target = rendered[: len(rendered) - len(tail_space)] if keeps_tail else rendered.rstrip(" ")
        if not target and start > 0 and good[start - 1] == " ":
            start -= 1  # a deleted first token takes the space before it with it
        if start == 0 and good[:1].isupper() and target[:1].islower():
            target = target[0].upper() + target[1:]  # "Don't talk like that" -> 'Talk like that', not 'talk'
        bad = good[:start] + target + good[end:]
        return Edit(type=type_, good=good, bad=bad, start=start, source=good[start:end], target=target, detail=detail)


def _fix_contractions(text: str) -> str:
    """Make n't agree with its host: 'will n't' -> 'wo n't', 'wo' left alone -> 'will'."""
    words = text.split(" ")
    fixed = []
    for k, w in enumerate(words):
        base, _, rest = w.partition("n't")
        if rest == "" and w.endswith("n't") and base in CONTRACTED:
            w = CONTRACTED[base] + "n't"  # hostn't written without a space
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if w.lower() in CONTRACTED and nxt.startswith("n't"):
            w = CONTRACTED[w.lower()] if w.islower() else CONTRACTED[w.lower()].capitalize()
        if w.lower() in UNCONTRACTED and not (nxt.startswith("n't") or w.endswith("n't")):
            w = UNCONTRACTED[w.lower()] if w.islower() else UNCONTRACTED[w.lower()].capitalize()
        fixed.append(w)
    return " ".join(fixed)
