"""tasks/hallucigen/entities.py: NER spans and name pools."""



def test_ner_spans_leave_a_possessive_out_and_drop_spans_without_a_capital():
    import spacy

    from tasks.hallucigen.entities import ner_spans

    nlp = spacy.blank("en")
    doc = nlp("The European Union 's trade and Whelihan 's")
    doc.ents = [doc.char_span(0, 21, "ORG"), doc.char_span(41, 43, "PERSON")]
    assert [doc.text[s:e] for s, e, _ in ner_spans(doc, "en")] == ["The European Union"]


def test_pools_hold_plausible_names_only():
    from tasks.hallucigen.entities import pool_of

    text = "Il a joué dans Parti populaire de Galice est une mini-série et à Paris."
    spans = [(15, text.index(" et"), "ORG"), (text.index("Paris"), text.index("Paris") + 5, "LOC")]
    assert pool_of([(text, spans)], "fr") == {"LOC@à": ["Paris"]}
