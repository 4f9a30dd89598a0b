"""The tense edit: English moves the main verb group, French, German and Swedish their one listed finite verb,
between past, present and future ('is' -> 'was', 'est' -> 'sera'); the datasets draw the target (dataset_tense_edit),
each direction within its class of sentences. Never where a sentence is timeless or bounded by now."""
from __future__ import annotations

import hashlib
import random
import re

from spacy.tokens import Doc

from tasks.edits import lexicons
from tasks.edits.context import Context, token_at
from tasks.edits.numerals import DECADE, LAST_PAST_YEAR, YEAR
from tasks.edits.result import Edit, Skip
from tasks.edits.rewrite import Rewrite
from tasks.edits.swap import match_case, replace_span
from tasks.edits.verbgroup import (
    VerbGroup,
    agreement,
    base_form,
    find_group,
    finite_form,
    is_auxiliary_use,
    lemma_of,
    tense_of,
    tense_of_token,
)

TENSES = ("past", "present", "future")
SUBJECTS = {"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"}
# Verbs whose past, said by or to the speaker, is the polite present ('How much did you want for it?', 'I was
# wondering'): no change of meaning.
POLITE_PAST = {"want", "wonder", "hope", "wish"}


def tense_edit(doc: Doc, target: str) -> Edit | Skip:
    """Re-inflect the main verb group of ``doc`` into ``target`` tense, or say why not."""
    group = find_group(doc)
    if isinstance(group, str):
        return Skip(group)
    if doc.lang_ == "en" and _subjectless(group):
        return Skip("no_subject")
    current = tense_of(group)
    if current not in TENSES:
        return Skip(current)
    if current == target:
        return Skip("same_tense")
    if _other_finite_in(doc, group, current):
        return Skip("tense_clash")
    if group.is_inverted and not group.do_support:
        return Skip("inverted_subject")
    subject = group.subject.lower_ if group.subject is not None else ""
    if subject.startswith(("d'", "d’")):
        return Skip("contracted_do")  # "D'you want" -> "D'you wanted"
    if target == "past" and doc.lang_ == "en" and lemma_of(group.head) in POLITE_PAST and subject in ("i", "you"):
        return Skip("polite_past")
    after_head = doc[group.head.i + 1] if group.head.i + 1 < len(doc) else None
    if group.head.lower_ == "used" and after_head is not None and after_head.lower_ == "to":
        return Skip("used_to")
    rw = Rewrite(doc)
    reason = _from_future(group, target, rw) if current == "future" else _from_finite(group, target, rw)
    if reason:
        return Skip(reason)
    return rw.edit("tense", f"{current}->{target}")


def _subjectless(group: VerbGroup) -> bool:
    """A main verb with no subject of its own: an imperative, or the formula 'thank you' ('Mr Evans, thank you'
    never becomes 'Mr Evans, thanked you')."""
    head = group.head
    after = head.doc[head.i + 1] if head.i + 1 < len(head.doc) else None
    if head.lemma_.lower() == "thank" and after is not None and after.lower_ == "you" and not group.auxes:
        return not any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in head.children)
    return head.dep_ == "ROOT" and not any(c.dep_ in SUBJECTS for c in head.children)


def _other_finite_in(doc: Doc, group: VerbGroup, tense: str) -> bool:
    """Another finite verb of ``doc`` in ``tense``: it would keep it beside the edited group ('There is no freedom
    if you don't acknowledge it' -> 'There was no freedom if you don't ...' clashes)."""
    own = {group.head.i, *(a.i for a in group.auxes)}
    return any(tense_of_token(t) == tense for t in doc if t.i not in own)


# Each direction of the datasets' tense edit is restricted to the sentences whose content allows it, so that a
# blind reader sees a plausible sentence in its new tense (earlier reviews: a 'will' put into a report of facts
# reads as an error, 'In 1990 he will win'; a past moved into the present reads as a historical present, 'is
# survived by', 'Before its independence, Finland is', or as a birth, 'is born'). The classes, by direction:
# - present -> past: any present that passes the other checks ('The team wins the cup' -> 'won').
# - past -> present: a simple past of a stative verb (STATIVE: be, have, live, lie, consist, contain, ...) with no
#   past time anchor (PAST_ANCHOR: a year, decade or century, 'ago', 'formerly', 'then', a 'when', 'before' or
#   'after' clause, a birth, death or founding): 'He had a car' -> 'He has a car'; not 'In 1924 he had a car',
#   not a passive ('was born', 'was survived by').
# - present or past -> future: what reads as a plan or intention: a first- or second-person subject in speech
#   ('We support the proposal' -> 'We will support the proposal'), not a verb of a mental state or a formula
#   (NOT_INTENDED: 'I thank you', 'I know'); and, from the present only, a general statement of what someone does
#   with an activity verb in the simple present ('The club plays its home games at Elland Road' -> 'will play');
#   never a stative or locative verb ('Walcott is a village', 'The river flows into the sea') and never beside a
#   past anchor.
# - future -> past: a plan ('The company will open a store' -> 'The company opened a store'), not where a present
#   stays beside it in a conditional or temporal clause ('I will tell you if you translate it' -> 'I told you if
#   you translate it' clashes) nor beside a future time word ('will be opened next year' -> 'was opened next
#   year').
# - future -> present: the same, of a stative verb or a first- or second-person subject ('The project will be a
#   success' -> 'The project is a success', 'We will support it' -> 'We support it').
STATIVE = {"be", "have", "live", "lie", "consist", "contain", "belong", "remain", "serve", "own", "work", "include",
           "comprise", "hold", "stay", "reside", "stand", "cover", "exist", "house", "possess"}
# Verbs a future of which does not read as a plan: places and shapes ('The road runs ...', 'The river flows ...'),
# definitions ('The term refers to ...'), mental states and formulas ('I thank you', 'We know', 'I hope').
LOCATIVE = {"flow", "run", "stretch", "border", "rise", "cross", "extend", "connect", "join", "drain", "empty",
            "originate", "reach", "pass", "lead", "begin", "end", "start", "meet", "form", "surround", "face",
            "overlook", "sit", "situate", "locate", "refer", "mean", "denote", "describe", "represent",
            "correspond", "equal", "depend", "differ", "seem", "look", "sound", "feel", "resemble", "lack",
            "need", "deserve", "matter", "count", "weigh", "measure", "cost", "span", "occupy", "surround",
            "encompass", "divide", "separate", "carry", "share", "consist", "contain", "belong", "take", "continue",
            "turn", "head", "curve", "bend", "wind", "go", "enter", "leave", "exit", "intersect", "follow"}
NOT_INTENDED = {"thank", "hope", "wish", "want", "think", "believe", "know", "understand", "mean", "like", "love",
                "need", "feel", "regret", "apologise", "apologize", "congratulate", "welcome", "see", "hear",
                "remember", "suppose", "guess", "doubt", "fear", "say", "assume", "agree", "realise", "realize",
                "appreciate", "admit", "promise", "declare", "note", "recall", "forget", "mind", "bet", "wonder",
                "am", "get", "go", "let", "tell"}
SPEAKERS = {"i", "we", "you"}
PAST_ANCHOR = {lang: re.compile(r"\b(?:" + words + r")\b", re.IGNORECASE) for lang, words in {
    "en": r"ago|formerly|former|once|then|when|whenever|before|after|afterwards|later|earlier|previously|originally|"
          r"initially|until|till|during|since|yesterday|last|late|born|died|dead|death|founded|established|built|"
          r"married|killed|buried|retired|history|historically|in the past|at the time|at that time|season|early|"
          r"eventually|finally|subsequently",
    "fr": r"autrefois|jadis|alors|quand|lorsque|avant|après|depuis|naguère|il y a|hier|née?s?|morte?s?|décédée?|"
          r"fondée?s?|ancien\w*|dernière?s?|puis|ensuite|auparavant|plus tard|époque|à l'origine|à l’origine|"
          r"finalement|jusqu'|jusqu’|guerre",
    "de": r"damals|früher|einst|einmal|als|bevor|nachdem|vorher|seit|ehemal\w*|gestern|letzte\w*|geboren|gestorben|"
          r"starb|gegründet|dann|danach|später|bis|ursprünglich|\w*zeit|\w*krieg\w*|ende|"
          r"vor (?:seiner|ihrer|seinem|ihrem|dem|der|den)",
    "sv": r"förr|tidigare|när|innan|efter|sedan|då|igår|i går|förra|född|dog|grundades|grundad|dåvarande|senare|"
          r"tills|ursprungligen|\w*krig\w*",
}.items()}
FUTURE_ANCHOR = re.compile(r"\b(?:tomorrow|next|soon|upcoming|forthcoming|future|coming|shortly|"
                           r"demain|prochaine?s?|bientôt|avenir|morgen|bald|nächste\w*|künftig\w*|zukunft|"
                           r"imorgon|snart|nästa|framöver|framtiden)\b", re.IGNORECASE)
CONDITIONAL = {"if", "unless", "when", "whenever", "once", "until", "till", "before", "after", "while", "as",
               "provided", "because", "since"}


def past_anchor(text: str, lang: str = "en") -> bool:
    """A year, decade or century, a month ('is at Penang on 1 August': a dated event), or a word that ties the
    sentence to a time past ('ago', 'when', 'born', 'early in the season')."""
    months = re.compile(r"\b(?:" + "|".join(re.escape(m) for m in lexicons.words("months", lang)) + r")\b")
    return bool(YEAR.search(text) or DECADE.search(text) or CENTURY.search(text) or PAST_ANCHOR[lang].search(text)
                or months.search(text))


def _anchor_reason(text: str) -> str:
    """A year, decade or century long past ('tense_with_past_date'), else a past word ('past_anchor')."""
    years = YEAR.findall(text) + DECADE.findall(text)
    dated = any(int(y) <= LAST_PAST_YEAR for y in years) or CENTURY.search(text)
    return "tense_with_past_date" if dated else "past_anchor"


def _target_order(text: str, current: str, rng: random.Random | None) -> list[str]:
    """The tenses other than ``current`` in an order drawn from ``rng`` or, without one, from the text's hash."""
    rng = rng or random.Random(hashlib.sha256(text.encode("utf-8")).hexdigest())
    return rng.sample([t for t in TENSES if t != current], 2)


def _first_applying(attempts: list[tuple[str, callable]]) -> Edit | Skip:
    """The first Edit of ``attempts`` (target, make), else the skip of the first target in TENSES order."""
    skips = {}
    for target, make in attempts:
        result = make()
        if isinstance(result, Edit):
            return result
        skips[target] = result
    return next(skips[t] for t in TENSES if t in skips)


def dataset_tense_edit(doc: Doc, rng: random.Random | None = None) -> Edit | Skip:
    """The tense edit both datasets use: the main verb group into another tense, the targets tried in an order
    drawn from ``rng`` (else from a hash of the text), each only in the class of sentences that allows it (see
    above); none that leaves a future beside a new past or puts a present or future beside a past date."""
    group = find_group(doc)
    if isinstance(group, str) or tense_of(group) not in TENSES:
        return tense_edit(doc, "past")  # the reason there is no verb group to move
    current = tense_of(group)

    def attempt(target: str):
        def make() -> Edit | Skip:
            reason = _direction_class(doc, group, current, target)
            if reason:
                return Skip(reason)
            result = tense_edit(doc, target)
            if isinstance(result, Edit) and past_beside_future(result):
                return Skip("past_beside_future")
            if isinstance(result, Edit) and tense_with_past_date(result, "en"):
                return Skip("tense_with_past_date")
            return result
        return make

    return _first_applying([(t, attempt(t)) for t in _target_order(doc.text, current, rng)])


def _direction_class(doc: Doc, group: VerbGroup, current: str, target: str) -> str | None:
    """Why ``doc`` is not of the class of sentences that may go from ``current`` into ``target`` (see above)."""
    lemma = lemma_of(group.head)
    subject = group.subject.lower_ if group.subject is not None else ""
    speaker = subject in SPEAKERS
    plain = not group.auxes or group.do_support  # a simple tense: no perfect, progressive or passive
    if target in ("present", "future") and current != "future" and past_anchor(doc.text):
        return _anchor_reason(doc.text)
    if target == "past" and FUTURE_ANCHOR.search(doc.text):
        return "future_anchor"  # 'will be opened next year' -> 'was opened next year'
    if current == "past" and target == "present" and not (plain and lemma in STATIVE):
        return "not_stative"
    if target == "future":
        if speaker and lemma not in NOT_INTENDED and group.head.lower_ not in NOT_INTENDED:
            return None
        if current == "present" and plain and not speaker and lemma not in STATIVE | LOCATIVE | NOT_INTENDED \
                and subject not in ("it", "there", "this", "that", "which", "who") and group.subject is not None \
                and group.subject.dep_ == "nsubj":
            return None
        return "not_a_plan"
    if current == "future":
        own = {group.head.i, *(a.i for a in group.auxes)}
        if any(t.i not in own and (tense_of_token(t) in ("present", "past") or t.lower_ in CONDITIONAL
                                   and t.dep_ in ("mark", "advmod")) for t in doc):
            return "future_with_clause"
        if target == "present" and not (speaker or lemma in STATIVE):
            return "not_stative"
    return None


def _from_future(group: VerbGroup, target: str, rw: Rewrite) -> str | None:
    """will (not) V -> V-ed / did not V; will (not) be -> was (not); will have V-en -> had V-en."""
    will = group.first
    if will.lower_ == "'ll":
        return "contracted_will"
    rest = group.auxes[1:] + [group.head]
    base = rest[0]
    if base.tag_ != "VB":
        return "future_without_base"
    lemma = lemma_of(base)
    agr = agreement(group)
    if agr is None and (target == "present" or lemma == "be" or group.negs):
        return "agreement_unknown"
    agr = agr or "3sg"
    if is_auxiliary_use(group, base) or lemma == "be":
        form = finite_form(lemma, target, agr)
        if form is None:
            return "no_inflection"
        rw.replace(will.i, form)
        rw.delete(base.i)
    elif group.negs:
        rw.replace(will.i, finite_form("do", target, agr))  # do-support: will not go -> did not go
    else:
        form = finite_form(lemma, target, agr)
        if form is None:
            return "no_inflection"
        rw.delete(will.i)
        rw.replace(base.i, form)
    return None


def _from_finite(group: VerbGroup, target: str, rw: Rewrite) -> str | None:
    """Past <-> present by re-inflecting the finite element; to future by 'will' + its base form."""
    first = group.first
    lemma = lemma_of(first)
    if target == "future":
        if group.do_support:
            rw.replace(first.i, "will")  # did not go -> will not go
            return None
        base = base_form(lemma)
        if base is None:
            return "no_inflection"
        neg_after = next((n for n in group.negs if n.i == first.i + 1), None)
        never_before = next((n for n in group.negs if n.i == first.i - 1 and n.lower_ == "never"), None)
        if neg_after is not None:
            rw.replace(first.i, "will")
            rw.insert_after(neg_after.i, base)
        elif never_before is not None:
            rw.insert_before(never_before.i, "will")
            rw.replace(first.i, base)
        else:
            rw.replace(first.i, f"will {base}")
        return None
    agr = agreement(group)
    if agr is None and (target == "present" or lemma == "be"):
        return "agreement_unknown"
    form = finite_form(lemma, target, agr or "3sg")
    if form is None:
        return "no_inflection"
    rw.replace(first.i, form)
    return None


HEDGES = lexicons.entry_set("tense_hedges_en")  # a root hedge verb: say, seem, believe, ...
FUTURE = re.compile(r"\b(?:" + lexicons.alternation("tense_future") + r")\b", re.IGNORECASE)
CENTURY = re.compile(r"\b\d{1,2}(?:st|nd|rd|th|e|er|\.)?\s+(?:century|centuries|siècles?|Jahrhunderts?)\b"
                     r"|\b[IVXL]+e\s+siècle", re.IGNORECASE)
# A tense edit in a sentence with 'so far' or another period up to now clashes with it ('have closed in the last
# few years' -> 'had closed'); 'formula' marks PAWS-X's placeholders of a definition, which is timeless: both read
# as wrong without the source.
SO_FAR = re.compile(r"\b(?:" + lexicons.alternation("tense_so_far") + r")\b", re.IGNORECASE)
FORMULA = re.compile(r"\b(?:formula|formule|formel)\b", re.IGNORECASE)
# What a thing is named after holds in any tense: 'is named after' -> 'was named after' changes nothing.
NAMING = re.compile(r"\b(?:named|called)\s+(?:after|for)\b|\bnommée?s?\s+(?:d'après|d’après|en l'honneur)|\bbenannt\b"
                    r"|\buppkallad", re.IGNORECASE)
# A past beside 'current' or 'now' contradicts it ('était l'équipe actuelle', 'nu var det'); a definition of a kind
# ('A multiverse is the collection of ...') holds at any time.
NOW = re.compile(r"\b(?:" + lexicons.alternation("tense_now") + r")\b", re.IGNORECASE)
GENERIC = re.compile(r"\s*(?:an?|un|une|ein|eine|en|ett)\s+(?:[\w-]+\s+){1,3}(?:is|est|ist|är)\s+"
                     r"(?:the|a|an|le|la|l'|un|une|der|die|das|ein|eine|en|ett)\b", re.IGNORECASE)
# What a river, mountain, island or bay is stays true: 'The Neajlov River was a tributary', 'Mount DeVoe was a
# mountain', 'Malta was a bay' read as wrong without the source; so does what a living religion or a name is:
# 'Sikhism was a religion', 'Kim was a unisex given name'.
NATURAL_FACT = re.compile(r"\b(?:is|are|est|sont|ist|sind|är)\s+(?:(?:a|an|the|un|une|le|la|l'|ein|eine|der|die|das|"
                          r"en|ett)\s+)?(?:[\w'-]+\s+){0,2}(?:" + lexicons.alternation("tense_natural_fact_nouns")
                          + r")\b", re.IGNORECASE)
# Where a place lies holds at any time: 'Fair Oaks liegt bei (38.65, -121.26)' -> 'lag bei' reads as wrong.
PLACE = re.compile(r"\b(?:" + lexicons.alternation("tense_place") + r")\b", re.IGNORECASE)
# What someone is a former one of stays said in the past already: 'is a former footballer' -> 'was a former
# footballer' changes nothing and reads as doubled.
FORMER = re.compile(r"\b(?:is|are|est|sont|ist|sind|är)\s+(?:(?:a|an|the|un|une|l'|ein|eine|der|die|das|en|ett)\s+)?"
                    r"(?:[\w'-]+\s+)?(?:" + lexicons.alternation("tense_former") + ")", re.IGNORECASE)

TIMELESS = (("so_far", SO_FAR), ("formula_definition", FORMULA), ("naming_fact", NAMING), ("says_now", NOW),
            ("natural_feature", NATURAL_FACT), ("says_former", FORMER), ("place_statement", PLACE))


def timeless_or_bounded(text: str) -> str | None:
    """Why no tense edit suits ``text`` whatever its verb: the first of TIMELESS found, a definition of a kind."""
    return next((reason for reason, pattern in TIMELESS if pattern.search(text)),
                "generic_definition" if GENERIC.match(text) else None)


def tense_with_past_date(edit: Edit, lang: str) -> bool:
    """A tense edit that puts a present or a future next to a year, decade or century long past ('In 1924 he
    is', 'will ... in 1524', 'are built in the 1980s', 'rules Mali from the 12th century'): visibly wrong without
    the source."""
    years = YEAR.findall(edit.bad) + DECADE.findall(edit.bad)
    if not any(int(y) <= LAST_PAST_YEAR for y in years) and not CENTURY.search(edit.bad):
        return False
    direction = tense_direction(edit.detail, lang)
    presents = {a.lower() for a, _ in lexicons.rows("tense", lang)}  # the lists' first column: present forms
    return (direction is not None and direction[1] in ("present", "future")) or bool(FUTURE.search(edit.target)) \
        or edit.target.lower() in presents


FUTURE_LEFT = {"en": re.compile(r"\b(?:will|shall|won't)\b|'ll\b", re.IGNORECASE),
               "fr": re.compile(r"\b(?:sera|seront|serai|serons|serez|aura|auront|aurai|aurons|aurez|pourra|devra|"
                                r"deviendra|restera|va|vont)\b", re.IGNORECASE),
               "de": re.compile(r"\b(?:wird|werden|wirst|werde)\b", re.IGNORECASE),
               "sv": re.compile(r"\b(?:kommer att|ska|skall)\b", re.IGNORECASE)}


def past_beside_future(edit: Edit, lang: str = "en") -> bool:
    """An edit into the past that leaves a future beside it ('It was also worth noting that the code would work
    (it will be applied anyway)'): a clash that gives the edit away."""
    direction = tense_direction(edit.detail, lang)
    return direction is not None and direction[1] == "past" and bool(FUTURE_LEFT[lang].search(edit.bad))


def tense_direction(detail: str, lang: str) -> tuple[str, str] | None:
    """(from tense, to tense) of a tense edit's detail: 'present->past' (English) or 'past->present:var->är'
    (French, German, Swedish: the direction, then the verb pair); an older bare verb pair ('är->var') is read
    from the word lists. None for a detail that is not a tense edit's."""
    head, _, pair = detail.partition(":")
    parts = head.split("->")
    if len(parts) == 2 and set(parts) <= set(TENSES) and parts[0] != parts[1]:
        return parts[0], parts[1]
    if pair or lang == "en" or len(parts) != 2:
        return None
    old, new = (w.lower() for w in parts)
    forms = _forms(lang)
    if old in forms and new in forms and forms[old] != forms[new]:
        return forms[old], forms[new]
    return None


def tense(text: str, ctx: Context) -> Edit | Skip:
    """English: the verb-group tense edit of the datasets (dataset_tense_edit, its targets drawn from
    ``ctx.rng``), not on a hedge verb (say, seem, ...); others: the one listed finite verb moved into another
    tense. No present or future next to an explicit past year, and none in a sentence saying 'so far', defining a
    formula or saying what a thing is named after."""
    reason = timeless_or_bounded(text)
    if reason:
        return Skip(reason)
    if ctx.lang == "en":
        if ctx.doc is None:
            return Skip("needs_doc")
        root = next((t for t in ctx.doc if t.dep_ == "ROOT"), None)
        if root is not None and root.lemma_ in HEDGES and any(c.dep_ in ("ccomp", "xcomp") for c in root.children):
            return Skip("hedge_verb")
        result = dataset_tense_edit(ctx.doc, ctx.rng)
    else:
        result = _listed_verb_tense(text, ctx)
    if isinstance(result, Edit) and past_beside_future(result, ctx.lang):
        return Skip("past_beside_future")
    if isinstance(result, Edit) and tense_with_past_date(result, ctx.lang):
        return Skip("tense_with_past_date")
    return result


INFINITIVE_MARKER = re.compile(r"\b(?:zu|att)\s+$", re.IGNORECASE)  # 'bat ihn, sein Librettist zu werden'
# French passé simple: counted as a listed past (a second verb beside the edited one), moved only as a past.
EXTRA_PAST = {"fr": {"fut": "est", "furent": "sont"}}
# The classes of the listed verbs (see the English ones above): a past that may go into the present is a stative
# one ('La maison avait deux étages' -> 'a deux étages', 'Er lebte in Berlin' -> 'lebt'); a present that may go
# into the future without a speaker an activity ('Die Mannschaft spielt in der Liga' -> 'wird in der Liga
# spielen'); a speaker is a first- or second-person pronoun next to the verb ('Wir sind bereit' -> 'Wir werden
# bereit sein', 'Vi är redo' -> 'Vi kommer att vara redo').
STATIVE_LISTED = {"fr": {"était", "étaient", "avait", "avaient", "restait", "étions", "étiez", "avions", "aviez"},
                  "de": {"war", "waren", "hatte", "hatten", "lag", "blieb", "hieß", "lebte", "gab"},
                  "sv": {"var", "hade", "fanns", "låg", "bodde", "stod"}}
ACTIVITY_LISTED = {"fr": {"devient"}, "de": {"spielt"}, "sv": {"spelar", "arbetar"}}
SPEAKER_PRONOUNS = {"fr": {"je", "j'", "j’", "nous", "vous", "tu"}, "de": {"ich", "wir", "du"},
                    "sv": {"jag", "vi", "du", "ni"}}
# A French conditional or temporal clause keeps a present beside a future ('Je le dirai si vous le traduisez').
FR_CLAUSE = re.compile(r"\b(?:si|s'|s’|quand|lorsque|lorsqu'|dès que|tant que|avant que|après que|pendant que|"
                       r"parce que|puisque)", re.IGNORECASE)
# What a German 'werden ... <infinitive>' may not close over: a comma, a bracket, a dash or a second clause.
DE_CLAUSE_BREAK = re.compile(r"[,;:()\[\]–—\"]|\s-\s|\b(?:und|oder|aber|sondern|denn|dass|weil|wenn|als|ob|zu)\b",
                             re.IGNORECASE)
# A Swedish sentence whose first word is not its subject: the verb comes before the subject (V2), and 'kommer att'
# would have to split around it ('I dag är han' -> 'I dag kommer han att vara').
SV_SUBJECTS = {"jag", "du", "han", "hon", "den", "det", "vi", "ni", "de", "man", "hen"}


def _forms(lang: str) -> dict[str, str]:
    """{listed form: its tense} of a language's word lists (the futures of tense_future_<lang>, French ones)."""
    out = {a.lower(): "present" for a, _ in lexicons.rows("tense", lang)}
    out.update({b.lower(): "past" for _, b in lexicons.rows("tense", lang)})
    out.update({w: "past" for w in EXTRA_PAST.get(lang, {})})
    out.update({b.lower(): "future" for _, b in lexicons.rows("tense_future", lang) if " " not in b or lang == "sv"})
    return out


def _forms_pattern(lang: str) -> re.Pattern | None:
    """A whole-word pattern of every listed form, longest first ('kommer att vara' before 'kommer')."""
    keys = sorted(_forms(lang), key=len, reverse=True)
    if not keys:
        return None
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w-])", re.IGNORECASE)


def _listed_verb_tense(text: str, ctx: Context) -> Edit | Skip:
    """French, German, Swedish: move the sentence's one listed finite verb into another tense, the targets in an
    order drawn from ``ctx.rng``, each in its class of sentences (STATIVE_LISTED, ACTIVITY_LISTED, ...). With
    two, the other would keep its tense beside the new one ('war kontinuierlich und ist', 'kann ... übertragen
    wurden'); a French auxiliary before a participle mostly changes aspect ('est né' -> 'était né', 'a adhéré'
    -> 'avait adhéré'). Both are skipped. A listed word after an elided article ('à l'est'), an infinitive after
    'zu' or 'att' ('zu werden' -> 'zu wurden') or, with a Doc, one not tagged as a verb does not count. A Swedish
    'kommer att' with a verb not listed stays ('kom att svara': came to answer)."""
    pat = _forms_pattern(ctx.lang)
    found = [m for m in (pat.finditer(text) if pat is not None else [])
             if text[max(0, m.start() - 2):m.start()].lower() not in ("l'", "l’", "d'", "d’")
             and not INFINITIVE_MARKER.search(text[:m.start()])]
    tokens = {m.start(): token_at(ctx.doc, m.start()) for m in found} if ctx.doc is not None else {}
    found = [m for m in found if tokens.get(m.start()) is None or tokens[m.start()].pos_ in ("AUX", "VERB")]
    if len(found) > 1 or found and _other_finite_verb(ctx.doc, tokens.get(found[0].start())):
        return Skip("tense_clash")
    if not found:
        return Skip("no_candidate")
    m = found[0]
    if tokens.get(m.start()) is not None and _before_participle(tokens[m.start()]):
        return Skip("compound_tense")
    if ctx.lang in ("de", "sv") and not text[:m.start()].strip():
        return Skip("verb_first")  # V2 languages: a sentence-initial verb is an imperative or a question
    if ctx.lang == "sv" and " " not in m.group(0) and FUTURE.match(text, m.start()):
        return Skip("from_future")  # 'de kommer att svara' (will answer) -> 'kom att svara' (came to answer)
    if ctx.lang == "de" and m.group(0).lower() in ("hat", "haben") and _closing_participle(text[m.end():]):
        return Skip("compound_tense")  # 'haben ... erzielt' -> 'hatten ... erzielt': a past either way
    if ctx.lang == "de" and re.search(r"\bgeboren\b", text):
        return Skip("birth")  # 'wird ... geboren' of a person's birth gives itself away
    current = _forms(ctx.lang)[m.group(0).lower()]

    def attempt(target: str):
        def make() -> Edit | Skip:
            result = _listed_into(text, m, current, target, ctx)
            if isinstance(result, Edit) and past_beside_future(result, ctx.lang):
                return Skip("past_beside_future")
            if isinstance(result, Edit) and tense_with_past_date(result, ctx.lang):
                return Skip("tense_with_past_date")
            return result
        return make

    return _first_applying([(t, attempt(t)) for t in _target_order(text, current, ctx.rng)])


def _listed_into(text: str, m: re.Match, current: str, target: str, ctx: Context) -> Edit | Skip:
    """The listed verb ``m`` from ``current`` into ``target``, where the sentence is of that direction's class."""
    lang, form = ctx.lang, m.group(0).lower()
    before, after = text[:m.start()].split(), text[m.end():].split()
    speaker = bool(before and before[-1].lower() in SPEAKER_PRONOUNS[lang]
                   or after and after[0].lower().strip(",.") in SPEAKER_PRONOUNS[lang]
                   or lang == "fr" and text[max(0, m.start() - 2):m.start()].lower() in ("j'", "j’"))
    if target in ("present", "future") and current != "future" and past_anchor(text, lang):
        return Skip(_anchor_reason(text))
    if target == "past" and FUTURE_ANCHOR.search(text):
        return Skip("future_anchor")  # 'Wir sind morgen in Berlin' -> 'Wir waren morgen in Berlin'
    if current == "past" and target == "present":
        if form not in STATIVE_LISTED[lang]:
            return Skip("not_stative")
        if lang in ("de", "sv") and "," in text:
            return Skip("subordinate_clause")  # a clause whose own past would stay ('ist 14, als sie kamen')
        if ctx.doc is not None and _other_past(ctx.doc, m.start()):
            return Skip("tense_clash")  # 'Il servit comme missionnaire et est évêque'
    if target == "future" and not (speaker or current == "present" and form in ACTIVITY_LISTED[lang]):
        return Skip("not_a_plan")
    if current == "future":
        if lang == "fr" and (FR_CLAUSE.search(text) or "," in text):
            return Skip("future_with_clause")
        if target == "present" and not (speaker or _present_of(form, lang) is not None):
            return Skip("not_stative")
    present = form if current == "present" else _present_of(form, lang)
    if present is None:
        return Skip("no_inflection")
    start, source = m.start(), m.group(0)
    if target == "present":
        new = present
    elif target == "past":
        new = lexicons.pairs("tense", lang).get(present)
    else:
        new = dict((a.lower(), b) for a, b in lexicons.rows("tense_future", lang)).get(present)
    if not new:
        return Skip("no_inflection")
    if target == "future" and lang == "de":
        rest = text[m.end():]
        body = rest.rstrip()
        end = body[-1:] if body[-1:] in ".!?" else ""
        body = body[:len(body) - len(end)].rstrip()
        words = body.split()
        if not words or DE_CLAUSE_BREAK.search(body) or DE_PARTICIPLE.fullmatch(words[-1]):
            return Skip("clause_not_closed")  # the infinitive must close the clause at the sentence end
        aux, inf = new.split()
        source = text[m.start():m.end() + len(body)]
        return replace_span(text, start, start + len(source), match_case(m.group(0), aux) + body + " " + inf,
                            "tense", f"{current}->{target}:{m.group(0)}->{new}")
    if target == "future" and lang == "sv":
        if not speaker and before and before[0].lower() not in SV_SUBJECTS and not before[0][:1].isupper():
            return Skip("inverted_subject")
        if before and (before[0].lower() not in SV_SUBJECTS and len(before) > 4 or "," in text[:m.start()]):
            return Skip("inverted_subject")
        if after and after[0].lower() in ("inte", "aldrig", "ej"):
            neg = after[0]
            source = text[m.start():text.index(neg, m.end()) + len(neg)]
            aux, rest = new.split(" ", 1)
            new_text = f"{match_case(m.group(0), aux)} {neg} {rest}"
            return replace_span(text, start, start + len(source), new_text, "tense",
                                f"{current}->{target}:{m.group(0)}->{new}")
    new = match_case(m.group(0), new)
    return replace_span(text, start, start + len(source), new, "tense", f"{current}->{target}:{source}->{new}")


def _present_of(form: str, lang: str) -> str | None:
    """The present form of a listed past or future ('était' -> 'est', 'sera' -> 'est', 'kommer att vara' -> 'är')."""
    if form in EXTRA_PAST.get(lang, {}):
        return EXTRA_PAST[lang][form]
    past_to_present = {b.lower(): a.lower() for a, b in lexicons.rows("tense", lang)}
    future_to_present = {b.lower(): a.lower() for a, b in lexicons.rows("tense_future", lang)}
    return past_to_present.get(form) or future_to_present.get(form)


def _other_finite_verb(doc: Doc | None, token) -> bool:
    """With a morphologised Doc (French): a finite verb other than ``token`` in its tense, which would keep it
    beside the edited one ('Le SPB avait ... mais son diamètre change', 'S'il y avait ..., seule la première
    porte')."""
    if doc is None or token is None or not token.morph.get("Tense"):
        return False
    return any(t.i != token.i and t.pos_ in ("AUX", "VERB") and "Fin" in t.morph.get("VerbForm")
               and t.morph.get("Tense") == token.morph.get("Tense")
               and (t.i == 0 or doc[t.i - 1].lower_ not in ("l'", "l’", "d'", "d’")) for t in doc)


def _other_past(doc: Doc, start: int) -> bool:
    """A finite verb other than the one at ``start``, which keeps its past beside a past moved into the present
    ('Il servit ... et est évêque': the small tagger reads the passé simple 'servit' as a present)."""
    return any(t.idx != start and t.pos_ in ("AUX", "VERB") and "Fin" in t.morph.get("VerbForm") for t in doc)


def _closing_participle(rest: str) -> bool:
    """A German clause after the finite verb that closes on a participle, before punctuation or a coordinating
    conjunction ('... in Melbourne erzielt, bevor ...', 'haben einigen Erfolg erzielt und spielten')."""
    return any(words and DE_PARTICIPLE.fullmatch(words[-1])
               for words in (re.findall(r"[\w-]+", clause)
                             for clause in re.split(r"[,;:.!?()]|\b(?:und|oder|aber|sondern|denn)\b", rest)))


# a German past participle ('gezeigt', 'verkauft', 'reformiert')
DE_PARTICIPLE = re.compile(r"(?:\w*ge\w+(?:t|en)|(?:be|ver|er|zer|ent|emp|miss)\w+(?:t|en)|\w+iert)")
# a French participle after 'avoir' that the small tagger reads as an adjective or a finite past ('a réagi' ADJ)
FR_PARTICIPLE = re.compile(r"(?:é|ée|és|ées|i|ie|is|ies|u|ue|us|ues|it|ite|its|ert|erte|int|einte)$")


def _before_participle(token) -> bool:
    """An auxiliary whose next word, adverbs and 'pas' aside, is a participle (a compound tense or a passive)."""
    for nxt in token.doc[token.i + 1:token.i + 4]:
        if nxt.pos_ != "ADV" and nxt.lower_ not in ("pas", "plus", "jamais"):
            return "Part" in nxt.morph.get("VerbForm") or (token.lang_ == "fr" and token.lemma_ == "avoir"
                                                           and nxt.pos_ in ("VERB", "ADJ")
                                                           and FR_PARTICIPLE.search(nxt.lower_) is not None)
    return False
