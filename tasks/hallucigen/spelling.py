"""Misspelt words of a faithful hypothesis: a word no frequency list of its language knows, one letter away from a
common word, and not copied from the source ('nexct', 'deit', 'Abegordneter', 'obenu'); a name or number of the
source copied with a slip ('Aruvikkkara' for 'Aruvikkara', 'Hervert' for 'Herbert', '19776' for '1976') or glued to
the next word ('McMillanpassa'); in French, an elided article without its apostrophe ('la fermeture d Disney'), one
not elided ('membre de ACM') or elided before an aspirated h ("d'hauteur"), a misspelt auxiliary ('on été', 'fur'
for 'fut') or a participle spelt as a present ('il fut établit'); in English, an article the next word refuses ('an
unique') or a present beside 'since' and a date ('is a superintendent since June 1'); in German, an adjective without
its ending ('Dieser westlich Distrikt') or a national one capitalised ('selbst Dänischer Premierminister'). Garbled
text: a doubled word ('David David Godwin', 'the music hall hall'), a label without its word ('(: 2614)'), a
quote never closed ('the series `` , while') or opened where one is open ("'' Most Talented ``"), a doubled full
stop ("d'E.l.f. .") or comma ('Alaja,,'), a spaced apostrophe or a stray mark after a closing quote. A translation
that opens in lower case or ends on a colon where its source does not. Either side of the example would carry it,
and annotators reject it as not fluent or not faithful."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

LETTERS = "abcdefghijklmnopqrstuvwxyzàâäåçéèêëîïôöùûüÿœæß"
WORD = re.compile(r"(?<![\w'’-])[^\W\d_]{4,}(?![\w'’-])")
# French: an elision without its apostrophe ('la fermeture d Disney', 'affluent d ela rivière'), a misspelt
# auxiliary ('on été', 'Il a fut', 'la chanson fur sortie') and a participle in -i spelt as a present ('il fut
# établit', 'il a fournit')
BARE_ELISION = re.compile(r"(?<![\w'’.-])(?:d|l|qu|j|n|s|c|m|t) (?=[^\W\d_])")
# ... an article, 'de', 'que' or a pronoun not elided before a vowel ('membre de ACM', 'de Aamir', 'le immigrants',
# 'se affronta'); not before a letter or a Roman numeral ('de A', 'le IXe siècle') nor 'onze', 'oui', 'ouate'
FR_UNELIDED = re.compile(r"(?<![\w'’-])(?:[Dd]e|[Ll][ea]|[Qq]ue|[NnSsJjMmTt]e) (?!onz|oui|ouat|uhlan)"
                         r"[AEIOUÉÈÊÂÎÔŒaeiouéèêâîôœ](?:[a-zàâäçéèêëîïôöùûüœ]|[A-Z]{1,3}\b)")
# ... or elided before an aspirated h ("une mesure d'hauteur", "l'héros")
FR_ELIDED_H = re.compile(r"\b[dlDL]['’](?:hauteur|haut|hameau|hasard|hache|haine|halle|hall|hangar|hareng|haricot|"
                         r"hockey|handball|honte|hors|hibou|homard|hublot|héros|huit\w*|hongrois\w*|Hongrie|"
                         r"Hollande|Hambourg|Hanovre|Havre)\b")
FR_AUXILIARY_SLIP = re.compile(r"\b(?:a|ont|avait|avaient) fut\b|\bon été\b|(?<!\bau )\bfur\b"
                               r"|\b(?:a|ont|avait|avaient|été|fut|furent) (?:re)?crée\b")  # 'a été crée' for 'créé'
# English: an article its next word's sound refuses ('an unique', 'a apple')
EN_ARTICLE_SLIP = re.compile(r"\b[Aa]n (?:uni(?:que|t|on|vers|form|corn|lateral|f)|use|usu|uti|[Ee]u)\w*"
                             r"|\b[Aa] (?![Ee]u)[aeiAEI]\w+")  # 'an unimportant' is right
# English present beside 'since' a date ('is a superintendent since June 1'; not a parenthesis: '( since 2009 )') and a
# German determiner before an adjective with no ending ('Dieser westlich Distrikt'): grammar slips of the pair.
EN_PRESENT_SINCE = re.compile(r"\b(?:is|are|am)\b(?:(?![.;(]).){0,40}?\bsince\s+(?:\d|[A-Z][a-z]+\s+\d)")
DE_BARE_ADJECTIVE = re.compile(r"\b(?:[Dd](?:er|ie|as|en|em|es|ieser|iese|ieses)|[Ee]in(?:e|em|en|er|es)?)\s+"
                               r"([a-zäöü]\w*(?:lich|ig|isch|bar|sam|los))\s+[A-ZÄÖÜ]\w+")
# ... or a national adjective capitalised after a word that is no article ('der selbst Dänischer Premierminister')
DE_CAPITAL_ADJECTIVE = re.compile(r"\b(?!(?:der|die|das|den|dem|des|ein|eine|einer|eines|einem|einen|im|am|zum|zur|"
                                  r"vom|beim|ins|ans)\b)[a-zäöüß]+ ([A-ZÄÖÜ][a-zäöü]+isch(?:e|er|es|en|em)) "
                                  r"[A-ZÄÖÜ]\w+")
FR_AUXILIARY = re.compile(r"\b(?:a|ont|avait|avaient|aura|fut|furent|été|est|sont|était|étaient|sera|seront) "
                          r"(\w{5,}it)\b")
DOUBLED = re.compile(r"(?<![\w'’-])([^\W\d_]{2,})\s+\1(?![\w'’-])", re.IGNORECASE)
FINE_DOUBLES = {"die", "der", "das", "den", "dem", "des", "als", "que", "nous", "vous", "had", "that", "is", "det"}
EMPTY_LABEL = re.compile(r"\(\s*[:;,]|[:;,]\s*\)")
DOUBLED_STOP = re.compile(r"(?<!\.)\.\s*\.(?!\.)")  # 'E.l.f. .' (an ellipsis '...' is fine)
# 'Alaja,, is', 'the prosecutor ’ s office', 'Der Track „Astrud“' auf dem Album'
STRAY_MARK = re.compile(r",\s*,|\w\s’\ss\b|[“”]'")
COMMON = 3.0  # Zipf frequency of the word a misspelling is one letter away from (3: once per million words)


@lru_cache(maxsize=200_000)
def zipf(word: str, lang: str) -> float:
    """The Zipf frequency (wordfreq) of ``word`` or its lower case in ``lang``, whichever is higher."""
    from wordfreq import zipf_frequency

    return max(zipf_frequency(word, lang), zipf_frequency(word.lower(), lang))


def _one_letter_away(word: str) -> set[str]:
    """Words one deletion, transposition, replacement or insertion away from ``word`` (Norvig's edits1)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deleted = {a + b[1:] for a, b in splits if b}
    transposed = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaced = {a + c + b[1:] for a, b in splits if b for c in LETTERS}
    return deleted | transposed | replaced | {a + c + b for a, b in splits for c in LETTERS}


def misspelt(text: str, source: str, lang: str) -> str | None:
    """The first misspelt word of ``text`` (see the module docstring), else None."""
    if lang == "fr":
        slip = (BARE_ELISION.search(text) or FR_AUXILIARY_SLIP.search(text) or FR_UNELIDED.search(text)
                or FR_ELIDED_H.search(text))
        if slip:
            return slip.group(0).strip()
        present = next((m.group(1) for m in FR_AUXILIARY.finditer(text) if zipf(m.group(1)[:-1], lang) >= 2.5), None)
        if present:
            return present
    if lang == "en" and (slip := EN_ARTICLE_SLIP.search(text) or EN_PRESENT_SINCE.search(text)):
        return slip.group(0)
    if lang == "de" and (slip := DE_BARE_ADJECTIVE.search(text) or DE_CAPITAL_ADJECTIVE.search(text)):
        return slip.group(1)
    copied = {w.lower() for w in re.findall(r"\w+", source)}
    slip = _copy_slip(text, {w for w in copied if len(w) >= 4}, lang) or _glued_name(text, source, lang)
    if slip:
        return slip
    for word in WORD.findall(text):
        if word.lower() in copied or zipf(word, lang) > 0:
            continue
        if any(zipf(near, lang) >= COMMON for near in _one_letter_away(word) - {word}):
            return word
    return None


def _bare(word: str) -> str:
    """``word`` without its accents."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def _copy_slip(text: str, copied: set[str], lang: str) -> str | None:
    """A word of ``text`` its language does not know, one letter away from a word of the source: a name or
    number copied with a slip. Not an inflection of the source word (-s, -n, -e: 'Malets', 'Haryanas'), an
    accent ('éjective') or a number beside a word ('1240' for '1240s')."""
    for word in re.findall(r"(?<![\w-])\w{4,}(?![\w-])", text):
        low = word.lower()
        if low in copied or (not word.isdigit() and zipf(word, lang) > 0):
            continue
        for near in _one_letter_away(low) & copied:
            if near.isdigit() == low.isdigit() and _bare(near) != _bare(low) and low not in {near + "s", near + "n",
                                                                                              near + "e"}:
                return word
    return None


def _glued_name(text: str, source: str, lang: str) -> str | None:
    """A word of ``text`` its language does not know nor the source has: a capitalised word of six letters or more
    of the source glued to a common word of the language ('McMillanpassa deux ans'). Not German, which writes a
    name and a noun as one word ('Baffininsel')."""
    if lang == "de":
        return None
    words = set(re.findall(r"\w+", source))
    names = {w for w in words if len(w) >= 6 and w[:1].isupper()}
    for word in re.findall(r"\w{9,}", text):
        if word in words or zipf(word, lang) > 0:
            continue
        for name in names:
            rest = word[len(name):]
            if word.startswith(name) and len(rest) >= 3 and rest.islower() and zipf(rest, lang) >= COMMON:
                return word
    return None


def garbled(text: str) -> str | None:
    """A doubled word (not a grammatical one: 'die die', 'had had'), a label without its word, an unclosed quote
    (more '``' than "''", or an odd number of '"' or of both where no '„' opens a German quote), a '``' where a
    quote is open, a doubled full stop or comma, a spaced apostrophe ('prosecutor ’ s') or a quote mark after a
    closing one."""
    doubled = next((m.group(0) for m in DOUBLED.finditer(text) if m.group(1).lower() not in FINE_DOUBLES), None)
    empty = EMPTY_LABEL.search(text)
    marks = text.count("``") + text.count("''")  # a lone "''" opens no quote it closes ("as '' has a very")
    unclosed = text.count("``") > text.count("''") or ((marks % 2 or text.count('"') % 2) and "„" not in text)
    flaws = [doubled, empty.group(0) if empty else None, "unclosed_quote" if unclosed else None,
             "reversed_quote" if _reversed_quote(text) else None, "doubled_stop" if DOUBLED_STOP.search(text) else None,
             "stray_mark" if STRAY_MARK.search(text) else None]
    return next((f for f in flaws if f), None)


def _reversed_quote(text: str) -> bool:
    """Whether a '``' opens a quote while one is open ("entitled `` Most Humorous '' and '' Most Talented ``")."""
    open_ = False
    for token in re.findall(r"``|''", text):
        if token == "``" and open_:
            return True
        open_ = not open_
    return False


def lower_start(text: str, source: str) -> bool:
    """``text`` opens in lower case where its source opens in upper case ('le Parc national de Petkeljärvi est')."""
    return text[:1].islower() and source[:1].isupper()


def colon_end(text: str, source: str) -> bool:
    """``text`` ends on a colon where its source ends its sentence ('... in eastern Henan :' for '... de l'Est.'):
    a list cut off, judged not fluent."""
    return text.rstrip().endswith(":") and not source.rstrip().endswith(":")
