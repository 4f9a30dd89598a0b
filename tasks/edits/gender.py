"""The gender edit: a gendered pronoun, noun or title changes gender (he/she, king/queen, Mr/Mrs); in English
every gendered word of the sentence, in French, German and Swedish with the words that agree
(tasks/edits/gender_<lang>.py); never where a name, a ship or a men's league would keep the old gender. Also the
listed-word swap over a Doc that the pronoun edit shares (swap_options)."""
from __future__ import annotations

import re

from tasks.edits import lexicons
from tasks.edits.context import PERSON_LABELS, PLACE_LABELS, Context
from tasks.edits.gender_de import gender_de
from tasks.edits.gender_fr import gender_fr
from tasks.edits.gender_sv import gender_sv
from tasks.edits.names import first_name_gender
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import match_case, replace_span

TITLES = lexicons.entry_set("gender_titles_en")
OFFICES = lexicons.entry_set("gender_offices_en")


def address_form(token, new: str) -> str:
    """English addresses an office holder as 'Mr President' or 'Madam President', never 'Mrs President' nor 'sir
    President'."""
    after = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    if after is None or after.lower_ not in OFFICES or token.lower_ not in ("mr", "mr.", "madam"):
        return new
    return "Mr" if token.lower_ == "madam" else "Madam"


def swap_options(text: str, ctx: Context, name: str, her: dict[str, str]) -> list[tuple[int, int, str]]:
    """(start, end, replacement) of each word of list ``name`` in ``text``; with a Doc only determiners and
    pronouns (French 'son' the noun is not), and English 'her' follows its Penn tag (``her``: tag -> word)."""
    table = lexicons.pairs(name, ctx.lang)
    if ctx.doc is None:
        pat = lexicons.pattern(name, ctx.lang)
        return [(m.start(), m.end(), table[m.group(0).lower()]) for m in (pat.finditer(text) if pat else [])]
    if ctx.lang == "en":  # not a name ('US 98', 'Prince' the artist), titles excepted, nor a modifier ('sister event')
        found = [(t, her[t.tag_] if t.lower_ == "her" else table[t.lower_]) for t in ctx.doc
                 if ((t.lower_ in table and t.lower_ != "her") or (t.lower_ == "her" and t.tag_ in her))
                 and (t.lower_ in TITLES or (t.tag_ not in ("NNP", "NNPS") and t.dep_ != "compound"))]
        found = [(t, address_form(t, new)) for t, new in found]
    else:
        found = [(t, table[t.lower_]) for t in ctx.doc if t.lower_ in table and t.pos_ in ("DET", "PRON")]
    return [(t.idx, t.idx + len(t.text), new) for t, new in found]


GENDERED_PRONOUNS = lexicons.entry_set("gender_pronouns")
PERSON_WINDOW = 4  # words between a gender edit and a person's name that make the name its referent


def person_near(text: str, start: int, end: int, entities: list[tuple[int, int, str]]) -> bool:
    """A person entity within PERSON_WINDOW words of text[start:end]."""
    for s, e, label in entities:
        if label in PERSON_LABELS:
            gap = text[e:start] if e <= start else text[end:s] if s >= end else ""
            if len(re.findall(r"\w+", gap)) <= PERSON_WINDOW:
                return True
    return False


def _lexicon_words(lang: str) -> set[str]:
    """Gendered words, pronouns and months of ``lang``: capitalised, they are no first names ('Elle', 'May')."""
    listed = {w.lower() for name in ("gender", "pronoun") for row in lexicons.rows(name, lang) for w in row}
    return listed | {m.lower() for m in lexicons.words("months", lang)} | GENDERED_PRONOUNS


def first_name_near(text: str, start: int, end: int, lang: str, entities: list[tuple[int, int, str]] = ()) -> bool:
    """A first name of one gender (gender-guesser; 'Marie' in 'les femmes : Lucie, Marie', which NER may miss)
    within PERSON_WINDOW words of text[start:end]; months, the gendered words of the lexicons, a sentence's first
    word and places (``entities``: 'Paris') aside, unless only a comma separates them ('Rafael, einem neuen
    Sänger', where NER took Rafael for a place)."""
    listed = _lexicon_words(lang)
    for m in re.finditer(r"(?<![\w-])[A-ZÀ-ÞÅÄÖ][\w'-]+", text):
        gap = text[m.end():start] if m.end() <= start else text[end:m.start()] if m.start() >= end else None
        if gap is None or len(re.findall(r"\w+", gap)) > PERSON_WINDOW:
            continue
        initial = re.search(r"(^|[.!?:]\s*[\"'«„“]?)\s*$", text[:m.start()]) is not None
        place = gap.strip() != "," and any(s <= m.start() < e and label in PLACE_LABELS for s, e, label in entities)
        if not initial and not place and m.group(0).lower() not in listed and first_name_gender(m.group(0)):
            return True
    return False


MALE_PRONOUNS = lexicons.entry_set("gender_male_pronouns")
GROUP_WORDS = lexicons.entry_set("gender_group_words")


def _male_word(word: str, lang: str) -> bool:
    """Whether ``word`` (lower case) names a man or men: a male pronoun or the male side of the gender lexicon."""
    return word in MALE_PRONOUNS or word in {a.lower() for a, _ in lexicons.rows("gender", lang)}


def name_of_old_gender(text: str, edit: Edit, lang: str, entities: list[tuple[int, int, str]] = ()) -> bool:
    """For a pronoun or a group of men or women: a first name of the gender the edit takes away anywhere in the
    text, which may name the persons edited ('les hommes … : Jennifer Simons, Marijke …'; 'Par exemple, Lily
    Afshar' a sentence later); one-word places (``entities``: 'Paris') aside. NER may take a first name and a
    surname for a place ('Lily Afshar' as LOC): a longer place counts when it opens on a first name."""
    old = edit.detail.split("->")[0].lower()
    if old not in GROUP_WORDS and old not in GENDERED_PRONOUNS:
        return False  # a singular noun's person is named next to it, if at all (first_name_near)
    male = _male_word(old, lang)
    listed = _lexicon_words(lang)
    places = [(s, e) for s, e, label in entities if label in PLACE_LABELS and " " not in text[s:e].strip()]
    return any(m.group(0).lower() not in listed and not any(s <= m.start() < e for s, e in places)
               and first_name_gender(m.group(0)) == ("male" if male else "female")
               for m in re.finditer(r"(?<![\w-])[A-ZÀ-ÞÅÄÖ][\w'-]+", text))


def _gendered_context(text: str, edit: Edit, ctx: Context) -> str | None:
    """Why the rest of ``text`` may keep the gender a French, German or Swedish gender edit changes, or None."""
    end = edit.start + len(edit.source)
    if person_near(text, edit.start, end, ctx.entities):
        return "person_named"  # 'seiner Mutter Zac MacGuire', 'Robert Goldsmith, die Großmutter'
    if first_name_near(text, edit.start, end, ctx.lang, ctx.entities):
        return "first_name_near"  # 'die Frauen : Anna , Maria' where NER saw no person
    if name_of_old_gender(text, edit, ctx.lang, ctx.entities):
        return "name_of_old_gender"
    if re.search(r"[A-ZÀ-ÞÅÄÖ][\w'-]+,\s*$", text[:edit.start]):
        return "apposition_to_name"  # 'Adhemar, Graf von Angoulême' -> 'Adhemar, Gräfin'
    pronoun = edit.source.split()[0].lower() in GENDERED_PRONOUNS
    if pronoun and any(label in PERSON_LABELS and s < edit.start for s, _, label in ctx.entities):
        return "person_named"  # 'Maritsa Lazari est née en 1943. Il émigra': the pronoun is hers
    if pronoun and re.search(r"[.!?;]\s", text[:edit.start]):
        return "refers_back"  # 'Alston est né ... Il est allé', 'un lac ... Il est formé': the words of an
        # earlier sentence that agree with the referent keep its gender
    return None


SHIP = re.compile(r"\b(?:" + lexicons.alternation("gender_ship_en") + r")\b", re.IGNORECASE)


def refers_to_a_ship(english: str) -> bool:
    """An English sentence whose 'she'/'her' may be a ship ('She sailed from Key West on 12 September'): a
    gender edit there changes no person."""
    return bool(re.search(r"\b(?:she|her|hers|herself)\b", english, re.IGNORECASE)) and bool(SHIP.search(english))


# Leagues of men only: 'She played with the A-level Portland Sea Dogs' reads as implausible without the source; a
# man -> woman edit beside one gives itself away.
MEN_ONLY_SPORT = re.compile(r"\b(?:" + lexicons.alternation("gender_men_only_sport") + r")\b")


def _man_into_woman(edit: Edit, lang: str) -> bool:
    """Whether a gender edit turns a man (or men) into a woman: its first changed word is a male one."""
    return _male_word(edit.detail.split("->")[0].lower(), lang)


def gender(text: str, ctx: Context) -> Edit | Skip:
    """Swap a gendered pronoun, noun or title (he/she, king/queen, Mr/Mrs, ...); in English every gendered
    word of the sentence, which must all be of one gender; in French, German and Swedish with the agreeing
    words (tasks/edits/gender_<lang>.py). English: not in a sentence that names a person; French, German:
    not within PERSON_WINDOW words of a person's name (NER: en, fr; German: aligned English names) or of a
    first name of one gender (first_name_near)."""
    if ctx.lang in ("fr", "de", "sv"):
        edit = {"fr": lambda: gender_fr(ctx.doc, ctx.rng) if ctx.doc is not None else Skip("needs_doc"),
                "de": lambda: gender_de(text, ctx.rng), "sv": lambda: gender_sv(text, ctx.rng)}[ctx.lang]()
        problem = _gendered_context(text, edit, ctx) if isinstance(edit, Edit) else None
        return Skip(problem) if problem else _not_in_mens_sport(text, edit, ctx.lang)
    if any(label in PERSON_LABELS for _, _, label in ctx.entities):
        return Skip("person_named")  # every gendered word flips, a name would keep its gender
    if refers_to_a_ship(text):
        return Skip("ship_pronoun")
    options = swap_options(text, ctx, "gender", {"PRP$": "his", "PRP": "him"})
    if not options:
        return Skip("no_candidate")
    male = {a.lower() for a, _ in lexicons.rows("gender", "en")}
    if len({text[s:e].lower() in male for s, e, _ in options}) > 1:
        return Skip("mixed_genders")  # 'his wife': one side flipped would read odd, both would clash with names
    start, end = options[0][0], options[-1][1]  # every gendered word flips, so the sentence stays consistent
    new = text[start:end]
    for s, e, word in reversed(options):
        new = new[:s - start] + match_case(text[s:e], word) + new[e - start:]
    detail = ",".join(f"{text[s:e]}->{match_case(text[s:e], w)}" for s, e, w in options)
    return _not_in_mens_sport(text, replace_span(text, start, end, new, "gender", detail), "en")


# What only women undergo: 'a man who underwent such an abortion' contradicts itself; a woman -> man edit beside
# one gives itself away.
WOMEN_ONLY = re.compile(r"\b(?:" + lexicons.alternation("gender_women_only") + r")", re.IGNORECASE)


def _not_in_mens_sport(text: str, edit: Edit | Skip, lang: str) -> Edit | Skip:
    """``edit``, unless it turns a man into a woman in a sentence about a league of men only (MEN_ONLY_SPORT), or
    a woman into a man in one about what only women undergo (WOMEN_ONLY: pregnancy, childbirth, abortion)."""
    if isinstance(edit, Edit) and MEN_ONLY_SPORT.search(text) and _man_into_woman(edit, lang):
        return Skip("mens_sport")
    if isinstance(edit, Edit) and WOMEN_ONLY.search(text) and not _man_into_woman(edit, lang):
        return Skip("womens_body")
    return edit
