"""The same small documents written in other styles give the same direct answer.

A rule fitted to one document's wording ("thirty (30) days" but not "30 (thirty) days", "$5,000"
but not "£500") fails here: each snippet below (a services agreement and a health policy,
written for these tests) is generated with other number styles, currencies, date styles,
heading case, list markers and numbering schemes, ingested as .txt through the Python API, and asked the
same questions. Every variant must answer from the same sentence and state the value as
that variant writes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest
from written_graph import written_graph

from clausegraph.text.values import extract_values

_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
         "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def words(n: int) -> str:
    """0-99 in words (the tests' own spelling, independent of the extractor)."""
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")


NUMBER_STYLES: dict[str, Callable[[int], str]] = {
    "words (digits)": lambda n: f"{words(n)} ({n})",
    "digits (words)": lambda n: f"{n} ({words(n)})",
    "digits": str,
    "words": words,
}
CURRENCIES = {"$": ("${:,}", "USD"), "£": ("£{:,}", "GBP"), "₹ ": ("₹ {:,}", "INR"),
              "INR ": ("INR {:,}", "INR"), "USD ": ("USD {:,}", "USD")}
DATE_STYLES = {"March 1, 2024": "March 1, 2024", "1 March 2024": "1 March 2024",
               "1st day of March, 2024": "the 1st day of March, 2024",
               "2024-03-01": "2024-03-01", "03/01/2024": "03/01/2024"}
HEADING_CASES: dict[str, Callable[[str], str]] = {
    "upper": str.upper, "title": lambda h: h, "lower": str.lower}
_ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
LIST_MARKERS: dict[str, Callable[[int], str]] = {
    "(a)": lambda i: f"({'abcdefgh'[i]})",
    "a.": lambda i: f"{'abcdefgh'[i]}.",
    "i.": lambda i: f"{_ROMAN[i + 1].lower()}.",
    "•": lambda i: "•",
    "-": lambda i: "-",
}


@dataclass(frozen=True)
class Style:
    number: str = "words (digits)"
    currency: str = "$"
    date: str = "March 1, 2024"
    heading: str = "title"
    marker: str = "(a)"
    numbering: str = "1.1"

    def num(self, n: int) -> str:
        return NUMBER_STYLES[self.number](n)

    def money(self, amount: int) -> str:
        return CURRENCIES[self.currency][0].format(amount)

    @property
    def start_date(self) -> str:
        return DATE_STYLES[self.date]

    @property
    def currency_code(self) -> str:
        return CURRENCIES[self.currency][1]


def variants() -> list[Style]:
    """The base style, then each dimension varied alone."""
    base = Style()
    found = [base]
    for field, options in (("number", NUMBER_STYLES), ("currency", CURRENCIES),
                           ("date", DATE_STYLES), ("heading", HEADING_CASES), ("marker", LIST_MARKERS),
                           ("numbering", ("1.1", "Section 1.1", "Article I"))):
        found += [replace(base, **{field: option}) for option in options
                  if option != getattr(base, field)]
    return found


def render(title: str, preamble: str, sections: list[tuple[str, list[str | list[str]]]],
           style: Style) -> str:
    """A document: numbered sections of numbered clauses; a clause given as a list is a
    lead-in sentence followed by its items, one per line."""
    lines = [title.upper(), "", preamble, ""]
    for s, (heading, clauses) in enumerate(sections, start=1):
        heading = HEADING_CASES[style.heading](heading)
        if style.numbering == "1.1":
            lines.append(f"{s}. {heading}")
        elif style.numbering == "Section 1.1":
            lines.append(f"Section {s}. {heading}")
        else:
            lines += [f"ARTICLE {_ROMAN[s]}", heading]
        for c, clause in enumerate(clauses, start=1):
            number = {"1.1": f"{s}.{c}", "Section 1.1": f"Section {s}.{c}",
                      "Article I": f"Section {s}.{c:02d}"}[style.numbering]
            lead, items = (clause[0], clause[1:]) if isinstance(clause, list) else (clause, [])
            lines.append(f"{number} {lead}")
            lines += [f"{LIST_MARKERS[style.marker](i)} {item}" for i, item in enumerate(items)]
        lines.append("")
    return "\n".join(lines)


def services_agreement(style: Style) -> str:
    n, money = style.num, style.money
    return render("Master Services Agreement", (
        'This Master Services Agreement (the "Agreement") is entered into by and between '
        'Acme Analytics Ltd. ("Provider") and Northwind Traders Inc. ("Customer").'), [
        ("Services", [
            'Provider shall provide the data analytics services described in Schedule A '
            '(the "Services") in a professional and workmanlike manner.',
            "Customer shall give Provider access to the systems and data reasonably "
            "required to perform the Services."]),
        ("Fees and Payment", [
            f"Customer shall pay Provider a monthly service fee of {money(500)} for the Services.",
            f"Invoices are payable within {n(45)} days of receipt. Late payments bear interest "
            f"at {n(2)} percent per month.",
            f"Provider may increase its fees no more than once in any {n(12)} month period."]),
        ("Term and Termination", [
            f"This Agreement commences on {style.start_date} and continues for an initial term "
            f"of {n(2)} years.",
            f"Either party may terminate this Agreement for convenience upon {n(30)} days prior "
            f"written notice to the other party.",
            ["Either party may terminate this Agreement immediately by written notice if the "
             "other party:", "becomes insolvent or bankrupt;",
             "makes an assignment for the benefit of its creditors; or",
             "ceases to carry on business in the ordinary course."]]),
        ("Notices", [
            "All notices under this Agreement shall be in writing and delivered by hand, by "
            "courier or by registered mail to the address of the other party.",
            f"A notice sent by registered mail is deemed received {n(5)} days after posting."]),
        ("Limitation of Liability", [
            f"The total liability of Provider under this Agreement shall not exceed "
            f"{money(5000)}."]),
        ("Governing Law", [
            "This Agreement is governed by the laws of the State of New York."]),
    ], style)


def health_policy(style: Style) -> str:
    n, money = style.num, style.money
    return render("Health Insurance Policy Wording", (
        f"This Policy is a contract between You and Us, issued on {style.start_date}. We will "
        "cover the medical expenses described below, subject to the terms, conditions and "
        "exclusions of this Policy."), [
        ("Definitions", [
            f'"Hospital" means any institution established for in-patient care which has at '
            f"least {n(10)} in-patient beds.",
            '"Sum Insured" means the amount stated in the Schedule as the maximum We will pay '
            "in a policy year."]),
        ("Eligibility", [
            "This Policy may be taken by persons aged 18 years and above.",
            f"The maximum entry age under this Policy is {n(65)} years."]),
        ("Benefits", [
            "We will cover room rent up to one percent of the Sum Insured per day of "
            "hospitalisation.",
            f"We will cover road ambulance charges up to {money(2000)} per hospitalisation."]),
        ("Waiting Periods", [
            [f"Expenses for the treatment of the following conditions are excluded until the "
             f"expiry of {n(24)} months of continuous coverage:", "cataract;",
             "hernia and hydrocele;", "gall bladder stones;", "joint replacement surgery."],
            f"Expenses related to a pre-existing disease are excluded until the expiry of "
            f"{n(36)} months of continuous coverage."]),
        ("Free Look Period", [
            f"You may cancel this Policy within {n(15)} days of receiving the policy document "
            f"if You do not agree with its terms, and We will refund the premium paid."]),
        ("Claims", [
            f"We shall settle a claim within {n(30)} days of receiving the last necessary "
            f"document."]),
    ], style)


@dataclass(frozen=True)
class Expected:
    question: str
    phrase: str  # words of the sentence that answers, the same in every variant
    kind: str
    amount: float | None
    unit: str | None
    written: Callable[[Style], str]  # the value as the variant writes it
    iso: str | None = None  # a date's


SERVICES = [
    Expected("How much notice must a party give to terminate the agreement for convenience?",
             "terminate this Agreement for convenience", "duration", 30, "day",
             lambda s: f"{s.num(30)} days"),
    Expected("What is the monthly service fee?", "monthly service fee", "money", 500, None,
             lambda s: s.money(500)),
    Expected("What is the cap on the provider's liability?", "shall not exceed", "money", 5000,
             None, lambda s: s.money(5000)),
    Expected("How long is the initial term of the agreement?", "initial term", "duration", 2,
             "year", lambda s: f"{s.num(2)} years"),
    Expected("When does the agreement commence?", "This Agreement commences on", "date", None,
             None, lambda s: s.start_date, iso="2024-03-01"),
    Expected("What interest rate applies to late payments?", "late payments bear interest",
             "percent", 2, None, lambda s: f"{s.num(2)} percent"),
    Expected("What is the notice period for termination for convenience?",
             "terminate this Agreement for convenience", "duration", 30, "day",
             lambda s: f"{s.num(30)} days"),
]
POLICY = [
    Expected("What is the waiting period for cataract?", "excluded until the expiry",
             "duration", 24, "month", lambda s: f"{s.num(24)} months"),
    Expected("What is the limit on road ambulance charges?", "ambulance charges", "money", 2000,
             None, lambda s: s.money(2000)),
    Expected("What is the maximum entry age?", "maximum entry age", "duration", 65, "year",
             lambda s: f"{s.num(65)} years"),
    Expected("How many days is the free look period to cancel the policy?", "cancel this Policy",
             "duration", 15, "day", lambda s: f"{s.num(15)} days"),
]
VARIANTS = variants()


def _variant_id(style: Style) -> str:
    base = Style()
    changed = [f"{f}={getattr(style, f)!r}" for f in ("number", "currency", "date", "heading",
                                                     "marker", "numbering")
               if getattr(style, f) != getattr(base, f)]
    return ",".join(changed) or "base"


@pytest.fixture(scope="module")
def variant_graphs(tmp_path_factory):
    """One index per snippet holding every variant of it (one .txt file each)."""
    return {name: written_graph(tmp_path_factory.mktemp(f"{name}-variants"), {
                f"{name}-{i:02d}.txt": build(style) for i, style in enumerate(VARIANTS)})
            for name, build in (("services", services_agreement), ("policy", health_policy))}


def _check(graph, name: str, index: int, style: Style, expected: Expected) -> None:
    answer = graph.ask(expected.question, documents=[f"{name}-{index:02d}.txt"])
    text = answer.direct_answer or ""
    assert answer.found, f"not found; nearest: {[n.text for n in answer.direct.nearest]}"
    assert expected.phrase.lower() in " ".join(text.split()).lower(), text
    written = expected.written(style)
    assert written.lower() in text.lower(), f"{written!r} not in {text!r}"
    # an age is a number of years: "the maximum entry age is 65 years" states either
    kinds = {"duration", "age"} if expected.kind in ("duration", "age") else {expected.kind}
    stated = [v for v in extract_values(text) if v.kind in kinds and v.amount == expected.amount
              and v.iso == expected.iso]
    unit = style.currency_code if expected.kind == "money" else expected.unit
    assert any(v.unit == unit for v in stated), (text, stated)


@pytest.mark.slow
@pytest.mark.parametrize("style", VARIANTS, ids=_variant_id)
@pytest.mark.parametrize("expected", SERVICES, ids=lambda e: e.question[:40])
def test_services_agreement_variants(variant_graphs, style, expected):
    _check(variant_graphs["services"], "services", VARIANTS.index(style), style, expected)


@pytest.mark.slow
@pytest.mark.parametrize("style", VARIANTS, ids=_variant_id)
@pytest.mark.parametrize("expected", POLICY, ids=lambda e: e.question[:40])
def test_health_policy_variants(variant_graphs, style, expected):
    _check(variant_graphs["policy"], "policy", VARIANTS.index(style), style, expected)


def test_variants_differ_only_in_style():
    """The generator itself: each variant writes the values its own way."""
    texts = {_variant_id(s): services_agreement(s) for s in VARIANTS}
    assert len(set(texts.values())) == len(VARIANTS)
    # each variant is its own file (identical bytes would be one indexed document)
    assert len({health_policy(s) for s in VARIANTS}) == len(VARIANTS)
    assert "30 (thirty) days" in texts["number='digits (words)'"]
    assert "£500" in texts["currency='£'"]
    assert "the 1st day of March, 2024" in texts["date='1st day of March, 2024'"]
    assert "ARTICLE III" in texts["numbering='Article I'"]
    assert "• becomes insolvent" in texts["marker='•'"]
