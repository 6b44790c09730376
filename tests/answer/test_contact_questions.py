"""How to reach someone: a telephone number, an e-mail address or a website is the answer.

A privacy policy ends its feedback clause with "please contact us (For website: ...; For
email: ...; For phone: ...)". Asked "How can I contact Xunlei about privacy?", the answer
quoted the clause cut after the website (the sentence was split at the "; " inside the
parenthesis, and a long sentence was cut to its first 320 characters: no question kind asked
for a way to reach someone). A question that asks how to contact someone, for a helpline, a
telephone number, an e-mail address or a website is now of its own kind; a sentence holding
an e-mail address, a web address or a telephone number holds its value; a "; " inside an
open parenthesis ends no sentence; and a long sentence is cut to the stretch that holds most
of its values. The clause is written with three telephone styles, two orders and two
headings, and asked three ways; a document with no number says "not found" for one.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import _VALUE_PATTERNS, question_kind

PHONES = ["400-1111-000", "+44 20 7946 0958", "(022) 2494 1234"]
ORDERS = ["website", "phone"]
HEADINGS = ["8. USERS FEEDBACK AND COMPLAINTS", "8. Users' feedback & complaints"]
VARIANTS = [(p, o, h) for p in PHONES for o in ORDERS for h in HEADINGS]
EMAIL = "privacy@example-media.com"
SITE = "https://help.example-media.com/"


def wording(phone: str, order: str, heading: str) -> str:
    ways = [f"For website: {SITE}", f"For email: {EMAIL}", f"For phone: {phone}"]
    if order == "phone":
        ways.reverse()
    return f"""1. INTRODUCTION
This Policy describes how Example Media collects, protects and uses the personal information of its users.
2. INFORMATION WE COLLECT
We collect the information you give us when you register, such as your name, mobile number and e-mail address, and the information your device sends when you use our services.
{heading}
In case you have complaints and reports about network information security, or you have any question, comment or suggestion about this Policy, your information, the statement and the privacy measures of Example Media, please contact us ({'; '.join(ways)}). We will reply within 15 working days upon receipt of your feedback.
9. CHANGES TO THIS POLICY
We may revise this Policy from time to time and will publish the revised Policy on our website.
"""


@pytest.fixture(scope="module")
def wordings(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("contact"),
                         [wording(*variant) for variant in VARIANTS])


@pytest.mark.parametrize("question", [
    "How can I contact Example Media about privacy?",
    "What is the phone number for privacy complaints?",
    "Who do I contact about my personal information?",
])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_every_way_to_reach_them_is_quoted(wordings, variant, question):
    phone = VARIANTS[variant][0]
    answer = ask_variant(wordings, variant, question)
    assert answer.found, [line.text for line in answer.direct.nearest]
    quote = direct_text(answer)
    assert phone in quote and EMAIL in quote and SITE in quote, quote


@pytest.mark.parametrize("question, kind", [
    ("How can I contact the insurer about a claim?", "contact"),
    ("Who do I contact about continuing coverage after it ends?", "contact"),
    ("What is the helpline number of the TPA?", "contact"),
    ("What is the toll-free number?", "contact"),
    ("Can a claim be notified by phone?", "contact"),
    ("Is a phone covered under the gadget cover?", "coverage"),
    ("Are contact lenses covered?", "coverage"),
    ("Within how many days must the insurer be contacted?", "duration"),
])
def test_a_question_asking_how_to_reach_someone(question, kind):
    assert question_kind(question) == kind


@pytest.mark.parametrize("text, found", [
    ("write to grievance@insurer.co.in", ["grievance@insurer.co.in"]),
    ("visit www.insurer.com/claims or call 1800-209-5858", ["www.insurer.com/claims",
                                                            "1800-209-5858"]),
    ("call +91 22 6234 6234 (toll free)", ["+91 22 6234 6234"]),
    # dates, amounts, counts and codes are no telephone numbers
    ("from 01-04-2020 to 2021-03-31", []),
    ("Rs. 5,000 per day for 30 days, up to 1,00,000", []),
    ("persons aged between 18 and 65 years", []),
    ("UIN IRDAN108RP0002V01200001", []),
])
def test_contact_values(text, found):
    assert [m.group() for m in _VALUE_PATTERNS["contact"].finditer(text)] == found
