"""Clause labels a reader recognises: the clause's own number in its container, never the
whole outline path its id needs to stay unique."""

from __future__ import annotations

import pytest

from clausegraph.models import Clause, Document, Page
from clausegraph.segment import segment


def _clause(clause_id: str) -> Clause:
    return Clause(clause_id=clause_id, doc_id="0" * 16, text="x", span=(0, 1),
                  segments=[(0, 1)], pages=[1], order=0)


def _segmented(text: str, key: str = "policy") -> list[Clause]:
    """The clauses of a text document ``key``.txt holding ``text``."""
    document = Document(doc_id="0" * 16, key=key, source_path=f"{key}.txt", title=key,
                        media_type="text", text=text,
                        pages=[Page(number=1, start=0, end=len(text))])
    return segment(document)


def test_label_is_the_own_number_with_its_named_containers() -> None:
    # ids seen on real policies (ICICI Golden Shield wording) and contracts
    assert _clause("icici:19/10/4/6(i)/2/Excl02(a)").label == "Excl02(a)"
    assert _clause("icici:4(b)(b)(d)/13(vi)").label == "13(vi)"
    assert _clause("icici:6~2(i)").label == "6(i)"
    assert _clause("k:Schedule B/3").label == "Schedule B/3"
    assert _clause("k:ARTICLE IV/Section 5").label == "ARTICLE IV/Section 5"
    assert _clause("k:7.1(b)").label == "7.1(b)"
    assert _clause("k:4.2#w1").label == "4.2#w1"
    assert _clause("k:preamble¶2").label == "preamble¶2"


def test_an_item_numbered_afresh_is_named_with_the_clause_its_list_is_in() -> None:
    # every waiting-period list of a policy has its "9.": the label says which one
    assert _clause("arogya:6.3(f)(i)/9").label == "6.3(f)(i)/9"
    assert _clause("arogya:6.3(f)(ii)/1").label == "6.3(f)(ii)/1"
    assert _clause("k:4(b)/iv").label == "4(b)/iv"
    assert _clause("k:Endorsement 11/4").label == "Endorsement 11/4"
    assert _clause("k:IMT 4/(a)").label == "IMT 4/(a)"


# A policy wording whose list restarts "6." (the last benefit of a program, then the
# exclusions' "i." list): the second "6" gets a unique id, but its items are numbered
# "6(i)", and their section path reads "6 ...", not "6 > 6 > 6".
POLICY = """5. Pharmacy cover
We shall cover medical expenses incurred on purchase of medicines up to the limit.
6. Nursing at Home
We shall cover the expenses incurred by You for a qualified nurse at Your residence.
6. Exclusions
We will not be liable to make any payment in respect of:
i. Standard exclusions for which standard wordings are specified by the regulator.
ii. Any expenses incurred on out-patient treatment which is not covered.
"""


def test_numbers_and_paths_of_a_repeated_number_leave_out_the_repeat_mark() -> None:
    clauses = _segmented(POLICY)
    ids = [c.clause_id for c in clauses]
    assert len(ids) == len(set(ids))
    item = next(c for c in clauses if "Standard exclusions" in c.text)
    assert "~" in item.clause_id  # unique: the second "6"
    assert item.number == "6(i)"
    assert item.label == "6(i)"
    assert all("~" not in part for part in item.section_path)
    assert item.section_path[-1].startswith("6 ")


CLAIMS = ("1. Cover\nWe pay for hospitalisation of the insured person in a hospital.\n"
          "2. Claims\nClaims must be notified within thirty days of discharge.\n"
          "{head}\nLIST OF CLAIM DOCUMENTS\n"
          "1. Claim form duly signed by the insured person.\n"
          "2. Discharge summary issued by the hospital.\n")


@pytest.mark.parametrize(("head", "container"), [
    ("ANNEXURE III", "ANNEXURE III"), ("ANNEXURE – III", "ANNEXURE III"),
    ("Annexure-III", "Annexure III"), ("Annexure - III", "Annexure III"),
    ("SCHEDULE — A", "SCHEDULE A"), ("Schedule-A", "Schedule A"),
    ("PART – B", "PART B"), ("PART-B", "PART B"), ("ARTICLE – 7", "ARTICLE 7"),
    # a numbered section too: "SECTION-5 GENERAL EXCLUSIONS" (a group mediclaim wording)
    ("SECTION-5", "SECTION 5"), ("Section – 5", "Section 5"), ("SECTION 5", "SECTION 5"),
    ("Clause-5", "Clause 5"), ("SECTION NO. 5", "SECTION 5"), ("Section No.5", "Section 5"),
])
def test_a_container_is_read_whether_a_space_or_a_dash_stands_before_its_number(
    head: str, container: str
) -> None:
    # Indian policy wordings write "Annexure-A", "ANNEXURE – I", "PART-B": the list after
    # them is the annexure's, not items of the claims clause before it
    text = CLAIMS.format(head=head)
    item = next(c for c in _segmented(text) if "Discharge summary" in c.text)
    assert item.clause_id == f"policy:{container}/2"
    assert item.section_path == [f"{container} LIST OF CLAIM DOCUMENTS"]


GRANTS = ("{first}\n(A) \"Products\" means the goods listed in the schedule to this agreement.\n"
          "(B) \"Territory\" means the United States of America.\n"
          "{second}\n(A) The Company grants the Distributor the right to sell the Products.\n"
          "(B) The Distributor shall not sell the Products outside the Territory.\n")


@pytest.mark.parametrize(("first", "second", "container"), [
    ("SECTION ONE. DEFINITIONS", "SECTION TWO. GRANT OF RIGHTS", "SECTION TWO"),
    ("Section One. Definitions", "Section Two. Grant of Rights", "Section Two"),
    ("ARTICLE ONE DEFINITIONS", "ARTICLE TWO GRANT OF RIGHTS", "ARTICLE TWO"),
    ("Article One - Definitions", "Article Two - Grant of Rights", "Article Two"),
    ("ARTICLE I DEFINITIONS", "ARTICLE II GRANT OF RIGHTS", "ARTICLE II"),
    ("Section 1. Definitions", "Section 2. Grant of Rights", "Section 2"),
])
def test_a_container_numbered_in_words_is_a_container_cited_as_written(
    first: str, second: str, container: str
) -> None:
    text = GRANTS.format(first=first, second=second)
    clauses = _segmented(text, "k")
    item = next(c for c in clauses if "outside the Territory" in c.text)
    assert item.clause_id.split(":", 1)[1].startswith(container)
    assert item.section_path[0].startswith(container)
    # the first section's items are not the second's: no repeated "(B)~2" ids
    assert not any("~" in c.clause_id for c in clauses)


def _lettered(sections: list[tuple[str, str, str]], contents: bool = False) -> list[Clause]:
    lines = ["General Insurance Conditions", ""]
    if contents:  # a contents table in columns: label, title, page
        for number, title, _ in sections:
            lines += [number, title, "4"]
    lines += ["Part A", "Underlying provisions of the contract"]
    for number, title, body in sections:
        lines += [number, title, body]
    return _segmented("\n".join(lines) + "\n", "gic")


SECTIONS = [
    ("A1", "Scope of the contract", "The policy specifies the type of insurance purchased."),
    ("A2", "Territorial scope", "The insurance applies to the countries listed below."),
    ("A2.1", "Scope of validity", "The insurance is valid for Europe and the Mediterranean."),
    ("A2.2", "Relocation abroad", "If the keeper moves abroad the cover lapses at year end."),
    ("A3", "Term of the contract", "The contract begins on the date shown in the policy."),
    ("A3.1", "Renewal", "The contract renews tacitly for one year unless terminated."),
]


@pytest.mark.parametrize("contents", [False, True])
def test_letter_prefixed_numbers_are_labels_where_the_document_numbers_so(contents):
    # AXA's conditions number "A1", "A2.1", ... each alone, the title on the next line;
    # a contents table in the same layout ("A2.1" / "Scope of validity" / "4") is not them
    clauses = _lettered(SECTIONS, contents)
    item = next(c for c in clauses if "valid for Europe" in c.text)
    assert item.clause_id == "gic:A2.1"
    assert item.section_path[-1].split()[0] == "A2"
    renewal = next(c for c in clauses if "renews tacitly" in c.text)
    assert renewal.clause_id == "gic:A3.1"
    assert not any("~" in c.clause_id for c in clauses)


MOTOR = ("PRIVATE CAR PACKAGE POLICY\n"
         "{word} I{sep}LOSS OF OR DAMAGE TO THE VEHICLE INSURED\n"
         "1. The Company will indemnify the insured against loss or damage to the vehicle.\n"
         "2. The Company shall not be liable for consequential loss or wear and tear.\n"
         "{word} II{sep}LIABILITY TO THIRD PARTIES\n"
         "1. The Company will indemnify the insured against liability at law for:\n"
         "(i) death of or bodily injury to any person.\n"
         "(ii) damage to property other than property belonging to the insured.\n"
         "2. The Company will pay all costs and expenses incurred with its written consent.\n"
         "{word} III{sep}PERSONAL ACCIDENT COVER FOR OWNER-DRIVER\n"
         "1. The Company undertakes to pay compensation as per the following scale.\n")


@pytest.mark.parametrize(("word", "sep"), [("SECTION", " - "), ("SECTION", " – "),
                                           ("Section", " "), ("SECTION", ". "),
                                           ("SECTION", "-"), ("Section", ": ")])
def test_sections_numbered_in_roman_numerals_are_containers(word, sep):
    # the Indian motor tariff wording's sections I to IV: "SECTION II – LIABILITY TO THIRD
    # PARTIES" was no section, so its items were items of the last clause of Section I
    clauses = _segmented(MOTOR.format(word=word, sep=sep), "motor")
    item = next(c for c in clauses if "damage to property other than" in c.text)
    assert item.clause_id == f"motor:{word} II/1(ii)"
    assert item.section_path[0].upper() == "SECTION II LIABILITY TO THIRD PARTIES"
    costs = next(c for c in clauses if "costs and expenses" in c.text)
    assert costs.clause_id == f"motor:{word} II/2"
    scale = next(c for c in clauses if "following scale" in c.text)
    assert scale.clause_id == f"motor:{word} III/1"


COVERS = [("1", "Inpatient Care", "We will indemnify the medical expenses of hospitalisation."),
          ("2", "Organ Donor Expenses", "We will indemnify the expenses of the organ donor."),
          ("3", "Day Care Treatment", "We will indemnify day care treatment taken in a hospital."),
          ("4", "Pre-hospitalization Medical expenses",
           "We will indemnify expenses incurred up to 30 days before admission.")]


@pytest.mark.parametrize(("section", "separator"), [
    ("SECTION B-OPTIONAL COVERS", "."), ("SECTION B - OPTIONAL COVERS", "."),
    ("SECTION B. OPTIONAL COVERS", ""), ("Section B Optional Covers", ""),
    ("SECTION B: OPTIONAL COVERS", "."), ("Section B: Optional Covers", ""),
])
def test_letter_prefixed_numbers_with_or_without_a_dot_open_their_sections(section, separator):
    # a group health wording numbers its optional covers "B.1 Maternity Expenses:" ... with
    # the title on the label's line; a list under one cover is that cover's, not the last's
    lines = ["Group Health Policy Wording", section,
             "These covers apply only if shown in the policy schedule."]
    for number, title, body in COVERS:
        lines += [f"B{separator}{number} {title}:", body,
                  "i. We have accepted a claim under the inpatient care cover.",
                  "ii. The expenses are claimed on a reimbursement basis only."]
    clauses = _segmented("\n".join(lines) + "\n", "gh")
    item = next(c for c in clauses if "30 days before admission" in c.text)
    assert item.number == f"B{separator}4"
    assert item.section_path[0].upper() == "SECTION B OPTIONAL COVERS"
    assert item.heading == "Pre-hospitalization Medical expenses"
    reimbursed = [c for c in clauses if "reimbursement basis" in c.text]
    assert [c.number for c in reimbursed] == [
        f"B{separator}{number}(ii)" for number, _, _ in COVERS]


def test_letter_prefixed_numbers_that_do_not_count_from_one_are_not_labels():
    # ICD codes in a list of diseases ("I10", "I11", "I12.0") and a lone "A4" are words
    codes = [("I10", "Essential hypertension", "Listed under chronic conditions."),
             ("I11", "Hypertensive heart disease", "Listed under chronic conditions."),
             ("I12.0", "Hypertensive renal disease", "Listed under chronic conditions.")]
    clauses = _lettered(codes)
    assert not any(c.clause_id.split(":", 1)[1].startswith("I1") for c in clauses)


@pytest.mark.parametrize(("title", "body", "heading"), [
    ("Scope of validity", "The insurance is valid for Europe.", "Scope of validity"),
    ("Termination in the event of a claim", "Either party may end the contract.",
     "Termination in the event of a claim"),
    ("Free look period", "“Free look” means fifteen days to review the policy.",
     "Free look period"),
    # a sentence, not a title: it has a verb, or it runs on into the next line
    ("The Company shall pay", "the sum insured within thirty days.", None),
    ("Either party may end", "the contract by written notice.", None),
    ("Claims are settled in", "Swiss francs at the rate of the day.", None),
])
def test_a_short_sentence_case_phrase_under_a_lone_number_is_its_title(
    title: str, body: str, heading: str | None
) -> None:
    # "1.2" / "Scope of validity" / text: the numbering gives the phrase the place of a
    # title in any letter case (AXA's "A2.1" / "Scope of validity", HDFC ERGO's "12" /
    # "Free look period")
    text = (f"1 GENERAL\n1.1\nDefinitions\nWords have the meaning given below.\n"
            f"1.2\n{title}\n{body}\n")
    clause = next(c for c in _segmented(text, "t") if c.number == "1.2")
    assert clause.heading == heading


def _chaptered(chapters: list[tuple[str, str]], numbered: bool = True, mark: str = ".") -> str:
    """A policy divided into roman-numbered chapters, each with decimal sections "N.1",
    "N.2" (or, with ``numbered`` off, plain paragraphs), then a last chapter of text."""
    lines = ["Privacy Policy", "1. This Policy describes how we handle your information.",
             "2. It applies to every service we offer."]
    for value, (numeral, title) in enumerate(chapters, start=1):
        lines.append(f"{numeral}{mark} {title}")
        for sub in (1, 2):
            label = f"{value}.{sub} " if numbered else ""
            lines.append(f"{label}Rule {sub} of {title.lower()} applies to every user.")
    last = ("I", "II", "III", "IV", "V", "VI")[len(chapters)]
    lines += [f"{last}{mark} Contact Us", "Write to the privacy officer at the address below."]
    return "\n".join(lines) + "\n"


CHAPTERS = [("I", "Information We Collect"), ("II", "Protection of Information"),
            ("III", "Use of Information"), ("IV", "Sharing of Information")]


@pytest.mark.parametrize(("case", "mark"), [("title", "."), ("caps", "."), ("title", ")")])
def test_roman_chapters_hold_the_decimal_sections_numbered_after_them(case, mark):
    # a privacy policy numbered "II. Protection ..." / "2.1 ..." / "2.2 ...": every section
    # sits in its chapter, and a chapter after a section is no part of that section
    chapters = [(n, t.upper() if case == "caps" else t) for n, t in CHAPTERS]
    clauses = _segmented(_chaptered(chapters, mark=mark))
    rule = next(c for c in clauses if c.text.startswith("2.2 "))
    assert rule.clause_id == "policy:2.2"
    assert rule.section_path[0].split()[0] == "II"
    assert rule.section_path[0].casefold() == "ii protection of information"
    sharing = next(c for c in clauses if "4.1 Rule 1" in c.text)
    assert sharing.clause_id == "policy:4.1"
    assert sharing.section_path[0].split()[0] == "IV"
    contact = next(c for c in clauses if "privacy officer" in c.text)
    assert contact.section_path == [] and contact.clause_id == "policy:V"


def test_roman_items_without_sections_numbered_after_them_are_no_chapters():
    # the same headings over plain paragraphs: nothing shows they divide the numbering, so
    # they are read as before (a list), never as containers
    clauses = _segmented(_chaptered(CHAPTERS, numbered=False))
    assert not any(c.clause_id == "policy:V" for c in clauses)


def test_two_roman_chapters_are_too_few_to_read_the_numbering_so():
    text = _chaptered(CHAPTERS[:2])
    rule = next(c for c in _segmented(text) if c.text.startswith("2.2 "))
    assert not (rule.section_path and rule.section_path[0].startswith("II "))


@pytest.mark.parametrize("dot", [".", ":"])
def test_a_colon_section_that_does_not_continue_the_lettering_is_a_part_of_the_open_one(dot):
    # Aditya Birla's Activ Health: "Section C. BENEFITS ..." holds "Section I: Basic Covers"
    # ... "Section V: Optional Covers" whose covers (1) ... (37) run on across them; the
    # lettering goes on with "Section D." ... "Section F: Other Terms and conditions"
    text = "\n".join([
        "Health Policy Wording",
        "Section C. BENEFITS COVERED UNDER THE POLICY",
        "Section I: Basic Covers",
        "(1) In-patient Hospitalization",
        "We will cover the medical expenses of hospitalisation.",
        "(2) Pre-hospitalization Medical Expenses",
        "We will cover the medical expenses incurred before admission.",
        "Section II: Additional Benefits",
        "(3) Health Check-up",
        "We will pay for one health check-up in a policy year.",
        f"Section D{dot} EXCLUSIONS",
        "1. Any treatment outside India.",
        "2. Cosmetic surgery.",
        f"Section E{dot} GENERAL TERMS",
        "1. The policy may be renewed on payment of premium.",
        "Section F: Other Terms and conditions",
        "1. Claims Administration",
        "The fulfilment of the terms of this policy is a condition of any claim.",
    ]) + "\n"
    clauses = _segmented(text, "activ")
    check_up = next(c for c in clauses if "health check-up in a policy year" in c.text)
    assert check_up.clause_id.startswith("activ:Section C/"), check_up.clause_id
    claims = next(c for c in clauses if "condition of any claim" in c.text)
    assert claims.clause_id.startswith("activ:Section F/"), claims.clause_id


# A number whose dot a PDF's text runs into the title (Oriental's "2.FOLLOWING REASONABLE
# ...", Kallo's "1.DEFINITIONS", SBI's "13.Dental Treatment means ...") is a label all the
# same; written in other cases and numbering depths.
@pytest.mark.parametrize(("first", "second"), [
    ("1.DEFINITIONS", "2.EXCLUSIONS"),
    ("1.Definitions", "2.Exclusions"),
    ("4.1.Definitions", "4.2.Exclusions"),
])
def test_a_number_whose_dot_runs_into_its_title_is_a_label(first, second):
    text = (f"{first}\nAccident means a sudden, unforeseen and involuntary event.\n"
            f"{second}\nWe will not pay for any claim arising from war or nuclear risks.\n")
    labels = {c.number: c for c in _segmented(text)}
    one = first[:first.rindex(".")]
    two = second[:second.rindex(".")]
    assert one in labels and two in labels, sorted(labels)
    assert "Accident means" in labels[one].text
    assert "war or nuclear" in labels[two].text and "Accident" not in labels[two].text


@pytest.mark.parametrize("line", ["1.5m of cable is supplied with each unit.",
                                  "2.Ex works delivery is the default term."])
def test_a_decimal_or_a_short_word_after_a_dot_is_no_label(line):
    text = f"1. Supply\nThe supplier delivers the goods.\n{line}\n2. Price\nThe price is fixed.\n"
    clauses = _segmented(text)
    assert [c.number for c in clauses if c.number] == ["1", "2"]
    assert line in next(c for c in clauses if c.number == "1").text


# A capitalised heading whose colon a PDF's text runs into the body ("7.3 RENEWAL OF
# POLICY:The policy shall ...") is the clause's heading; a title-cased title's colon joins
# its two parts ("Standard Exclusions:Pre-Existing Diseases").
@pytest.mark.parametrize(("line", "heading"), [
    ("7.3 RENEWAL OF POLICY:The policy shall ordinarily be renewable.", "RENEWAL OF POLICY"),
    ("7.3 RENEWAL OFPOLICY:The policy shall ordinarily be renewable.", "RENEWAL OFPOLICY"),
    ("7.3 RENEWAL OF POLICY: The policy shall ordinarily be renewable.", "RENEWAL OF POLICY"),
    ("7.3 CANCELLATION:Either party may cancel on 30 days notice.", "CANCELLATION"),
])
def test_a_capitalised_heading_run_into_its_body_by_a_colon_is_the_heading(line, heading):
    text = f"7.2 NOTICE\nAll notices shall be in writing.\n{line}\n"
    clause = next(c for c in _segmented(text) if c.number == "7.3")
    assert clause.heading == heading


def test_a_title_cased_colon_joins_a_title_s_parts():
    text = ("1. Exclusions\nWe will not pay for the following.\n"
            "2. Standard Exclusions:Pre-Existing Diseases\na) Expenses of a pre-existing disease.\n"
            "b) Expenses of its complications.\n")
    item = next(c for c in _segmented(text) if c.number == "2(b)")
    assert item.section_path[-1] == "2 Standard Exclusions:Pre-Existing Diseases"
