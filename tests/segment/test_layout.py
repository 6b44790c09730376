"""Segment settings that read the page layout and name lists by their lead-in."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from clausegraph.config import SegmentConfig
from clausegraph.ingest import load_document
from clausegraph.models import Clause, Document, Page
from clausegraph.segment import segment
from tests.segment_text import headed_by

STYLE = SegmentConfig(style_headings=True)


def policy_pdf(path: Path) -> Path:
    """A policy page whose headings are told by weight and size, not by letter case."""
    pdf = pymupdf.open()
    page = pdf.new_page()
    lines = [
        ("hebo", 13, "What we cover"),
        ("helv", 10, "We pay for the treatment of the insured person in a hospital when"),
        ("helv", 10, "the treatment is medically necessary and prescribed by a doctor."),
        ("hebo", 13, "What we don't pay for"),
        ("helv", 10, "We do not pay for cosmetic surgery or for the treatment of obesity."),
        ("helv", 10, "We do not pay for any claim arising out of war or invasion."),
    ]
    y = 80
    for font, size, text in lines:
        page.insert_text((72, y), text, fontname=font, fontsize=size)
        y += 24 if font == "hebo" else 14
    pdf.save(path)
    pdf.close()
    return path


def clause_with(clauses: list[Clause], words: str) -> Clause:
    return next(clause for clause in clauses if words in clause.text)


def test_a_bold_sentence_case_heading_heads_the_paragraphs_under_it(tmp_path: Path) -> None:
    document = load_document(policy_pdf(tmp_path / "policy.pdf"))
    styled = segment(document, STYLE)
    war = clause_with(styled, "war or invasion")
    assert "What we don't pay for" in headed_by(war)
    assert "What we cover" not in headed_by(war)
    assert headed_by(clause_with(styled, "medically necessary")) == ["What we cover"]
    # By letter case alone the line ends in "for": running text, no heading.
    plain = segment(document)
    assert "What we don't pay for" not in headed_by(clause_with(plain, "war or invasion"))


def text_document(text: str) -> Document:
    return Document(doc_id="2" * 16, key="policy", source_path="policy.txt", title="policy",
                    media_type="text", text=text, pages=[Page(number=1, start=0, end=len(text))])


WAITING = """6. Waiting periods

6.1 Specific waiting periods
(a) The following diseases have a waiting period of 24 months:
(i) Cataract and diseases of the lens
(ii) Benign prostatic hypertrophy
(b) The following procedures have a waiting period of 36 months:
(i) Joint replacement surgery of the knee or the hip
(ii) Surgery for spinal disorders unless caused by an accident
"""


def test_a_list_item_carries_its_lead_in_when_the_list_has_no_heading() -> None:
    document = text_document(WAITING)
    knee = clause_with(segment(document), "knee")  # lead_in_paths is on by default
    assert knee.number == "6.1(b)(i)"
    assert "36 months" in knee.section_path[-1] and "24 months" not in knee.section_path[-1]
    plain = clause_with(segment(document, SegmentConfig(lead_in_paths=False)), "knee")
    assert not any("36 months" in part for part in plain.section_path)


REGULATION = """CHAPTER I
GENERAL PROVISIONS

Article 1 Scope
These rules apply to every insurer registered under the Act.

Article 2 Definitions
In these rules the words below have the meanings given to them.

CHAPTER II
POLICYHOLDER PROTECTION

Article 3 Disclosure
An insurer shall give every prospect the policy wording before the sale.

CHAPTER III
GRIEVANCES

Rule 4 Time limits
An insurer shall answer every grievance within fifteen days of its receipt.
"""


def test_chapters_contain_articles_and_rules_number_like_sections() -> None:
    clauses = segment(text_document(REGULATION), SegmentConfig(more_containers=True))
    ids = [clause.clause_id.split(":", 1)[1] for clause in clauses]
    assert "CHAPTER II/Article 3" in ids
    assert "CHAPTER III/Rule 4" in ids
    disclosure = clause_with(clauses, "policy wording before the sale")
    assert disclosure.section_path[0].startswith("CHAPTER II")
    plain = [c.clause_id.split(":", 1)[1] for c in segment(text_document(REGULATION))]
    assert not any(part.startswith("CHAPTER") for part in plain)


# A list label alone on its line, a short phrase on the next, then the list's first item:
# the phrase is the label's title in any letter case, as PDF text of Indian policy
# wordings lays out the waiting-period lists. Written here in three list styles.
TITLED_LIST_STYLES = {
    "roman over digits": (("i.", "ii."), ("1.", "2."),
                          ("24 Months waiting period", "36 Months waiting period")),
    "parenthesised over roman": (("(a)", "(b)"), ("(i)", "(ii)"),
                                 ("Two Years Waiting Period", "Three Years Waiting Period")),
    "capitals over letters": (("A.", "B."), ("a)", "b)"),
                              ("Waiting period of 24 months", "Waiting period of 36 months")),
}


def titled_lists(lists: tuple[str, str], items: tuple[str, str], titles: tuple[str, str]) -> str:
    return "\n".join([
        "6. Waiting periods", "6.3 Specified disease waiting period",
        "Expenses for the listed conditions are excluded until the waiting period ends.",
        lists[0], titles[0], f"{items[0]} Cataract and diseases of the lens",
        f"{items[1]} Hernia of all types",
        lists[1], titles[1], f"{items[0]} Joint replacement surgery of the knee or hip",
        f"{items[1]} Osteoporosis", ""])


@pytest.mark.parametrize("style", TITLED_LIST_STYLES)
def test_a_title_below_its_list_label_names_the_list_of_its_items(style: str) -> None:
    lists, items, titles = TITLED_LIST_STYLES[style]
    clauses = segment(text_document(titled_lists(lists, items, titles)))
    hernia = clause_with(clauses, "Hernia")
    knee = clause_with(clauses, "knee")
    assert hernia.section_path[-1].endswith(titles[0])
    assert knee.section_path[-1].endswith(titles[1])
    assert not any(titles[0] in part for part in knee.section_path)


def test_a_phrase_that_runs_on_is_no_title_of_the_list_below_it() -> None:
    text = "\n".join([
        "General exclusions", "We will not pay for loss or damage caused by:",
        "3. War or invasion.", "4. Pollution or contamination, unless",
        "i. the pollution results from an insured event; or",
        "ii. an insured event results from pollution.", ""])
    config = SegmentConfig(lead_in_paths=False)
    item = clause_with(segment(text_document(text), config), "an insured event results from")
    assert item.section_path and not any(part.endswith("unless") for part in item.section_path)
    # read as a lead-in, the sentence its items finish names them (segment.lead_in_paths)
    item = clause_with(segment(text_document(text)), "an insured event results from")
    assert item.section_path[-1] == "4 Pollution or contamination, unless"


@pytest.mark.parametrize(("lead", "items"), [
    ("The Company shall not be liable to make any payment in respect of",
     ("(a) consequential loss or depreciation;", "(b) damage to tyres and tubes.")),
    ("Any accidental loss or damage suffered whilst the vehicle insured herein is",
     ("i. being used otherwise than in accordance with the limitations as to use;",
      "ii. being driven by a person without a licence.")),
])
def test_a_sentence_its_items_finish_names_them(lead: str, items: tuple[str, str]) -> None:
    # Indian motor wordings: a lead-in with no colon, finished by each item (Tata AIG's
    # general exceptions, session 44)
    text = "\n".join(["SECTION I - OWN DAMAGE", f"3. {lead}", *items,
                      "4. The insured may cancel this policy.", ""])
    item = clause_with(segment(text_document(text)), items[1].split(" ", 2)[1])
    assert item.section_path[-1] == f"3 {lead}", item.section_path


@pytest.mark.parametrize("separator", [" - ", " – ", " — ", ": "])
def test_a_dash_between_a_container_label_and_its_heading_is_not_the_heading(separator) -> None:
    text = "\n".join([
        "MASTER AGREEMENT", "This agreement is made between Acme Ltd. and Northwind Inc.",
        f"ARTICLE I{separator}DEFINITIONS", "1.1 Terms have the meanings given to them here.",
        f"ARTICLE II{separator}TERMINATION", "2.1 Either party may terminate on notice.", ""])
    clauses = segment(text_document(text))
    assert clause_with(clauses, "terminate on notice").section_path == ["ARTICLE II TERMINATION"]
    assert clause_with(clauses, "meanings given").section_path == ["ARTICLE I DEFINITIONS"]


@pytest.mark.parametrize("endorsement", [
    "Endorsement no.12 – DELAY OF CHECKED-IN BAGGAGE:", "ENDORSEMENT 12 - Delay of Checked-in Baggage",
    "Endorsement No. 12: Delay of Checked-in Baggage"])
def test_an_endorsement_heads_the_covers_attached_under_it(endorsement) -> None:
    text = "\n".join([
        "TRAVEL INSURANCE POLICY", "We will cover the insured person during the trip.",
        "1. GENERAL CONDITIONS", "Claims must be notified within thirty days.",
        "Endorsement No. 11 – TRIP CANCELLATION:", "a. Coverage",
        "We will reimburse the non-refundable cost of a cancelled trip.",
        "b. Special Exclusions", "1. Cancellation due to a pre-existing disease.",
        endorsement, "a. Coverage",
        "We will reimburse the cost of emergency purchases of toiletries and clothing.",
        "b. Special Exclusions", "1. Delay caused by customs officials.", ""])
    clauses = segment(text_document(text))
    coverage = clause_with(clauses, "emergency purchases")
    assert "Delay of Checked-in Baggage".lower() in coverage.section_path[0].lower()
    assert coverage.label.lower().startswith("endorsement 12/")
    customs = clause_with(clauses, "customs officials")
    assert customs.section_path[0] == coverage.section_path[0]
    assert "CANCELLATION" in clause_with(clauses, "cancelled trip").section_path[0]


def coded_endorsements(code: str, style: str) -> str:
    label = {"dotted": f"{code}. {{n}}.", "joined": f"{code}{{n}}.", "spaced": f"{code} {{n}}"}[style]
    return "\n".join([
        "MOTOR POLICY", "SECTION I - OWN DAMAGE",
        "1. We will pay for loss of or damage to the vehicle insured.", "ENDORSEMENTS",
        f"{label.format(n=1)} Extension of Geographical Area",
        "In consideration of an additional premium the geographical area is extended to Nepal.",
        f"{label.format(n=3)} TRANSFER OF INTEREST",
        "The interest in the policy passes to the buyer of the vehicle.",
        f"{label.format(n=4)} Change of Vehicle",
        "The insurance is transferred to the new vehicle.", "(a) The new vehicle must be registered.",
        f"{label.format(n=16)} PERSONAL ACCIDENT TO UNNAMED PASSENGERS",
        "We will pay compensation to unnamed passengers injured in the vehicle.", ""])


@pytest.mark.parametrize("code", ["IMT", "GR"])
@pytest.mark.parametrize("style", ["dotted", "joined", "spaced"])
def test_a_code_that_numbers_headings_opens_a_container_each(code: str, style: str) -> None:
    clauses = segment(text_document(coded_endorsements(code, style)))
    registered = clause_with(clauses, "must be registered")
    assert registered.label == f"{code} 4/(a)"
    assert registered.section_path == [f"{code} 4 Change of Vehicle"]
    passengers = clause_with(clauses, "unnamed passengers injured")
    assert passengers.label == f"{code} 16"
    assert "Nepal" not in passengers.text


def test_amounts_and_a_code_used_twice_open_no_container() -> None:
    text = "\n".join([
        "HOSPITAL CASH", "1. We pay a daily allowance for each day in hospital.",
        "INR 500 Per day for Plan A", "INR 750 Per day for Plan B", "INR 900 Per day for Plan C",
        "GR 1 Grace Period", "Renewals are accepted within thirty days of expiry.",
        "GR 2 Free Look", "You may return the policy within fifteen days.", ""])
    clauses = segment(text_document(text))
    assert not any(part.startswith(("INR", "GR")) for c in clauses
                   for part in [*c.section_path, c.label])


# A list of short conditions under one lead-in, as the waiting-period lists of policy
# wordings set them; three numbering styles.
SHORT_ITEM_STYLES = {
    "digits": ("1.", "2.", "3.", "4."),
    "letters in parentheses": ("(a)", "(b)", "(c)", "(d)"),
    "roman": ("i.", "ii.", "iii.", "iv."),
}


@pytest.mark.parametrize("style", SHORT_ITEM_STYLES)
def test_a_short_item_with_a_word_of_its_own_is_a_clause(style: str) -> None:
    labels = SHORT_ITEM_STYLES[style]
    text = "\n".join([
        "4. Exclusions", "4.3 Specific waiting periods",
        "The conditions listed below have a waiting period of 24 months from inception:",
        f"{labels[0]} Stones in the urinary system", f"{labels[1]} Piles",
        f"{labels[2]} Hernia", f"{labels[3]} Varicose veins of the lower limbs", ""])
    kept = segment(text_document(text))
    hernia = clause_with(kept, "Hernia")
    assert hernia.text.split() == [labels[2], "Hernia"]
    assert "Piles" not in hernia.text and "Piles" in clause_with(kept, "Piles").text
    # off (before session 14), items under 15 characters join the sibling before them
    merged = clause_with(segment(text_document(text), SegmentConfig(keep_worded_items=False)),
                         "Hernia")
    assert "Piles" in merged.text


def test_a_label_with_no_word_of_its_own_still_joins_its_neighbour() -> None:
    text = "\n".join([
        "4. Exclusions", "4.3 Deductibles by zone",
        "The deductible is a share of every admissible claim as listed below for each zone:",
        "(a) Zone A, the metropolitan cities named in the schedule", "(b) 10%",
        "(c) Zone B, every other city of the country", ""])
    clauses = segment(text_document(text))
    assert not any(c.text.split() == ["(b)", "10%"] for c in clauses)
    assert "10%" in clause_with(clauses, "Zone A").text


# A capitalised heading set in bold right under a sentence of the body, with no space above
# it and the sentence before it of full length: by line lengths alone it read as the next
# line of that sentence's paragraph, and the exceptions after it became part of the item
# above (Tata AIG's "GENERAL EXCEPTIONS" after the owner-driver's nominee note).
CAPS_HEADINGS = ["GENERAL EXCEPTIONS", "EXCLUSIONS", "WHAT IS NOT COVERED",
                 "GENERAL EXCLUSIONS (APPLICABLE TO ALL SECTIONS)"]


def caps_heading_pdf(path: Path, heading: str) -> Path:
    pdf = pymupdf.open()
    page = pdf.new_page()
    lines = [
        ("hebo", 10, "SECTION III - PERSONAL ACCIDENT COVER FOR OWNER-DRIVER"),
        ("helv", 10, "(c) the owner-driver holds an effective driving license in accordance with"),
        ("helv", 10, "the provisions of the rules at the time of the accident to the vehicle."),
        ("helv", 10, "Nominee details are mandatory for this cover and are given in the proposal."),
        ("hebo", 10, heading),
        ("helv", 10, "1. Any accidental loss or damage caused outside the geographical area."),
        ("helv", 10, "2. Any claim arising out of any contractual liability of the insured."),
    ]
    y = 80
    for font, size, text in lines:
        page.insert_text((72, y), text, fontname=font, fontsize=size)
        y += 13
    pdf.save(path)
    pdf.close()
    return path


@pytest.mark.parametrize("heading", CAPS_HEADINGS)
def test_a_bold_capitalised_heading_after_a_sentence_heads_what_follows(
        tmp_path: Path, heading: str) -> None:
    document = load_document(caps_heading_pdf(tmp_path / "policy.pdf", heading))
    clauses = segment(document)
    contractual = clause_with(clauses, "contractual liability")
    assert heading in headed_by(contractual), headed_by(contractual)
    nominee = clause_with(clauses, "Nominee details")
    assert heading not in nominee.text


SPECIFIED = """SECTION D EXCLUSIONS
{label}
{title}
a) Expenses related to the treatment of the listed conditions shall be excluded until the expiry of 24 months.
b) List of specific diseases:
(i) Cataract
(ii) Hernia of all types
"""


@pytest.mark.parametrize("label", ["2.", "2.2", "Clause 2"])
@pytest.mark.parametrize("title", [
    "Specified disease/procedure waiting period (Code- Excl02)",
    "Specified disease or procedure waiting period:",
])
def test_a_numbered_clause_is_named_by_its_title_line(label: str, title: str) -> None:
    """A title the letter-case rule misses ("Specified disease/procedure waiting period", in
    sentence case) names its numbered clause in its items' section paths with
    ``title_paths``, so their retrieval text says what they are items of."""
    document = text_document(SPECIFIED.format(label=label, title=title))
    hernia = clause_with(segment(document, SegmentConfig(title_paths=True)), "Hernia")
    assert any("Specified disease" in part for part in hernia.section_path), hernia.section_path
    # the list's own title names the item's list
    assert "List of specific diseases" in hernia.section_path[-1], hernia.section_path


@pytest.mark.parametrize("first_line", [
    "The Company shall pay the medical expenses incurred by the insured",
    "expenses related to the treatment of any illness within thirty days of",
])
def test_a_sentence_on_the_first_line_names_nothing(first_line: str) -> None:
    """A numbered clause whose first line is a sentence, or a sentence wrapping on, has no
    title line: its items' paths keep the bare number."""
    text = f"SECTION D EXCLUSIONS\n2.\n{first_line}\nperson in a hospital.\na) Cataract\nb) Hernia\n"
    hernia = clause_with(segment(text_document(text), SegmentConfig(title_paths=True)),
                         "Hernia")
    assert not any(first_line[:20] in part for part in hernia.section_path), \
        hernia.section_path
