"""Which clause and sentence answer: the asked value, list items under their heading, the
defined term, and value patterns that do not mistake one kind of statement for another.

The policy excerpt below is the standard IRDAI exclusion wording (Excl01/Excl02) that every
Indian health policy in the labelled set repeats; it is rebuilt here as a small text file
and indexed with the real reader, segmenter and store."""

from __future__ import annotations

import pytest
from synthetic_index import read_texts

from clausegraph.answer.direct import (
    DocumentTerms,
    _score_sentences,
    _focus,
    _holds_value,
    direct_answer,
    focus_scores,
    question_kind,
)
from clausegraph.answer.extractive import assign_groups
from clausegraph.answer.gate import using_gate
from clausegraph.models import Clause, RetrievedClause
from clausegraph.text.tokenize import tokenize

EXCLUSIONS = """SECTION D EXCLUSIONS
1) Pre-Existing Diseases (Code - Excl01)
a. Expenses related to the treatment of a Pre-Existing Disease (PED) and its direct complications shall be excluded until the expiry of 36 months of continuous coverage after the date of inception of the first policy with Us.
b. In case of enhancement of sum insured the exclusion shall apply afresh to the extent of sum insured increase.
2) Specified disease/procedure waiting period (Code - Excl02)
a. Expenses related to the treatment of the listed Conditions, surgeries/treatments shall be excluded until the expiry of 24 months of continuous coverage after the date of inception of the first policy with Us. This exclusion shall not be applicable for claims arising due to an Accident.
b. In case of enhancement of sum insured the exclusion shall apply afresh to the extent of sum insured increase.
c. If any of the specified disease/procedure falls under the waiting period specified for Pre-Existing diseases, then the longer of the two waiting periods shall apply.
d. The waiting period for listed conditions shall apply even if contracted after the Policy or declared and accepted without a specific exclusion.
SECTION E GENERAL CONDITIONS
1) Notice of claim
a. Notice of a claim shall be given to Us within 48 hours of admission in a Hospital.
2) Cancellation of the policy by either party
a. The policyholder may cancel this policy by giving 15 days written notice.
b. The Company may cancel the policy on grounds of misrepresentation or fraud.
"""

DEFINITIONS = """1. DEFINITIONS
1.1 "Affiliate" means, with respect to any person or entity, any other person or entity that directly or indirectly controls, is controlled by or is under common control with such person or entity.
1.2 "Claim" means any claim, action or proceeding instituted by a third party (other than an Affiliate of a Party), including any governmental authority.
1.3 "Hospitalization" means admission in a Hospital for a minimum period of 24 consecutive In-patient Care hours.
1.4 "Hospital" means any institution established for in-patient care which has at least ten inpatient beds.
2. TERM
2.1 This Agreement shall commence on September 10, 2015 and shall continue for One (1) Year.
"""

# A preamble that introduces two parties in one sentence (CUAD, SteelVault's marketing
# affiliate agreement, CC BY 4.0).
PREAMBLE = """MARKETING AFFILIATE AGREEMENT
This Agreement is made this 1st day of October 2008, (the "Effective Date"), by and between Equidata, Inc., a corporation organized under the laws of Virginia with its principal place of business at 724 Thimble Shoals Boulevard Newport News, Virginia 23606 ("Equidata"), and National Credit Report.com, LLC a Corporation organized under the laws of Florida, with its principal place of business at 7700 N. Congress Ave, Suite 3113, Boca Raton FL33487 ("Marketing Affiliate").
1. Marketing Affiliate wishes to market the Services through third party programs.
"""

# The regulator's standard claim-settlement wording: a rule, then its special case.
CLAIMS = """15 Claim Settlement
1. The Company shall settle or reject a claim only on receipt of all documents.
2. We shall settle claims, including its rejection, within thirty days of the receipt of last necessary document.
3. However, where the circumstances of a claim warrant an investigation in the opinion of the insurer, it shall initiate and complete such investigation at the earliest, in any case not later than 30 days from the date of receipt of last necessary document. In such cases, Insurer shall settle the claim within 45 days from the date of receipt of last necessary document.
"""

# An add-on cover whose refusals are a list under "We will not cover:" in a section with no
# "Exclusions" heading (an insurer's 2-page add-on wording, rebuilt as text).
AIR_AMBULANCE = """Air Ambulance Cover
In consideration of the payment of additional premium to Us, We will cover the expenses incurred on air ambulance services in respect of an Insured Person which have been used during the Policy Period to transfer the Insured Person to a Hospital, provided that:
i. Our maximum liability under this Benefit for any and all claims arising during the Policy Year will be restricted to the Sum insured as stated in the Policy Schedule;
ii. Such air ambulance providing the services, should be duly licensed to operate as such by a competent government Authority.
iii. This cover is limited to transportation from the area of emergency to a Hospital providing emergency care which is not available at the place of origin and from one medical centre to another. We will not cover:
a. Transfer of the Insured Person from one medical facility to another medical facility of similar capabilities which provides a similar level of care.
b. Any transportation of the Insured Person from Hospital to the Insured Person's residence after he/she has been discharged from the Hospital
c. Any transportation or air ambulance expenses incurred outside the geographical scope of India.
"""


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory):
    return read_texts(tmp_path_factory.mktemp("ranking"), {
        "exclusions.txt": EXCLUSIONS, "definitions.txt": DEFINITIONS,
        "air_ambulance.txt": AIR_AMBULANCE, "preamble.txt": PREAMBLE,
        "claims.txt": CLAIMS})


def _clauses(reader, file: str) -> list:
    doc_id = next(d for d, e in reader.entries().items() if e.source_path.endswith(file))
    return reader.clauses.document_clauses(doc_id)


def _holding(clauses, text: str):
    return next(c for c in clauses if text in c.text)


def test_each_list_item_carries_the_heading_right_above_it(reader):
    """Several lists number a heading "2)": an item carries the nearest one above it in its
    section path (what retrieval embeds with it), in any letter case of the heading."""
    clauses = _clauses(reader, "exclusions.txt")
    item = _holding(clauses, "a. Expenses related to the treatment of the listed")
    assert item.section_path[-1].endswith("2) Specified disease/procedure waiting period "
                                          "(Code - Excl02)"), item.section_path
    later = _holding(clauses, "b. The Company may cancel the policy")
    assert "Cancellation of the policy by either party" in later.section_path[-1]
    notice = _holding(clauses, "a. Notice of a claim")
    assert notice.section_path[-1].endswith("1) Notice of claim")


def test_the_item_holding_the_asked_period_outranks_one_that_only_repeats_the_words(reader):
    clauses = _clauses(reader, "exclusions.txt")
    question = "What is the waiting period for specified diseases and procedures?"
    answer_item = _holding(clauses, "a. Expenses related to the treatment of the listed")
    wording = _holding(clauses, "c. If any of the specified disease")
    # focus (the reorder of retrieved clauses): the 24-month item, whose list heading
    # names what is asked, now ranks above the sentence that only repeats the words
    focus = dict(zip([answer_item.clause_id, wording.clause_id],
                     focus_scores(reader, question, [answer_item, wording]), strict=True))
    assert focus[answer_item.clause_id] > focus[wording.clause_id]
    # and the direct answer quotes the period, even when retrieval put the wording first
    ranked = [wording, _holding(clauses, "2) Specified disease"), answer_item]
    direct = direct_answer(reader, DocumentTerms(reader), question, ranked)
    assert direct.found
    assert "24 months" in direct.text, direct.text
    # its own carve-out follows as its exception line ("shall not be applicable", not only
    # "shall not apply")
    assert [e.text for e in direct.exceptions] == [
        "This exclusion shall not be applicable for claims arising due to an Accident."]


def test_the_definition_of_the_asked_term_answers(reader):
    clauses = _clauses(reader, "definitions.txt")
    terms = DocumentTerms(reader)
    claim = _holding(clauses, '1.2 "Claim"')
    affiliate = _holding(clauses, '1.1 "Affiliate"')
    # "Claim" means ... (other than an Affiliate ...) mentions the word, but does not define it
    answer = direct_answer(reader, terms, "How is Affiliate defined?", [claim, affiliate])
    assert answer.found and '"Affiliate" means' in answer.text, answer.text
    # the words as written: "Hospitalization" is not "Hospital", though both stem alike
    hospitalization = _holding(clauses, '1.3 "Hospitalization"')
    hospital = _holding(clauses, '1.4 "Hospital"')
    answer = direct_answer(reader, terms, "How does the policy define a 'Hospital'?",
                           [hospitalization, hospital])
    assert answer.found and "ten inpatient beds" in answer.text, answer.text


def test_when_does_it_start_is_answered_by_a_date(reader):
    clauses = _clauses(reader, "definitions.txt")
    term = _holding(clauses, "2.1 This Agreement shall commence")
    answer = direct_answer(reader, DocumentTerms(reader),
                           "When does the agreement start and how long does it run?", [term])
    assert answer.found and "September 10, 2015" in answer.text


def test_value_patterns():
    # an incorporation is not the governing law; "governed by" alone names no law
    assert not _holds_value("law", "a corporation organized under the laws of Virginia", 0, 50)
    text = "a validly existing partnership in good standing under the laws of the State of Delaware"
    assert not _holds_value("law", text, 0, len(text))
    text = "shall be governed by an interconnect agreement between Transporter and such Person"
    assert not _holds_value("law", text, 0, len(text))
    for text in ("This Agreement shall be governed by Singapore law.",
                 "construed under the laws of the Commonwealth of Virginia"):
        assert _holds_value("law", text, 0, len(text)), text
    # an amount or a period in any style the value extractor reads (the "$" after a space
    # was once missed: "\b$" never matches there)
    for text in ("a fee of $500", "a fee of £ 500", "a fee of ₹500", "INR 5 lakhs",
                 "10 per cent of the Sum Insured", "a sum of 1,00,000"):
        assert _holds_value("amount", text, 0, len(text)), text
    for text in ("within thirty (30) days", "within 30 (thirty) days", "thirteen weeks",
                 "persons 65 years of age", "in perpetuity"):
        assert _holds_value("duration", text, 0, len(text)), text
    # a distance or a year is no amount
    for text in ("The maximum distance of travel is 150 kms.", "in the year 2019"):
        assert not _holds_value("amount", text, 0, len(text)), text
    # an age is a number of years
    assert question_kind("Up to what age are children covered under the escort benefit?") == \
        "duration"
    assert question_kind("What is the maximum entry age?") == "duration"


def test_a_long_sentence_is_cut_at_its_start_when_that_holds_as_much():
    text = ("(i) the other Party becomes insolvent, or institutes (or there is instituted "
            "against it) proceedings in bankruptcy, insolvency, reorganization or dissolution, "
            "makes an assignment for the benefit of creditors or becomes nationalized or has "
            "any of its material assets confiscated or expropriated; or (ii) the other Party "
            "(in this case, the \"breaching Party\") fails to perform any of its obligations "
            "hereunder and fails to correct such failure within Ninety (90) calendar days.")
    weights = {t: 1.0 for t in tokenize("party terminate other becomes insolvent")}
    start, _ = _focus(text, (0, len(text)), weights, None)
    # the stretch that starts the sentence holds the same words as one starting at
    # "or institutes": the reader gets "(i) the other Party becomes insolvent"
    assert start == 0


def test_definition_question_on_a_real_contract(sample_graph):
    # Audible's definitions: "Claim" means ... (other than an Affiliate of a Party) is
    # shorter and mentions the word; the answer is the definition of "Affiliate" itself
    doc = next(k for k, e in sample_graph.index.entries().items() if "AudibleInc" in e.source_path)
    answer = sample_graph.ask("How is Affiliate defined?", documents=[doc])
    assert answer.found
    assert answer.direct_answer.lstrip('"“').startswith("Affiliate"), answer.direct_answer
    assert "controls" in answer.direct_answer


def _retrieved(clause) -> RetrievedClause:
    return RetrievedClause(clause=clause, score=1.0, sim=1.0, bm25=1.0, dense=1.0,
                           centrality=0.0, path_support=0.0, origin="seed")


def test_items_under_we_will_not_cover_are_exclusions(reader):
    clauses = _clauses(reader, "air_ambulance.txt")
    grant = _holding(clauses, "We will cover the expenses incurred on air ambulance")
    home = _holding(clauses, "residence after he/she has been discharged")
    licensed = _holding(clauses, "duly licensed")
    groups = assign_groups([_retrieved(c) for c in (grant, home, licensed)], [], reader)
    assert groups[home.clause_id] == "exception"
    assert groups[licensed.clause_id] == "base_rule"
    assert groups[grant.clause_id] == "base_rule"
    # without the index (no list structure) the section alone decides: its path names the
    # list by its lead-in ("(v) We will not cover:", segment.lead_in_paths), which refuses
    assert any("We will not cover" in entry for entry in home.section_path)
    assert assign_groups([_retrieved(home)], [])[home.clause_id] == "exception"
    question = ("Is transportation from hospital to home after discharge covered by the air "
                "ambulance cover?")
    terms = DocumentTerms(reader)
    # which lines answer, not whether: the gate (tests/answer/test_gate.py) is off, since
    # this index has neither vectors nor clause types for it to read
    with using_gate(None):
        # retrieved together, the refusal that names what is asked answers
        answer = direct_answer(reader, terms, question, [grant, home, licensed],
                               exceptions=[home])
        # (after the lead-in that refuses its list, "We will not cover:", as a heading line)
        quoted = next(line for line in answer.lines if not line.heads)
        assert answer.found and quoted.clause_id == home.clause_id, answer
        # when retrieval brings it only as an exception of the grant, it follows the grant
        # as its exception line (an exclusion speaks of the "cover" asked about by its
        # place); the grant's bare "provided that:" (its conditions are the items after
        # it) is no line
        answer = direct_answer(reader, terms, question, [grant, licensed], exceptions=[home])
    assert answer.found and answer.lines[0].clause_id == grant.clause_id, answer
    assert [line.clause_id for line in answer.exceptions] == [home.clause_id], answer


def test_each_party_is_organized_where_its_own_introduction_says(reader):
    clauses = _clauses(reader, "preamble.txt")
    preamble = _holding(clauses, "by and between Equidata")
    terms = DocumentTerms(reader)
    answer = direct_answer(reader, terms, "Where is the marketing affiliate organized?",
                           [preamble])
    assert answer.found
    assert "laws of Florida" in answer.text and "Virginia" not in answer.text, answer.text
    answer = direct_answer(reader, terms, "Where is Equidata organized?", [preamble])
    assert answer.found and "laws of Virginia" in answer.text and "Florida" not in answer.text


def test_the_rule_answers_before_its_special_case(reader):
    clauses = _clauses(reader, "claims.txt")
    rule = _holding(clauses, "within thirty days")
    special = _holding(clauses, "In such cases")
    answer = direct_answer(reader, DocumentTerms(reader),
                           "Within how many days are claims settled?",
                           [special, rule])
    assert answer.found and answer.lines[0].clause_id == rule.clause_id, answer.text
    assert "thirty days" in answer.text and "45 days" not in answer.text


def test_a_line_that_introduces_what_follows_is_not_read_with_the_sentence_before():
    # the end of policy.pdf's 3.1.14: a heading of the next part glued to the clause
    text = ("On attaining 3 months of age, the New Born Baby shall be covered only if "
            "specifically included in the Policy mid-term and requisite premium paid to the "
            "Company.\n\nCover\nMaternity Expenses means;")
    clause = Clause(clause_id="d:3.1.14", doc_id="d", number="3.1.14", text=text,
                    span=(0, len(text)), segments=[(0, len(text))], pages=[1], order=0)
    weights = {t: 1.0 for t in tokenize("woman cover maternity expenses paid")}
    scored = _score_sentences(clause, 0, weights, sum(weights.values()), "duration")
    windows = [text[s.span[0]:s.span[1]] for s in scored]
    assert windows[-1].startswith("Cover"), windows
    assert not any(w.startswith("On attaining") and w.endswith("means;") for w in windows)


LABELLED_EXCLUSIONS = """5 Permanent Exclusions
i. Code- Excl01: Pre-Existing Diseases
Expenses related to the treatment of a pre-existing Disease (PED) and its direct complications shall be excluded until the expiry of 24 months of continuous coverage after the date of inception of the first policy with insurer.
ii. Code- Excl17: Sterility and Infertility: Expenses related to sterility and infertility. This includes:
a. Any type of contraception, sterilization
b. Assisted Reproduction services including artificial insemination
"""


def test_an_exception_line_quotes_a_statement_and_follows_only_trusted_overrides(tmp_path):
    """A weak Overrides edge (word overlap, below the confidence retrieval follows) makes
    no exception line; a trusted one does, quoting what the clause states, not its label
    line ("ii. Code- Excl17:")."""
    from clausegraph.answer.extractive import _document_answer
    from clausegraph.models import Edge, RelationType

    reader = read_texts(tmp_path, {"labelled.txt": LABELLED_EXCLUSIONS})
    clauses = reader.clauses.document_clauses(next(iter(reader.entries())))
    ped = _holding(clauses, "pre-existing Disease (PED)")
    sterility = _holding(clauses, "Excl17")
    question = "How long are pre-existing diseases excluded?"

    def answer_with(confidence: float):
        edge = Edge(type=RelationType.OVERRIDES, source=sterility.clause_id,
                    target=ped.clause_id, confidence=confidence, rule_id="test",
                    evidence="", evidence_span=(0, 0))
        results = [_retrieved(ped), _retrieved(sterility).model_copy(update={"via": [edge]})]
        return _document_answer(reader, DocumentTerms(reader), question, results, 0.5)

    weak = answer_with(0.3)
    assert weak.found and weak.lines[0].clause_id == ped.clause_id
    assert weak.exceptions == []
    trusted = answer_with(0.9)
    assert [line.clause_id for line in trusted.exceptions] == [sterility.clause_id]
    assert trusted.exceptions[0].text == "Expenses related to sterility and infertility."


LONG_SENTENCE = ("12. Termination for Breach\n12.1 Without prejudice to any other rights or remedies "
                 "(including, without limitation, any right to seek damages, injunctive relief, "
                 "specific performance and other monetary or equitable relief, and the rights of "
                 "each Party under the Transition Services Schedule, the Escrow Schedule, the "
                 "Service Level Schedule and the Data Protection Schedule) that either Party may "
                 "have in law, in equity or otherwise, either Party may terminate this Agreement "
                 "if the other Party materially breaches it and fails to cure the breach within "
                 "thirty (30) days of written notice.\n")


def test_a_quote_cut_from_a_long_sentence_is_marked_where_it_was_cut(tmp_path):
    reader = read_texts(tmp_path, {"long.txt": LONG_SENTENCE})
    clause = _holding(reader.clauses.document_clauses(next(iter(reader.entries()))),
                      "materially breaches")
    answer = direct_answer(reader, DocumentTerms(reader),
                           "Can a party terminate the agreement if the other party materially "
                           "breaches it, and how long is the cure period?", [clause])
    line = answer.lines[0]
    assert answer.found and "thirty (30) days" in line.text
    # the quote starts inside the sentence: marked, and still an exact copy of the source
    assert line.cut_before and not line.text.startswith("Without prejudice")
    assert " ".join(LONG_SENTENCE.split()).count(line.text) == 1


# The infertility grant of a benefits section, and the exclusion list item that refuses it.
INFERTILITY_GRANT = """3 Benefits
3.1 Infertility Treatment: The Company shall indemnify Medical Expenses for infertility and sterility treatment up to Rs. 50,000 per Policy Year.
"""


def test_a_word_overlap_edge_between_two_exclusions_makes_no_exception_line(tmp_path):
    """The exclusion rules link an exclusion to the clauses it shares words with. To a grant
    of cover that is an exception; to another exclusion of the list it is not: "sterility and
    infertility" is no exception to the pre-existing disease exclusion."""
    from clausegraph.answer.extractive import _document_answer
    from clausegraph.models import Edge, RelationType

    reader = read_texts(tmp_path, {"labelled.txt": LABELLED_EXCLUSIONS + INFERTILITY_GRANT})
    clauses = reader.clauses.document_clauses(next(iter(reader.entries())))
    ped = _holding(clauses, "pre-existing Disease (PED)")
    sterility = _holding(clauses, "Excl17")
    grant = _holding(clauses, "shall indemnify Medical Expenses for infertility")

    def exceptions(target, question: str, rule_id: str) -> list[str]:
        edge = Edge(type=RelationType.OVERRIDES, source=sterility.clause_id,
                    target=target.clause_id, confidence=0.5, rule_id=rule_id,
                    evidence="", evidence_span=(0, 0))
        results = [_retrieved(target), _retrieved(sterility).model_copy(update={"via": [edge]})]
        answer = _document_answer(reader, DocumentTerms(reader), question, results, 0.5)
        assert answer.found and answer.lines[0].clause_id == target.clause_id
        return [line.clause_id for line in answer.exceptions]

    ped_question = "How long are pre-existing diseases excluded?"
    assert exceptions(ped, ped_question, "overrides.exclusions_section") == []
    # the same pair linked by a rule that reads a reference is an exception
    assert exceptions(ped, ped_question, "overrides.notwithstanding_ref") == [sterility.clause_id]
    # the word-overlap edge to a grant of cover is one
    assert exceptions(grant, "Is infertility treatment covered?",
                      "overrides.exclusions_section") == [sterility.clause_id]


RESTATED_EXCLUSION = """SECTION D EXCLUSIONS
1) Pre-Existing Diseases (Code - Excl01)
a. Expenses related to the treatment of a Pre-Existing Disease (PED) and its direct complications shall be excluded until the expiry of 36 months of continuous coverage after the date of inception of the first policy with Us.
2) Sterility (Code - Excl17)
a. Expenses related to sterility and infertility.
SECTION E SCHEDULE OF EXCLUSIONS FOR THE GLOBAL COVER
1) Pre-Existing Diseases (Code - Excl01)
a. Expenses related to the treatment of a Pre-Existing Disease (PED) and its direct complications shall be excluded until the expiry of 36 months of continuous coverage after the date of inception of the first policy with Insurer.
"""


def test_an_exception_that_restates_the_answer_is_no_exception(tmp_path):
    """Policies repeat an exclusion in a second section ("... with Us" / "... with
    Insurer"): the repetition is not an exception to the answer; another clause is."""
    reader = read_texts(tmp_path, {"restated.txt": RESTATED_EXCLUSION})
    clauses = reader.clauses.document_clauses(next(iter(reader.entries())))
    first = _holding(clauses, "first policy with Us")
    again = _holding(clauses, "first policy with Insurer")
    sterility = _holding(clauses, "sterility and infertility")
    overrides = frozenset({(again.clause_id, first.clause_id),
                           (sterility.clause_id, first.clause_id)})
    answer = direct_answer(reader, DocumentTerms(reader),
                           "How long are pre-existing diseases excluded?", [first],
                           [again, sterility], overrides)
    assert answer.found and answer.lines[0].clause_id == first.clause_id
    assert [line.clause_id for line in answer.exceptions] == [sterility.clause_id]


PED_24 = LABELLED_EXCLUSIONS
PED_36 = RESTATED_EXCLUSION.split("SECTION E")[0]
# A document that uses the words but answers nothing about how long.
PED_MENTION = """2 Definitions
2.1 Pre-Existing Disease means any condition, ailment, injury or disease diagnosed by a physician before the policy.
"""


def test_documents_that_answer_equally_well_each_give_their_answer(tmp_path):
    """A question that names no document, answered as well by two of them: the direct
    answer is each one's, one line per document, with both citations; a document that
    answers less well is not part of it."""
    from clausegraph.answer.extractive import build_answer

    reader = read_texts(tmp_path, {"policy_a.txt": PED_24, "policy_b.txt": PED_36,
                                   "policy_c.txt": PED_MENTION})
    question = "How long are pre-existing diseases excluded?"
    ranked = [_retrieved(_holding(_clauses(reader, name), text)) for name, text in (
        ("policy_c.txt", "Pre-Existing Disease means"),
        ("policy_a.txt", "24 months"), ("policy_b.txt", "36 months"))]
    answer = build_answer(reader, question, ranked, {"min_edge_confidence": 0.5})
    files = [reader.clauses.document(d).source_path.rsplit("/", 1)[1]
             for d in answer.direct_answer_documents]
    assert answer.found and files == ["policy_a.txt", "policy_b.txt"]
    lines = answer.direct_answer.split("\n")
    assert len(lines) == 2 and "24 months" in lines[0] and "36 months" in lines[1]
    assert lines[0].startswith(f"{answer.per_document[1].document} (policy_a.txt): ")
    assert answer.direct_answer_citations == [ranked[1].clause_id, ranked[2].clause_id]
    assert "**Answer by document** (2 documents answer this equally well" in answer.answer
    assert "**Other documents**" in answer.answer  # policy_c, listed apart

    # one document alone: its answer, as before
    alone = build_answer(reader, question, ranked[1:2], {"min_edge_confidence": 0.5})
    assert alone.direct_answer_documents == [ranked[1].clause.doc_id]
    assert "\n" not in alone.direct_answer and "24 months" in alone.direct_answer
    assert "**Answer by document**" not in alone.answer


@pytest.mark.parametrize("text, refuses", [
    ("Expenses shall be excluded until the expiry of 24 months.", True),
    ("Cosmetic surgery is not covered.", True),
    ("Charges shall not be payable for the first 30 days.", True),
    ("We will not cover: a. transfers between hospitals", True),
    ("The Company shall indemnify Medical Expenses for cataract.", False),
    ("Day care procedures are covered up to the Sum Insured.", False),
    ("Exclusions do not apply to accidents.", False),
])
def test_a_clause_that_refuses_cover(text: str, refuses: bool) -> None:
    from clausegraph.answer.direct import refuses_cover

    assert refuses_cover(text) is refuses
