"""The pronoun edit: a pronoun changes its person (his -> my, them -> us, son -> mon), and only where it is the
only mention of its referent and the new person fits the text: never a first-person word in a third-person
narrative ('He was survived by my wife')."""
from __future__ import annotations

import re

from tasks.edits.context import Context
from tasks.edits.gender import swap_options
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import match_case, replace_span

# language: {person: forms}; ambiguous forms (German 'ihr', 'sie', Swedish 'den'/'det') count as the third
# person, which only makes the checks stricter.
PERSONS = {
    "en": {1: {"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"},
           2: {"you", "your", "yours", "yourself", "yourselves"},
           3: {"he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself", "they", "them",
               "their", "theirs", "themselves"}},
    "fr": {1: {"je", "j'", "me", "m'", "moi", "mon", "ma", "mes", "nous", "notre", "nos"},
           2: {"tu", "te", "t'", "toi", "ton", "ta", "tes", "vous", "votre", "vos"},
           3: {"il", "ils", "elle", "elles", "lui", "eux", "son", "sa", "ses", "leur", "leurs"}},
    "de": {1: {"ich", "mich", "mir", "mein", "meine", "meinen", "meinem", "meiner", "meines", "wir", "uns", "unser",
               "unsere", "unseren", "unserem", "unserer", "unseres"},
           2: {"du", "dich", "dir", "dein", "deine", "deinen", "deinem", "deiner", "deines", "euch", "euer", "eure",
               "euren", "eurem", "eurer", "eures"},
           3: {"er", "ihn", "ihm", "sein", "seine", "seinen", "seinem", "seiner", "seines", "sie", "ihr", "ihre",
               "ihren", "ihrem", "ihrer", "ihres", "ihnen"}},
    "sv": {1: {"jag", "mig", "mej", "min", "mitt", "mina", "vi", "oss", "vår", "vårt", "våra"},
           2: {"du", "dig", "dej", "din", "ditt", "dina", "ni", "er", "ert", "era"},
           3: {"han", "hon", "honom", "henne", "hans", "hennes", "dem", "deras", "sin", "sitt", "sina"}},
}
# object forms, and the subjects that would make them reflexive ('we voted for us')
OBJECTS = {"en": {"me", "us", "him", "them", "her"}, "fr": {"moi", "nous", "lui", "eux"},
           "de": {"mich", "mir", "uns", "ihn", "ihm"}, "sv": {"mig", "oss", "honom", "henne", "dem"}}
SUBJECTS = {"en": {"i", "we", "he", "she", "they"}, "fr": {"je", "j", "nous", "il", "elle", "ils", "elles"},
            "de": {"ich", "wir", "er"}, "sv": {"jag", "vi", "han", "hon", "de"}}
WORD = re.compile(r"\w+'|\w+")
# a gendered pronoun before these meets the name's own gender ('Jag heter Clementine' -> 'Han heter Clementine')
GENDERED = {"he", "she", "il", "elle", "er", "han", "hon"}
NAMING_VERBS = {"heter", "hette", "heiße", "heißt", "hieß", "heisst"}


# a first person in quoted or reported speech is the speaker, whom a third person names just as well ('he told
# The Literary Digest: My name ...' -> 'His name ...' changes nothing)
SPEECH = re.compile(r"``|''|[\"“”«»„]|\b(?:said|says|say|told|tells|asked|replied|wrote|writes|stated|sagte|sagt"
                    r"|erklärte|schrieb|antwortete|dit|déclare|déclara|répondu|répondit|écrit|sa|säger|skrev)\b",
                    re.IGNORECASE)

# a pronoun fixed in a formula: another person breaks it ('sorry for your loss' -> 'my loss')
FORMULA = re.compile(r"\b(?:your loss|my (?:god|goodness|gosh|lord)|herregud|mon dieu|mein gott)\b", re.IGNORECASE)


def person(word: str, lang: str) -> int | None:
    """1, 2 or 3 for a pronoun of ``lang`` (an English "I'" of "I'm" is "I"), else None."""
    word = word.lower()
    word = word[:-1] if lang == "en" and word.endswith("'") else word
    return next((p for p, forms in PERSONS.get(lang, {}).items() if word in forms), None)


def person_change_problem(text: str, start: int, end: int, new: str, lang: str) -> str | None:
    """Why replacing the pronoun at ``text[start:end]`` by ``new`` would not read as a plain change of
    person, or None: another pronoun of the old person is left (the referent is still mentioned, 'he ... my
    papers'), the text never speaks in the new first or second person ('survived by my wife', and at the
    opening too: 'Mein Sohn heiratete ... und starb 1883' gives itself away in a report; a first person does
    fit a line said to a 'you'), an object would need to be reflexive ('we voted for us', 'you want me to talk
    to me'), or a gendered pronoun would name someone whose name may say otherwise ('Han heter Clementine'), or
    a speaker's first person would become a third person that still names the speaker (SPEECH), or the pronoun
    is part of a formula (FORMULA)."""
    if any(m.start() <= start < m.end() for m in FORMULA.finditer(text)):
        return "fixed_formula"
    old_person, new_person = person(text[start:end], lang), person(new, lang)
    following = re.match(r"\s+(\w+)", text[end:])
    if new.lower() in GENDERED and following is not None and following.group(1).lower() in NAMING_VERBS:
        return "gendered_before_name"
    others = [m.group(0).lower() for m in WORD.finditer(text) if not (start <= m.start() < end)]
    if any(person(w, lang) == old_person for w in others):
        return "person_still_mentioned"
    if old_person == 1 and new_person == 3 and SPEECH.search(text):
        return "reported_speech"
    if new_person in (1, 2) and not any(person(w, lang) == new_person for w in others) and not _spoken_to(
            new_person, others, lang):
        return "third_person_text"
    if new.lower() in OBJECTS.get(lang, ()) and any(w.rstrip("'") in SUBJECTS.get(lang, ())
                                                    and person(w, lang) == new_person for w in others):
        return "reflexive_needed"
    if new_person in (1, 2) and new.lower() in OBJECTS.get(lang, ()) and new.lower() in others:
        return "reflexive_needed"  # the same speaker or hearer twice: 'want me to talk to me' needs 'myself'

    return None


def _spoken_to(new_person: int, others: list[str], lang: str) -> bool:
    """A first person where the text addresses someone: a line said to a 'you' has a speaker ('What else do you
    want from him?' -> 'from me?'), so pronoun edits run both ways in dialogue, not only me -> him, which a
    hypothesis-only language model spots by the rarer word alone."""
    return new_person == 1 and any(person(w, lang) == 2 for w in others)


def _swap(text: str, ctx: Context, options: list[tuple[int, int, str]], type_: str) -> Edit:
    start, end, new = ctx.rng.choice(options)
    new = match_case(text[start:end], new)
    return replace_span(text, start, end, new, type_, f"{text[start:end]}->{new}")


def pronoun(text: str, ctx: Context) -> Edit | Skip:
    """Change a pronoun's person (his -> my, them -> us, son -> mon), never to a form that may mean the same
    (their, leur), and only where the new person fits the text (person_change_problem)."""
    options = swap_options(text, ctx, "pronoun", {"PRP$": "my", "PRP": "me"})
    if not options:
        return Skip("no_candidate")
    problems = [person_change_problem(text, s, e, new, ctx.lang) for s, e, new in options]
    fitting = [o for o, problem in zip(options, problems) if problem is None]
    return _swap(text, ctx, fitting, "pronoun") if fitting else Skip(problems[0])
