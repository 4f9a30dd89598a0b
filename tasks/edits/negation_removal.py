"""Negation removal in French, German and Swedish, by rules on the text (no Doc): the one negation of a sentence
goes ('Il n'est plus président' -> 'Il est président', 'hat keinen Sohn' -> 'hat einen Sohn', 'Hon är inte hemma'
-> 'Hon är hemma'), or a Skip says why it would break the sentence. The negation edit (negation.py) asks it
first; insertion stays there."""
from __future__ import annotations

import re

from tasks.edits import lexicons
from tasks.edits.result import Edit, Skip
from tasks.edits.swap import replace_span

FR_NEGATED = re.compile(r"\b(?:ne |n'|n’)((?:(?:me|te|se|le|la|les|lui|leur|nous|vous|y|en) |[mtsl]['’])*\w+)"
                        r" (pas|jamais|plus)\b", re.IGNORECASE)
# Words after 'pas' that need it ('pas encore', 'pas seulement', 'pas du tout', 'plus jamais', 'pas de pain').
FR_NEEDS_NEGATION = re.compile(r"\s+(?:encore|seulement|que|qu['’]|du tout|non plus|jamais|plus|rien|personne|aucun"
                               r"|aucune|ni|guère|forcément|nécessairement|moins|d['’]|de (?!(?:la|l['’]|les|leur|leurs"
                               r"|son|sa|ses|ce|cette|ces|mon|ma|mes|notre|nos|votre|vos)\b))"
                               r"|\s+\w+(?:é|u|i|it|is)\s+(?:d['’]|de (?!(?:la|l['’]|les|leur|leurs|son|sa|ses|ce"
                               r"|cette|ces)\b))", re.IGNORECASE)  # 'il n'y a pas eu de contact' -> 'eu de contact'
FR_DETERMINERS = r"(?:un|une|le|la|les|l['’]|son|sa|ses|leur|leurs|ce|cet|cette|ces|mon|ma|mes|notre|nos|votre|vos)"
FR_SANS = re.compile(r"(?<![\w-])(sans) (?=" + FR_DETERMINERS + r"(?:\s|\b))", re.IGNORECASE)
DE_NICHT = re.compile(r"(?<![\w-])(\w+) nicht(?: mehr(?! als))?(?![\w-])")
DE_NEEDS_BEFORE = {"noch", "gar", "überhaupt", "immer", "durchaus", "keineswegs"}
DE_NEEDS_AFTER = re.compile(r"\s+(?:nur|einmal|mal|jemals|je|so|sondern|zuletzt|unbedingt|weniger|minder)\b")
DE_KEIN = re.compile(r"(?<![\w-])([Kk])ein(|e|en|em|es)((?:\s+[a-zäöüß][\w-]*){0,2}\s+)([A-ZÄÖÜ][\w-]*)")
DE_FEMININE = re.compile(r"(?:ung|heit|keit|schaft|ion|tät|ik|ur|ei)$")
DE_PLURAL = re.compile(r"(?:ungen|heiten|keiten|schaften|ionen|täten|iken|uren|eien|innen)$")
DE_MASS = lexicons.entry_set("negation_mass_nouns_de")
SV_NEGATED = re.compile(r"(?<![\w-])(\w+) (?:inte|ej|aldrig)(?: längre)?(?![\w-])")
SV_NEEDS_BEFORE = {"ännu", "än", "alls", "heller"}
SV_NEEDS_AFTER = re.compile(r"\s+(?:bara|heller|alls|ens|någon|något|några|någonsin|förrän|minst|mindre|ännu"
                            r"|så|direkt|nödvändigtvis|utan|omedelbart|riktigt)\b|\W*$",
                            re.IGNORECASE)  # 'Du behövde inte.' -> 'Du behövde.' is broken
SV_INGEN = re.compile(r"(?<=\s)(ingen|inget|inga) (?=([a-zåäö][\w-]*))")
SV_MASS = lexicons.entry_set("negation_mass_nouns_sv")
SV_VERBS = frozenset(lexicons.entries("negation_verbs_sv"))
ANY_NEGATION = {
    "fr": re.compile(r"(?<![\w-])(?:ne|n['’]|pas|jamais|plus|rien|aucune?|personne|sans|ni|guère)(?![\w-])",
                     re.IGNORECASE),
    "de": re.compile(r"(?<![\w-])(?:nicht|kein\w*|nie|niemals|niemand|nichts|ohne|weder|nirgends)(?![\w-])",
                     re.IGNORECASE),
    "sv": re.compile(r"(?<![\w-])(?:inte|ej|aldrig|ingen|inget|inga|ingenting|ingen\w*|utan|varken)(?![\w-])",
                     re.IGNORECASE),
}


def rule_removal(text: str, lang: str) -> Edit | Skip | None:
    """The removal of the one negation of ``text`` (fr / de / sv rules), a Skip where it would break the
    sentence, or None when it has none. A sentence left with another negation is skipped."""
    finder = {"fr": _french_removal, "de": _german_removal, "sv": _swedish_removal}[lang]
    result = finder(text)
    if isinstance(result, Edit) and ANY_NEGATION[lang].search(result.bad):
        return Skip("several_negations")
    return result


def _capital(new: str, old: str) -> str:
    return new[:1].upper() + new[1:] if old[:1].isupper() else new


def _french_removal(text: str) -> Edit | Skip | None:
    """'ne/n' ... pas/jamais/plus' goes, clitics kept ('Il ne l'a jamais vu' -> 'Il l'a vu', 'Il n'est plus
    président' -> 'Il est président'; 'c'est' and 'j'ai' elided again); 'sans' before a determiner becomes 'avec'
    ('sans le soutien de' -> 'avec le soutien de'). Not before a word that needs the negation ('pas encore',
    'pas seulement', 'pas de pain': the partitive would want 'du')."""
    m = FR_NEGATED.search(text)
    if m:
        if FR_NEEDS_NEGATION.match(text, m.end()):
            return Skip("needs_negation")
        start, kept = m.start(), m.group(1)
        before = re.search(r"(?<![\w'’])(ce|je) $", text[:start], re.IGNORECASE)
        if before and kept[:1].lower() in "aeéèêiouhy":
            start, kept = before.start(), f"{before.group(1)[0]}'{kept}"  # ce n'est pas -> c'est
        kept = _capital(kept, text[start:])
        return replace_span(text, start, m.end(), kept, "negation", f"remove:{m.group(0)}")
    m = FR_SANS.search(text)
    if m:
        return replace_span(text, m.start(1), m.end(1), _capital("avec", m.group(1)), "negation", "remove:sans")
    return None


def _german_removal(text: str) -> Edit | Skip | None:
    """'nicht' (and 'nicht mehr') goes ('Das Haus ist nicht alt.' -> 'ist alt'); 'kein' becomes 'ein' with its
    ending ('hat keinen Sohn' -> 'hat einen Sohn', 'keine Lösung' -> 'eine Lösung') and plural 'keine' goes ('hat
    keine Kinder' -> 'hat Kinder'; a plural told by its suffix, 'keine Stellungen'). Not after 'noch' / 'gar', not
    before 'nur' / 'einmal' / 'sondern', not before a mass noun ('kein Geld' -> 'ein Geld')."""
    hits = [m for m in (DE_NICHT.search(text), DE_KEIN.search(text)) if m]
    if not hits:
        return None
    m = min(hits, key=lambda h: h.start())
    if m.re is DE_NICHT:
        if m.group(1).lower() in DE_NEEDS_BEFORE or DE_NEEDS_AFTER.match(text, m.end()):
            return Skip("needs_negation")
        return replace_span(text, m.start(), m.end(), m.group(1), "negation", f"remove:{m.group(0)}")
    k, ending, middle, noun = m.groups()
    if noun in DE_MASS:
        return Skip("mass_noun")
    start, end = m.start(), m.start() + len(k) + 3 + len(ending)
    if ending == "e" and DE_PLURAL.search(noun):
        if middle.strip():
            return Skip("adjective_ending")  # 'keine großen Stellungen' -> 'große Stellungen'
        rest = m.start(3) + len(middle) - len(middle.lstrip())  # 'keine Stellungen' -> 'Stellungen'
        new = _capital(text[rest], "K") if start == 0 else text[rest]
        return replace_span(text, start, rest + 1, new, "negation", "remove:keine->")
    if ending == "e" and not DE_FEMININE.search(noun):
        return Skip("keine_number_unknown")  # 'keine Bücher' (plural) or 'keine Frau' (singular): not told
    new = ("E" if k == "K" else "e") + "in" + ending
    return replace_span(text, start, end, new, "negation", f"remove:{text[start:end]}->{new}")


def _swedish_removal(text: str) -> Edit | Skip | None:
    """'inte' / 'ej' / 'aldrig' (and 'inte längre') goes ('Hon är inte hemma.' -> 'Hon är hemma.'); 'ingen' /
    'inget' before a count noun becomes 'en' / 'ett' ('Det finns ingen buss' -> 'en buss'), 'inga' goes ('har
    inga barn' -> 'har barn'). Not before 'bara' / 'heller' / 'någon' / 'utan', not after 'ännu', not before a
    mass noun ('ingen tid') or a verb ('Ingen vet': a pronoun)."""
    hits = [m for m in (SV_NEGATED.search(text), SV_INGEN.search(text)) if m]
    if not hits:
        return None
    m = min(hits, key=lambda h: h.start())
    if m.re is SV_NEGATED:
        if m.group(1).lower() in SV_NEEDS_BEFORE or SV_NEEDS_AFTER.match(text, m.end()):
            return Skip("needs_negation")
        return replace_span(text, m.start(), m.end(), m.group(1), "negation", f"remove:{m.group(0)}")
    word, nxt = m.group(1), m.group(2)
    if nxt in SV_MASS or nxt in SV_VERBS or nxt in ("av", "annan", "annat", "andra", "som", "mer", "mera", "fler",
                                                      "längre", "alls"):
        return Skip("ingen_not_before_count_noun")
    if re.search(r"(?:ad|ade|ats|en)$", nxt) and not re.match(r"\s+\w", text[m.end() + len(nxt):]):
        return Skip("ingen_as_pronoun")  # '..., ingen skadad': a participle, no noun follows
    if word == "inga":
        return replace_span(text, m.start(), m.end(), "", "negation", "remove:inga->")
    new = "en" if word == "ingen" else "ett"
    return replace_span(text, m.start(), m.start(1) + len(word), new, "negation", f"remove:{word}->{new}")
