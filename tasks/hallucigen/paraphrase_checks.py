"""Faithfulness checks of a paraphrase against its source: no number or name the source lacks (a
paraphrase may drop one: that omits, it does not hallucinate), negation parity preserved, and a lexical
similarity above a threshold. A SHROOM paraphrase that fails them is no faithful hyp+."""
from __future__ import annotations

import re
from collections import Counter

from tasks.edits import lexicons
from tasks.edits.names import spelling_variant
from tasks.text import DIGITS, WORD, token_f1

NAME = re.compile(r"(?<=\s)[A-ZÀ-ÞÅÄÖ][^\W\d_]+")
NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor)\b|n't\b", re.IGNORECASE)
# English number words a paraphrase may write as digits ('from three to five years' -> 'from 3 to 5 years').
NUMBER_WORDS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve "
                                                "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
                                                .split())} | {"thirty": "30", "forty": "40", "fifty": "50",
                                                              "hundred": "100", "thousand": "1000"}
CONNECTORS = {"of", "the", "and", "for", "s"}  # inside a name an acronym skips: 'Democratic People's Republic of Korea'
REPEATED = re.compile(r"(\S{3,}?)(?:[\s-]+\1){2,}")


def name_runs(text: str) -> list[list[str]]:
    """Runs of capitalised words, connectors ('of', 'the', "'s") inside a run skipped."""
    runs, run = [], []
    for word in re.findall(r"[A-Za-z]+", text):
        if word[:1].isupper():
            run.append(word)
        elif word not in CONNECTORS and run:
            runs.append(run)
            run = []
    return runs + [run] if run else runs


def acronyms(text: str) -> dict[str, list[str]]:
    """{initials: words} of every stretch of two or more words of a name run: 'European Union' -> EU."""
    return {"".join(w[0] for w in run[i:j]): run[i:j] for run in name_runs(text)
            for i in range(len(run)) for j in range(i + 2, len(run) + 1)}


def new_names(source: str, hyp: str) -> set[str]:
    """Names (capitalised words past the first) of ``hyp`` whose five-letter stem no word of ``source`` has, in
    any case: 'Palestinians' for 'Palestinian' or a title-cased 'The Development' is no new name; nor is an
    acronym of a name of the source ('EU' for 'European Union'), nor the words of a name the source abbreviates
    ('Democratic People's Republic of Korea' for 'DPRK')."""
    stems = {w[:5] for w in WORD.findall(source.lower())}
    short = set(acronyms(source))
    spelled = {w for a, words in acronyms(hyp).items() if a in set(WORD.findall(source)) for w in words}
    names = NAME.findall(source)
    return {n for n in NAME.findall(hyp) if n.lower()[:5] not in stems and n not in short and n not in spelled
            and not any(spelling_variant(n, s) for s in names)}


def degenerate(text: str) -> bool:
    """Model output stuck in a loop: a word or number three times in a row ('800-381-0266 800-381-0266 ...'), or
    broken off in dashes ('sold to the lady on my left- -')."""
    return REPEATED.search(text) is not None or re.search(r"\w-\s+-", text) is not None


def failed_checks(source: str, hyp: str, min_similarity: float) -> list[str]:
    """The checks ``hyp`` fails against ``source`` (empty: consistent)."""
    failed = []
    spelled = [NUMBER_WORDS[w] for w in WORD.findall(source.lower()) if w in NUMBER_WORDS]
    if Counter(DIGITS.findall(hyp)) - Counter(DIGITS.findall(source) + spelled):
        failed.append("numbers")
    if new_names(source, hyp):
        failed.append("names")
    if len(NEGATION.findall(source)) % 2 != len(NEGATION.findall(hyp)) % 2:
        failed.append("negation")
    if token_f1(source, hyp) < min_similarity:
        failed.append("similarity")
    return failed


STOP = {"that", "this", "with", "from", "have", "been", "were", "which", "their", "there", "they", "them", "will",
        "would", "also", "into", "about", "after", "other", "such", "some", "more", "most", "than", "then", "when",
        "where", "while", "what", "who", "whose", "very", "only", "just", "being", "does", "doing", "each", "both",
        "these", "those", "because", "through", "over", "under", "upon", "your", "yours", "ours", "it's", "its"}


def content_stems(text: str) -> set[str]:
    """Five-letter stems of the content words (4+ letters, no function word) of ``text``."""
    return {w[:5] for w in WORD.findall(text.lower()) if len(w) >= 4 and w not in STOP and not w.isdigit()}


def reversed_polarity(source: str, hyp: str) -> bool:
    """hyp holds an antonym or a reversal ('in favour of' -> 'against', 'won' -> 'lost': lexicons antonym and
    reversal) of a word of the source that it does not keep."""
    src, out = source.lower(), hyp.lower()
    rows = [(a.lower(), b.lower()) for a, b in lexicons.rows("antonym", "en") + lexicons.rows("reversal", "en")]
    pairs = rows + [(b, a) for a, b in rows]

    def has(text: str, phrase: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None

    return any(has(src, a) and not has(out, a) and has(out, b) and not has(src, b) for a, b in pairs)


# Words that qualify a claim (hedge, extent, approximation, degree, quantity, frequency, scale), by class: a
# faithful paraphrase keeps as many of each class as its source has ('largely' may become 'mostly', not vanish;
# 'I believe that X' does not become 'X'). Evidence: decision 0014.
QUALIFIERS = {
    "hedge": "perhaps maybe possibly probably likely apparently seemingly arguably in_a_sense necessarily i_believe "
             "i_think in_my_opinion in_my_view",
    "extent": "largely mainly mostly primarily predominantly chiefly partly partially essentially",
    "approximation": "almost nearly approximately roughly virtually practically up_to at_least at_most more_than "
                     "less_than fewer_than at_the_beginning_of at_the_end_of",
    "degree": "too extremely absolutely completely entirely fully totally highly particularly especially "
              "in_particular far such",
    "quantity": "all every each various several numerous many a_number_of most few",
    "frequency": "finally eventually ultimately always often frequently sometimes occasionally rarely seldom "
                 "usually generally already again now from_now_on",
    "scale": "major minor significant considerable substantial serious direct directly main key personal "
             "personally",
}
QUALIFIER = {w.replace("_", " "): cls for cls, words in QUALIFIERS.items() for w in words.split()}
QUALIFIER_RE = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, QUALIFIER), key=len, reverse=True)) + r")\b")
PARTICIPLE = (r"(?:\w+(?:ed|en|wn)|done|made|held|told|paid|said|set|put|led|sent|built|brought|thought|found|kept|"
              r"met|won)")
AGENT_PASSIVE = re.compile(rf"\b(?:be|been|being|is|are|was|were)\s+(?:\w+ly\s+)?{PARTICIPLE}\s+(?:\w+\s+){{0,3}}?by\b",
                           re.IGNORECASE)


TITLE = r"(?:Mr|Mrs|Ms|Madam|Madame|Sir|Dr|Commissioner|President)\.?"
VOCATIVE = re.compile(rf"^(?:{TITLE}\s+)+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*(?=,)"
                      rf"|(?<=,\s)(?:{TITLE}\s+)+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*(?=\s*[.!?]?$)")
BASE_FORM_AFTER = "will|would|shall|should|can|could|may|might|must|to|do|does|did|not|n't"
GENDERED = re.compile(r"\b(?:he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
FUTURE = re.compile(r"\b(?:will|shall|won't)\b|'ll\b", re.IGNORECASE)
SPEAKER = re.compile(r"\bI\b|\b[Ww]e\b")
DOUBLED_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")  # 'the end of the world..', not an ellipsis
PLACEHOLDER = re.compile(r"(?<!\w)_+(?!\w)")  # a blank the paraphraser padded its output with: 'For example. _ _'
BARE_PROGRESSIVE = re.compile(r"\b(?:why|what|where|how|when|who)\s+(?:you|we|they|he|she|i|it)\s+\w+ing\b",
                              re.IGNORECASE)  # 'Why you being nice to me?': the auxiliary dropped
FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself|we|us|our|ours|ourselves)\b", re.IGNORECASE)


def addressees(text: str) -> set[str]:
    """The names ``text`` addresses ('Mr Swoboda, I have ...', '..., Mr Evans.'): last word of each vocative."""
    return {m.group(0).split()[-1] for m in VOCATIVE.finditer(text.strip())}


def number_changed(word: str, src: set[str], out: set[str], hyp: str) -> bool:
    """``word`` of the source has only its singular or plural in ``hyp`` (lower-cased), not as a verb after a
    modal, 'to' or 'do' ('meets' -> 'will meet')."""
    if len(word) < 4 or not word.isalpha() or word in out:
        return False
    other = [w for w in (word + "s", word[:-1] if word.endswith("s") else "") if w and w in out and w not in src]
    return any(not re.search(rf"\b(?:{BASE_FORM_AFTER})\s+(?:\w+\s+)?{w}\b", hyp) for w in other)


def role_changes(source: str, hyp: str) -> list[str]:
    """Where ``hyp`` changes who does what beyond the words: an addressee of the source made a participant
    ('Mr Swoboda, I have been shown' -> 'was shown to me by Mr. Swoboda'), a noun's grammatical number changed
    ('the first decisions' -> 'the first decision'), a future put in or taken out, or a gender the source
    leaves open given ('Thank you, Commissioner' -> 'thank Commissioner for his reply'), or the speaker dropped
    ('I give the floor to Mrs Gradin' -> 'Mrs Gradin was given the floor'; 'I believe that X' -> 'X')."""
    failed = []
    if addressees(source) - addressees(hyp):
        failed.append("addressee_made_participant")
    if SPEAKER.search(source) and not FIRST_PERSON.search(hyp):
        failed.append("speaker_dropped")
    src, out = set(WORD.findall(source.lower())), set(WORD.findall(hyp.lower()))
    if any(number_changed(w, src, out, hyp.lower()) for w in src):
        failed.append("grammatical_number")
    if bool(FUTURE.search(source)) != bool(FUTURE.search(hyp)):
        failed.append("tense_changed")
    if GENDERED.search(hyp) and not GENDERED.search(source):
        failed.append("gender_added")  # 'Thank you, Commissioner' -> 'thank Commissioner for his reply'
    return failed


def mangled_words(source: str, hyp: str) -> set[str]:
    """Words of ``hyp`` that are a word of ``source`` with its accented letters lost ('Rübig' -> 'Rbig'), two
    adjacent words of it glued ('Sir Jack' -> 'SirJack'), or an -ing form the source lacks spelt without its g
    ('sayin', 'sleepin'): a hyp+ with one is not fluent."""
    words = WORD.findall(source)
    broken = ({re.sub(r"[^\x00-\x7f]", "", w) for w in words if not w.isascii()}
              | {(a + b).lower() for a, b in zip(words, words[1:])})
    dropped_g = {w for w in WORD.findall(hyp) if len(w) >= 5 and w.lower().endswith("in") and w not in words
                 and _zipf_en(w + "g") >= max(3.0, _zipf_en(w) + 1.5)}
    return {w for w in WORD.findall(hyp) if (w in broken or w.lower() in broken) and w not in set(words)} | dropped_g


def _zipf_en(word: str) -> float:
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "en")


def qualifier_classes(text: str) -> Counter:
    """How many qualifiers of each class ``text`` holds."""
    return Counter(QUALIFIER[m] for m in QUALIFIER_RE.findall(text.lower()))


def numbers_of(text: str) -> Counter:
    """The numbers of ``text``, number words written as digits."""
    return Counter(DIGITS.findall(text)) + Counter(NUMBER_WORDS[w] for w in WORD.findall(text.lower())
                                                   if w in NUMBER_WORDS)


def faithfulness_failures(source: str, hyp: str, params: dict) -> list[str]:
    """Why ``hyp`` cannot serve as a faithful hyp+ of ``source`` (empty: it can): the consistency checks,
    reversed polarity, a number or qualifier of the source dropped, an active clause turned into a passive
    with a 'by' agent, a changed role, number or future (``role_changes``), a mangled word, a loop, the
    paraphraser's unknown-token mark '\u2047', a dialogue dash, doubled full stop or blank ('_') the source lacks,
    a question that lost its auxiliary, and content added or dropped beyond the shares in params."""
    failed = failed_checks(source, hyp, params["min_similarity"])
    if reversed_polarity(source, hyp):
        failed.append("reversed_polarity")
    if numbers_of(source) - numbers_of(hyp):
        failed.append("dropped_number")
    if qualifier_classes(source) - qualifier_classes(hyp):
        failed.append("dropped_qualifier")
    if AGENT_PASSIVE.search(hyp) and not AGENT_PASSIVE.search(source):
        failed.append("agent_passive")
    failed += role_changes(source, hyp)
    if mangled_words(source, hyp):
        failed.append("mangled_word")
    if degenerate(hyp):
        failed.append("degenerate")
    dash = hyp.lstrip().startswith("-") and not source.lstrip().startswith("-")
    doubled_stop = DOUBLED_STOP.search(hyp) is not None and DOUBLED_STOP.search(source) is None
    blank = PLACEHOLDER.search(hyp) is not None and PLACEHOLDER.search(source) is None
    if "\u2047" in hyp or dash or doubled_stop or blank:
        failed.append("stray_mark")
    if BARE_PROGRESSIVE.search(hyp) and not BARE_PROGRESSIVE.search(source):
        failed.append("dropped_auxiliary")
    src, out = content_stems(source), content_stems(hyp)
    if out and len(out - src) / len(out) > params["max_added_content"]:
        failed.append("added_content")
    if src and len(src - out) / len(src) > params["max_dropped_content"]:
        failed.append("dropped_content")
    return failed


def one_side_adds(a: str, b: str, max_added: float) -> bool:
    """A pair where one side says more: a number or (non-initial) name only one side has, a trailing
    ': Source'-style tag, or content stems of one side mostly missing from the other."""
    def extras(x: str, y: str) -> bool:
        added = content_stems(x) - content_stems(y)
        return bool(Counter(DIGITS.findall(x)) - Counter(DIGITS.findall(y))
                    or set(NAME.findall(x)) - set(NAME.findall(y))
                    or (content_stems(x) and len(added) / len(content_stems(x)) > max_added))
    tag = re.compile(r":\s*\S+\s*$")
    return extras(a, b) or extras(b, a) or bool(tag.search(a)) != bool(tag.search(b))


# A Swedish side that opens on a cause the other lacks says more ('Det var jag som tvingade honom till det.' ->
# 'För att jag var den som tvingade honom.').
CAUSE_OPENING = re.compile(r"^\W*(?:för att|eftersom|därför)\b", re.IGNORECASE)


def swedish_side_adds(source: str, good: str, max_added: float) -> bool:
    """``one_side_adds``, or an opening cause only one side has (``CAUSE_OPENING``)."""
    return one_side_adds(source, good, max_added) or bool(CAUSE_OPENING.match(source)) != bool(
        CAUSE_OPENING.match(good))
