"""A question for the members of a set is answered by the list that announces them.

"What documents are required to file a claim?" shares "file" and "claim" with the sentence
that says when a claim is filed ("... intimate / file / submit a Claim in accordance with
Clause 4.4"), and only "documents" and "claim" with the list's lead-in ("... shall submit the
following documents in support of the Claim:"). The lead-in that names the set asked for,
next to its announcing words, is the answer, read with its items. Written with three
announcing phrasings and three list styles; the documents differ per variant too.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

ANNOUNCING = [
    ("The insured person shall submit to the Company the following documents in support of "
     "the claim:"),
    "List of claim documents to be submitted by the insured person:",
    "The documents listed below shall be submitted by the insured person for every claim:",
]
MARKERS = [("(a)", "(b)", "(c)", "(d)"), ("i.", "ii.", "iii.", "iv."), ("1.", "2.", "3.", "4.")]
DOCUMENTS = [
    ("Duly completed claim form", "Original hospital bills and receipts",
     "Discharge summary", "Copy of photo identity proof"),
    ("Signed claim form", "Original pharmacy bills",
     "Doctor's prescription advising admission", "Bank account details"),
]
VARIANTS = [(announcing, markers, DOCUMENTS[(i + j) % 2])
            for i, announcing in enumerate(ANNOUNCING) for j, markers in enumerate(MARKERS)]


def policy(announcing: str, markers: tuple[str, ...], documents: tuple[str, ...]) -> str:
    items = "\n".join(f"{marker} {document}" for marker, document in zip(markers, documents,
                                                                          strict=True))
    return f"""GROUP HEALTH POLICY

4. Claims procedure

4.1 Notification of claim
The insured person shall:
a. Forthwith intimate / file / submit a claim in accordance with Clause 4.2 of this policy.
b. Take all reasonable steps to minimise the loss.

4.2 Claim documents
{announcing}
{items}

4.3 Settlement of claims
The Company shall settle the claim within thirty days of receipt of the last document.
"""


@pytest.fixture(scope="module")
def lists_graph(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("list-announcements"),
                         [policy(*variant) for variant in VARIANTS])


@pytest.mark.slow
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("question", ["What documents are required to file a claim?",
                                      "Which documents are needed to file a claim?"])
def test_the_announced_list_answers(lists_graph, variant, question):
    _, _, documents = VARIANTS[variant]
    answer = ask_variant(lists_graph, variant, question)
    text = direct_text(answer)
    assert answer.direct.found, answer.direct.right_probability
    assert "in accordance with Clause 4.2" not in text, text
    for document in documents:
        assert document in text, text
