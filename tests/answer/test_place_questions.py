"""Where cover holds: the places a sentence names are the answer to "In which countries ...?".

Asked "Can the geographical area be extended to neighbouring countries?", a motor policy's
answer quoted the sentence that extends the area without naming any country ("Cannot tell");
asked "In which countries is treatment covered under the international cover?" of a policy
that names none, it quoted a definition of doctors abroad. No question kind asked for a place,
so a sentence naming countries held no value. Now a question that asks which countries,
territories or regions, where the cover is valid, or the geographical area or territorial
scope is of the ``place`` kind, and a sentence naming a place (spaCy's GPE and LOC entities,
the small English model the package ships) holds its value. The scope clause is written with
four place lists, three headings and two verbs, beside a clause with the same words and no
place; it is asked three ways.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import _value_spans, question_kind
from clausegraph.answer.gate import using_gate

PLACES = [
    ("Europe and the countries bordering the Mediterranean Sea", "Europe"),
    ("the United Kingdom, Ireland and France", "Ireland"),
    ("India, Nepal and Bhutan", "Nepal"),
    ("Canada and the United States", "Canada"),
]
HEADINGS = ["1. TERRITORIAL SCOPE", "1. Where you are insured", "1.1 Territorial limits"]
VERBS = ["is valid in", "applies in"]
VARIANTS = [(p, h, v) for p in range(len(PLACES)) for h in HEADINGS for v in VERBS]


def wording(places: int, heading: str, verb: str) -> str:
    return f"""{heading}
The insurance {verb} {PLACES[places][0]}, for journeys of up to 90 days.
2. PASSENGER ACCIDENT COVER
The insurance also covers accidents while you drive a third-party vehicle of the same category, provided that you do not hold equivalent insurance under another policy.
3. CLAIMS
You must report a claim to us within 30 days of the accident and send us the repair estimate.
4. PREMIUM
The premium is due on the first day of each insurance year.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("place"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "In which countries does the insurance cover apply?",
    "Which countries does the policy cover?",
    "In which countries is the policy valid?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_sentence_naming_the_places_is_quoted(wordings, variant, question):
    """The sentence chosen, the gate off: whether to answer at all is the gate's, fitted on
    the benchmarks' questions (a wording that says "applies in" shares no word with "Which
    countries does the policy cover?")."""
    named = PLACES[VARIANTS[variant][0]][1]
    with using_gate(None):
        answer = ask_variant(wordings, variant, question)
    assert named in direct_text(answer), direct_text(answer)


@pytest.mark.xfail(strict=True, reason="typed Insurance (a CUAD category): the answer's "
                   "type prior prefers the clause of that type, which names no place, when "
                   "the scope's verb ('applies in') is not the question's ('valid')")
def test_a_question_typed_insurance_names_the_place(wordings):
    variant = VARIANTS.index((2, HEADINGS[0], "applies in"))
    with using_gate(None):
        answer = ask_variant(wordings, variant, "Where is the insurance valid?")
    assert "Nepal" in direct_text(answer), direct_text(answer)


def test_the_place_is_answered_when_the_words_match(wordings):
    answer = ask_variant(wordings, 0, "In which countries does the insurance cover apply?")
    assert answer.found, [line.text for line in answer.direct.nearest]
    assert "Europe" in direct_text(answer)


@pytest.mark.parametrize(("question", "kind"), [
    ("Which countries can the geographical area be extended to?", "place"),
    ("In which territories is the licence granted?", "place"),
    ("What are the territorial limits of the policy?", "place"),
    ("Where does the policy apply?", "place"),
    # where something else is: not a place the cover holds in
    ("Where is the company incorporated?", "incorporation"),
    ("Which state's law governs the agreement?", "law"),
    # an address to send to: how to reach someone, not where cover holds
    ("Where should claims be sent?", "contact"),
    ("Is treatment outside India covered?", "coverage"),
])
def test_questions_that_ask_where_cover_holds(question, kind):
    assert question_kind(question) == kind


@pytest.mark.parametrize(("text", "places"), [
    ("The insurance is valid for Europe and the Mediterranean Sea.", 2),
    ("Cover extends to Nepal, Sri Lanka, Bhutan and Bangladesh.", 4),
    ("The insurance also covers accidents in a vehicle of the same category.", 0),
    # a defined "Geographical Area" names the kind of place asked, not a place, and the
    # small model's "Policy" is none either
    (("It is hereby agreed that notwithstanding anything contained in this Policy to the "
      "contrary the Geographical Area in this Policy shall be deemed to include *"), 0),
])
def test_a_sentence_holds_the_places_it_names(text, places):
    assert len(_value_spans("place", text)) == places
