"""Attested modifiers for additions: the words a corpus of the language puts between a determiner and a noun
('the album' -> 'the seventh album', 'ein Nebenfluss' -> 'ein linker Nebenfluss', 'en man' -> 'en ung man') or,
in French, right after the noun ('une moyenne' -> 'une moyenne pondérée'). A word is offered only for the exact
determiner and noun form it was seen with, so its inflection and agreement are the corpus's, not a rule's."""
from __future__ import annotations

import re
from collections import Counter, defaultdict

DETERMINERS = {
    "en": {"the", "a", "an", "this", "that", "these", "those", "his", "her", "its", "their", "our", "my", "your"},
    "de": {"der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines"},
    "fr": {"le", "la", "les", "un", "une", "des", "du", "au", "aux", "ce", "cet", "cette", "ces", "son", "sa", "ses",
           "leur", "leurs"},
    "sv": {"en", "ett"},
}
# Modifiers that add no content of their own (other, same, such, own, whole, many, ...) or only a judgement; and
# ordinals and neighbours, whose claim needs a referent the sentence lacks ('the nearby city', 'le premier
# district', 'die erste Serie' read as glued on).
ORDINAL_OR_DEICTIC = {
    "en": {"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "last",
           "next", "previous", "nearby", "neighbouring", "neighboring", "real", "true"},
    "fr": {"premier", "première", "premiers", "premières", "second", "seconde", "deuxième", "troisième", "dernier",
           "dernière", "derniers", "dernières", "prochain", "prochaine", "voisin", "voisine", "voisins", "voisines",
           "véritable", "véritables", "vrai", "vraie", "vrais", "vraies"},
    "sv": {"första", "tredje", "sista", "nästa", "närliggande", "närbelägen", "närbelägna", "verklig", "verkliga"},
}
STOP = {
    "en": {"other", "same", "such", "own", "whole", "entire", "certain", "various", "many", "few", "several", "most",
           "more", "less", "much", "only", "following", "latter", "former", "respective", "above", "particular",
           "aforementioned", "said", "very", "so", "good", "bad", "great", "nice", "fine", "mainstream", "best",
           "better", "worse", "worst", "famous", "important", "major", "minor", "excellent", "popular", "detailed",
           "early", "late", "recent", "new", "different", "underlying", "right", "left"},
    "fr": {"autre", "autres", "même", "mêmes", "tel", "telle", "tels", "telles", "propre", "propres", "certain",
           "certaine", "certains", "certaines", "divers", "diverses", "plusieurs", "nombreux", "nombreuses", "seul",
           "seule", "seuls", "seules", "tout", "toute", "tous", "toutes", "suivant", "suivante", "suivants",
           "suivantes", "dit", "dite", "dits", "dites", "bon", "bonne", "bons", "bonnes", "mauvais", "mauvaise",
           "mauvaises", "majeur", "majeure", "majeurs", "majeures", "meilleur", "meilleure", "meilleurs",
           "meilleures", "célèbre", "célèbres", "important", "importante", "importants", "importantes", "fantôme",
           "fantômes", "établi", "établie", "établis", "établies", "apparenté", "apparentée", "apparentés",
           "apparentées", "cible", "cibles", "nouveau", "nouvel", "nouvelle", "nouveaux", "nouvelles", "jumeau",
           "jumelle", "jumeaux", "jumelles", "récent", "récente", "récents", "récentes", "longue"},
    "sv": {"annan", "annat", "andra", "samma", "sådan", "sådant", "sådana", "egen", "eget", "egna", "hel", "helt",
           "hela", "enda", "viss", "visst", "vissa", "mycket", "lite", "inte", "som", "någon", "något", "några",
           "flera", "många", "få", "all", "alla", "själva", "sådär", "och", "eller", "men", "så", "också", "bra",
           "god", "goda", "gott", "dålig", "dåliga", "dåligt", "bästa", "berömd", "berömda", "känd", "kända", "viktig",
           "viktiga", "viktigt", "halv", "halva", "halvt"},
}
DE_STOP_STEMS = ("ander", "gleich", "selb", "beid", "folgend", "jeweilig", "sogenannt", "ganz", "einzig", "meist",
                 "viel", "wenig", "weiter", "verschieden", "eigen", "solch", "gesamt", "bestimmt", "sonstig", "übrig",
                 "obig", "genannt", "besagt", "erst", "zweit", "dritt", "letzt", "nächst", "benachbart", "wahr",
                 "gut", "schlecht", "besser", "best", "berühmt", "wichtig", "bekannt")
DE_ENDINGS = ("e", "en", "er", "es", "em")
# Nouns of set phrases a modifier would break ('at the time of', 'mit der Zeit', 'in der Regel', 'à la fois'),
# and quantity nouns, which a modifier turns odd ('ett inspirerande par saker').
NOUN_STOP = {
    "en": {"time", "way", "end", "case", "fact", "rest", "lot", "kind", "sort", "part", "number", "course", "top",
           "bottom", "side", "beginning", "middle", "past", "future", "present", "meantime", "while", "same",
           "couple", "pair", "handful", "amount", "one", "ones"},
    "de": {"Zeit", "Regel", "Tat", "Lage", "Folge", "Hand", "Weise", "Art", "Rolle", "Nähe", "Mitte", "Ende",
           "Anfang", "Beginn", "Zukunft", "Vergangenheit", "Zusammenhang", "Lauf", "Laufe", "Paar", "Anzahl",
           "Reihe", "Menge"},
    "fr": {"fois", "cas", "fait", "reste", "fin", "début", "milieu", "suite", "part", "façon", "manière", "sorte",
           "moment", "cours", "lieu", "bord", "côté", "tour", "temps", "nombre", "plupart", "couple", "quantité"},
    "sv": {"gång", "tid", "stund", "sätt", "slags", "sorts", "del", "bit", "par", "antal", "rad", "mängd"},
}
# A modifier its noun already implies adds nothing ('the honest truth' is no hallucination).
PLEONASM = {"en": {("honest", "truth"), ("plain", "truth"), ("true", "fact"), ("true", "facts"), ("free", "gift"),
                   ("end", "result"), ("final", "outcome"), ("past", "history"), ("general", "consensus"),
                   ("added", "bonus"), ("close", "proximity"), ("unexpected", "surprise"), ("new", "innovation"),
                   ("basic", "fundamentals"), ("personal", "opinion"), ("dead", "corpse")},
            "fr": {("vraie", "vérité"), ("pure", "vérité")},
            "de": {("wahre", "Wahrheit"), ("reine", "Wahrheit")},
            "sv": {("sanna", "sanningen"), ("rena", "sanningen")}}
# A unit of time before 'after'/'before' measures a span ('en dag efter att', 'a day after'): a modifier breaks the
# measure ('en molnig dag efter att' is no longer fluent).
TIME_UNITS = {"en": {"day", "week", "month", "year", "hour", "minute", "decade"},
              "fr": {"jour", "semaine", "mois", "an", "année", "heure", "minute"},
              "de": {"tag", "woche", "monat", "jahr", "stunde", "minute"},
              "sv": {"dag", "vecka", "månad", "år", "timme", "minut"}}
MEASURED_SPAN = re.compile(r"\s+(?:after|before|later|earlier|ago|après|avant|plus tard|nach|vor|später|früher|efter"
                           r"|före|senare|tidigare|innan)\b", re.IGNORECASE)
KIND_OF = re.compile(r"\b(?:kind|sort|type)\s+of\s+$", re.IGNORECASE)  # 'What kind of a simple question is that?'
# Lower-case words after a determiner that are no noun: 'en eller båda pojkarna' ('one or both') took 'en obruten
# eller båda' (built into the Swedish test split).
FUNCTION_WORDS = {"en": {"and", "or", "but", "of", "than", "that", "who", "which"},
                  "fr": {"et", "ou", "mais", "qui", "que", "dont"},
                  "sv": {"och", "eller", "men", "av", "till", "som", "än", "att", "med", "för", "om"}}
STEM = 4  # a modifier whose first letters start a word of the text repeats it ('En sittande man sitter')
# Classifying (relational) and modal adjectives: a class or a possibility the source lacks reads as glued on
# ('the political committee', 'un village civil', 'des produits pharmaceutiques', 'une moyenne pondérée'), where a
# size, a side or an age ('a short film', 'ein linker Nebenfluss') does not. Matched as endings on a stem of three
# or more letters ('smal' and 'bel' stay); the words listed read as glued on too.
RELATIONAL_ENDINGS = {
    "en": ("al", "ic", "ical", "ary", "able", "ible"),
    "fr": ("ique", "iques", "al", "ale", "ales", "aux", "el", "elle", "els", "elles", "aire", "aires", "able",
           "ables", "ible", "ibles", "ien", "ienne", "iens", "iennes", "iste", "istes",  # 'le régime stalinien'
           "èrent", "irent", "urent", "aient"),  # the last four: verbs after a noun
    "de": ("isch", "ische", "ischen", "ischer", "isches", "ischem", "ale", "alen", "aler", "ales", "alem", "elle",
           "ellen", "eller", "elles", "ellem", "bare", "baren", "barer", "bares", "barem"),
    "sv": ("isk", "iska", "iskt", "ell", "ella", "ellt", "al", "ala", "alt", "bar", "bara", "bart"),
}
GLUED_ON = {"en": {"civil", "wrong", "illegitimate", "constant"},
            "fr": {"sonore", "sonores", "illégitime", "illégitimes"}, "de": set(), "sv": {"blek", "bleka", "blekt"}}
# Nationality adjectives (stems; English writes them capitalised, which no modifier is): a nationality the source
# lacks clashes with the places the sentence names ('le championnat suédois ... le championnat écossais', 'des
# femmes iraniennes ... du Suriname'), in a compound too ('la version nord-américaine').
NATIONALITY = {
    "fr": ("français", "anglais", "allemand", "italien", "espagnol", "américain", "iranien", "écossais", "irlandais",
           "russe", "chinois", "japonais", "canadien", "suédois", "norvégien", "danois", "néerlandais", "belge",
           "suisse", "portugais", "polonais", "grec", "turc", "indien", "australien", "mexicain", "brésilien",
           "européen", "africain", "asiatique", "arabe", "gallois", "autrichien", "hongrois", "roumain",
           "finlandais", "israélien", "égyptien", "coréen", "romain", "catalan", "basque", "breton", "québécois"),
    "de": ("deutsch", "englisch", "französisch", "italienisch", "spanisch", "amerikanisch", "russisch", "chinesisch",
           "japanisch", "britisch", "schottisch", "irisch", "schwedisch", "österreichisch", "schweizer", "polnisch",
           "griechisch", "türkisch", "indisch", "europäisch", "afrikanisch", "asiatisch", "arabisch", "römisch"),
    "sv": ("svensk", "engelsk", "tysk", "fransk", "dansk", "norsk", "finsk", "rysk", "amerikansk", "brittisk",
           "europeisk", "afrikansk", "asiatisk", "kinesisk", "japansk", "italiensk", "spansk", "skotsk", "irländsk",
           "isländsk", "polsk", "grekisk", "turkisk", "indisk", "arabisk"),
}
NOT_RELATIONAL = {"fr": {"ancien", "ancienne", "anciens", "anciennes"}}  # an age, as 'old' is
# Seen at least this often; a French modifier after the noun twice (a verb there tags as an adjective too often).
MIN_COUNT = {"en": 2, "fr": 1, "de": 2, "sv": 2}
WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def _is_modifier(word: str, lang: str) -> bool:
    if len(word) < 3 or not word.islower() or word in STOP.get(lang, ()) or word in ORDINAL_OR_DEICTIC.get(lang, ()):
        return False
    if word in GLUED_ON.get(lang, ()) or word.split("-")[-1].startswith(NATIONALITY.get(lang, ())) or (any(
            word.endswith(e) and len(word) - len(e) >= 3 for e in RELATIONAL_ENDINGS.get(lang, ()))
            and word not in NOT_RELATIONAL.get(lang, ())):
        return False
    if lang == "de":
        return word.endswith(DE_ENDINGS) and not word.startswith(DE_STOP_STEMS)
    return True


def _is_noun(word: str, lang: str) -> bool:
    return word[:1].isupper() and not word.isupper() if lang == "de" else word.islower() and len(word) >= 3


def _det(word: str) -> str:
    """The determiner as a table key: English 'an' is 'a' (the article follows the next word's sound)."""
    word = word.lower()
    return "a" if word == "an" else word


def _joined(text: str, a: re.Match, b: re.Match) -> bool:
    return text[a.end():b.start()] == " "


def attested(texts: list[str], lang: str) -> dict[str, dict[str, dict[str, int]]]:
    """{"pre" | "post": {"det noun": {modifier: count}}}: what the corpus puts between a determiner and a
    noun, and (French) right after a determined noun."""
    dets = DETERMINERS.get(lang, set())
    pre: dict[str, Counter] = defaultdict(Counter)
    post: dict[str, Counter] = defaultdict(Counter)
    for text in texts:
        w = list(WORD.finditer(text))
        for a, b, c in zip(w, w[1:], w[2:]):
            det = _det(a.group(0))
            if a.group(0).lower() not in dets or not (_joined(text, a, b) and _joined(text, b, c)):
                continue
            if _is_modifier(b.group(0), lang) and _is_noun(c.group(0), lang):
                pre[f"{det} {c.group(0)}"][b.group(0)] += 1
            if lang == "fr" and _is_noun(b.group(0), lang) and _is_modifier(c.group(0), lang):
                post[f"{det} {b.group(0)}"][c.group(0)] += 1
    return {"pre": {k: dict(sorted(v.items())) for k, v in sorted(pre.items())},
            "post": {k: dict(sorted(v.items())) for k, v in sorted(post.items())}}


def insertions(text: str, lang: str, table: dict, source: str = "", exclude: dict | None = None
               ) -> list[tuple[str, re.Match, re.Match, str]]:
    """Every attested (position, determiner, noun, modifier) for ``text``: "pre" between the two, "post" after
    the noun; never a word the text or its same-language ``source`` already has (a paraphrase's source
    saying 'a young man' makes 'young' no hallucination) or whose first STEM letters start one of their words,
    nor a noun of a set phrase ('the current one'), a function word (FUNCTION_WORDS), a noun after 'kind of',
    a noun a name follows or a unit of time measuring a span ('a day after'), nor one its noun implies (PLEONASM).
    ``exclude`` (attested() of the item's own sentences) is taken off the counts: an item never attests its
    own modifier."""
    if not table:
        return []
    exclude = exclude or {}
    w = list(WORD.finditer(text))
    present = {m.group(0).lower() for m in w} | {m.group(0).lower() for m in WORD.finditer(source)}
    stems = {word[:STEM] for word in present if len(word) >= STEM}
    options = []
    for a, b, c in zip(w, w[1:], w[2:] + [None]):
        if a.group(0).lower() not in DETERMINERS.get(lang, ()) or not _joined(text, a, b) or b.group(
                0) in FUNCTION_WORDS.get(lang, ()) or KIND_OF.search(text[:a.start()]):
            continue
        if c is not None and _joined(text, b, c) and c.group(0)[:1].isupper():
            continue  # a noun naming what follows ('der Provinz Shirak'): a modifier may contradict the name
        if b.group(0).lower() in TIME_UNITS.get(lang, ()) and MEASURED_SPAN.match(text, b.end()):
            continue
        key = f"{_det(a.group(0))} {b.group(0)}"
        compound = c is not None and (c.group(0).lower() in ("de", "du", "des")  # 'ligne de flottaison'
                                      or c.group(0).lower().startswith(("d'", "d’")))
        for position in ("pre",) if compound else ("pre", "post"):
            own = exclude.get(position, {}).get(key, {})
            for word, n in table.get(position, {}).get(key, {}).items():
                n -= own.get(word, 0)
                least = max(2, MIN_COUNT.get(lang, 1)) if position == "post" else MIN_COUNT.get(lang, 1)
                if (n >= least and word.lower() not in present and word.lower()[:STEM] not in stems
                        and b.group(0) not in NOUN_STOP.get(lang, ())
                        and (word.lower(), b.group(0)) not in PLEONASM.get(lang, ())):
                    options.append((position, a, b, word))
    return options
