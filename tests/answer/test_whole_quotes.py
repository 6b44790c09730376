"""A sentence read with the one before it is quoted whole, or read alone.

ICICI Lombard's motor wording: "How is the insured's declared value fixed?" quoted "... The
Insured's Declared Value (IDV) of the vehicle will be deemed to be the 'SUM INSURED' ... for
each insured vehicle. The IDV of the vehicle (and accessories if any fitted to the vehicle)"
and stopped there: the second sentence, which states the basis ("is to be fixed on the basis
of the manufacturer's listed selling price"), was read with the long one before it, and the
pair was cut at the quote's length limit before its answer. A pair the quote cannot show whole
is no candidate (``direct._quotable``); the second sentence answers alone. Written with three
ways of stating the basis and two lengths of the sentence before it.
"""

from __future__ import annotations

import pytest
from written_graph import ask_variant, direct_text, variant_graph

from clausegraph.answer.direct import MAX_SENTENCE_CHARS, _quotable
from clausegraph.answer.gate import using_gate

BASES = [(("is to be fixed on the basis of the manufacturer's listed selling price of the "
          "brand and model"), "listed selling price"),
         ("shall be determined by reference to the catalogue price of the make and model",
          "catalogue price"),
         ("will be calculated according to the dealer's published retail price for the model",
          "published retail price")]
BEFORE = [("The Insured's Declared Value (IDV) of the vehicle will be deemed to be the SUM "
          "INSURED for the purpose of this Policy, which is fixed at the commencement of each "
          "policy period for each insured vehicle and stated in the schedule of the policy "
          "issued to the insured."),
          "The Insured's Declared Value (IDV) of the vehicle is the sum insured."]
VARIANTS = [(basis, before) for basis in BASES for before in BEFORE]


def policy(basis: str, before: str) -> str:
    return f"""PRIVATE CAR PACKAGE POLICY

SECTION I. LOSS OF OR DAMAGE TO THE VEHICLE INSURED
1. The Company will indemnify the insured against loss or damage to the vehicle insured
hereunder and its accessories whilst thereon by fire, explosion, burglary or accident.
2. SUM INSURED - INSURED'S DECLARED VALUE
{before} The IDV of the vehicle (and accessories if any fitted to the vehicle)
{basis[0]}, adjusted for depreciation as per the schedule below.
3. The Company may at its own option repair, reinstate or replace the vehicle or pay in cash
the amount of the loss or damage.

SECTION II. LIABILITY TO THIRD PARTIES
1. The Company will indemnify the insured against all sums which the insured shall become
legally liable to pay in respect of death of or bodily injury to any person.
"""


@pytest.fixture(scope="module")
def policies(tmp_path_factory):
    return variant_graph(tmp_path_factory.mktemp("whole_quotes"),
                         [policy(basis, before) for basis, before in VARIANTS])


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_the_basis_asked_is_quoted_whole(policies, variant):
    (_, stated), _ = VARIANTS[variant]
    with using_gate(None):
        answer = ask_variant(policies, variant, "How is the insured's declared value fixed?")
    assert answer.found, [line.text for line in answer.direct.nearest]
    assert stated in direct_text(answer), direct_text(answer)


def test_quotable_measures_the_text_as_quoted():
    short = "A short sentence.  And another one."
    assert _quotable(short, (0, len(short)))
    long = "word " * MAX_SENTENCE_CHARS
    assert not _quotable(long, (0, len(long)))
    # folded whitespace counts once, as the quote shows it
    spaced = "a" + " " * 1000 + "b"
    assert _quotable(spaced, (0, len(spaced)))


def test_a_long_pair_still_ranks_its_clause(tmp_path):
    # the quote shows a pair whole or not at all; to rank the clause (the answer's order of
    # the retrieved clauses), the pair's words count however long it runs: reading them
    # apart lost ContractNLI answers (docs/policies_bench.md, session 37)
    from synthetic_index import file_clauses, read_texts

    from clausegraph.answer.direct import (
        DocumentTerms,
        _score_sentences,
        content_tokens,
        focus_scores,
    )

    long_first = ("The Receiving Party shall hold in strict confidence all Confidential "
                  "Information disclosed by the Disclosing Party under this Agreement, "
                  "whether in writing, orally, electronically or by inspection of premises, "
                  "and shall protect it with the same degree of care it uses for its own "
                  "information of like importance, and in no event less than reasonable care.")
    text = f"""MUTUAL NONDISCLOSURE AGREEMENT
1. Confidentiality. {long_first} Employees may receive it on a need-to-know basis.
2. Term. This Agreement remains in force for three years from the Effective Date.
"""
    reader = read_texts(tmp_path, {"nda.txt": text})
    clause = next(c for c in file_clauses(reader, "nda.txt") if "need-to-know" in c.text)
    assert not _quotable(clause.text, (clause.text.index("The Receiving"), len(clause.text)))
    question = "May the Receiving Party's employees receive Confidential Information on a " \
        "need-to-know basis?"
    weights = DocumentTerms(reader).weights(clause.doc_id, content_tokens(question))
    total = sum(weights.values())
    quoted = _score_sentences(clause, 0, weights, total, None, quoted=True)
    assert focus_scores(reader, question, [clause])[0] > max(s.words for s in quoted)
