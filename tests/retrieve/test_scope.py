"""Document scoping: a query that names one indexed document is searched inside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from synthetic_index import read_texts

from clausegraph.retrieve.scope import DocumentScoper

CONTRACTS = {
    "Acme_Widget_Supply_Agreement.txt": (
        "SUPPLY AGREEMENT\nThis Supply Agreement is made between Acme Widgets Inc. and "
        "Borealis Retail LLC.\n1. Supply. Acme shall deliver widgets monthly.\n"
        "2. Termination. Either party may terminate on sixty days notice.\n"
    ),
    "Fiverr_Privacy_Policy.txt": (
        "FIVERR PRIVACY POLICY\nThis policy explains how Fiverr collects personal data.\n"
        "1. Collection. We collect the data you provide when you register.\n"
        "2. Sharing. We share data with service providers.\n"
    ),
    "Northwind_Lease.txt": (
        "OFFICE LEASE\nThis lease is between Northwind Properties and Contoso Ltd.\n"
        "1. Rent. The tenant pays rent monthly.\n2. Termination. The lease ends after five years.\n"
    ),
}


@pytest.fixture(scope="module")
def scoping(tmp_path_factory: pytest.TempPathFactory):
    reader = read_texts(tmp_path_factory.mktemp("scope"), CONTRACTS)
    return DocumentScoper(reader), reader


def _named_file(scoping, query: str) -> tuple[str | None, str | None]:
    """The file name of the document ``query`` names, and the question left to search."""
    scoper, reader = scoping
    scope = scoper.scope(query)
    if scope is None:
        return None, None
    return Path(reader.clauses.document(scope.doc_ids[0]).source_path).name, scope.question


def test_a_leading_reference_scopes_the_rest_of_the_query(scoping) -> None:
    named, question = _named_file(scoping, "Consider the Fiverr privacy policy; who receives my data?")
    assert named == "Fiverr_Privacy_Policy.txt"
    assert question == "who receives my data?"


def test_a_party_name_scopes_a_contract(scoping) -> None:
    named, _ = _named_file(scoping, "Consider the agreement between Acme and Borealis; "
                                    "can it be terminated?")
    assert named == "Acme_Widget_Supply_Agreement.txt"


def test_a_generic_question_names_no_document(scoping) -> None:
    assert _named_file(scoping, "Can it be terminated on sixty days notice?") == (None, None)


@pytest.mark.parametrize(("query", "named", "question"), [
    ("Can the Northwind lease be terminated early?", "Northwind_Lease.txt",
     "Can the lease be terminated early?"),
    ("How often does Acme deliver widgets?", "Acme_Widget_Supply_Agreement.txt",
     "How often does deliver widgets?"),
    # the run's tail names it (its offsets were read from the wrong place before session 32)
    ("When does the lease with Acme Northwind Properties end?", "Northwind_Lease.txt",
     "When does the lease with Acme end?"),
])
def test_a_name_inside_the_question_scopes_it_and_leaves_it(scoping, query, named,
                                                            question) -> None:
    """A document named by one word inside the question ("the Northwind lease") is searched
    with the rest of the question: the name would only match its opening."""
    assert _named_file(scoping, query) == (named, question)


def _naming(scoping, file_name: str):
    from clausegraph.retrieve.scope import document_naming

    _, reader = scoping
    doc_id = next(d for d in reader.clauses.document_ids()
                  if Path(reader.clauses.document(d).source_path).name == file_name)
    return document_naming(reader.clauses.document(doc_id))


@pytest.mark.parametrize(("query", "question"), [
    # LegalBench-RAG's style: the contract, its parties' defined names, then the question
    (('Consider the SUPPLY AGREEMENT between Acme Widgets Inc. ("Acme"); Borealis Retail LLC '
      '("Buyer"); What is the notice period for termination?'),
     "What is the notice period for termination?"),
    (("Consider the Supply Agreement between ACME WIDGETS INC. and BOREALIS RETAIL LLC; "
      "can either party terminate?"), "can either party terminate?"),
    ("In the supply agreement made by Acme Widgets Inc.\n\nHow often are widgets delivered?",
     "How often are widgets delivered?"),
])
def test_a_chosen_documents_naming_leaves_the_question(scoping, query, question) -> None:
    """Asked with ``--doc``, the leading parts that name the chosen contract are no part of
    the question: their words would only match its preamble."""
    from clausegraph.retrieve.scope import without_document_name

    naming = _naming(scoping, "Acme_Widget_Supply_Agreement.txt")
    assert without_document_name(query, [naming]) == question


@pytest.mark.parametrize("query", [
    "Consider \"Fiverr\"'s privacy policy; who receives my data?",
    "Consider “FIVERR”’s privacy policy; who receives my data?",
])
def test_a_quoted_name_of_one_word_names_the_chosen_document(scoping, query) -> None:
    from clausegraph.retrieve.scope import without_document_name

    naming = _naming(scoping, "Fiverr_Privacy_Policy.txt")
    assert without_document_name(query, [naming]) == "who receives my data?"


@pytest.mark.parametrize("query", [
    # a leading part that names another document, or none, is part of the question
    "Consider the Northwind lease; who receives my data?",
    "Under clause 2; who receives my data?",
    "Data shared with service providers; who receives it?",
])
def test_a_leading_part_naming_no_chosen_document_stays(scoping, query) -> None:
    from clausegraph.retrieve.scope import without_document_name

    naming = _naming(scoping, "Fiverr_Privacy_Policy.txt")
    assert without_document_name(query, [naming]) == query


@pytest.mark.parametrize(("query", "question"), [
    # one capitalised word of a leading part, possessive or not, names the chosen document
    ("Consider Acme's Supply Agreement; how often are widgets delivered?",
     "how often are widgets delivered?"),
    ("Consider the agreement with Borealis; how often are widgets delivered?",
     "how often are widgets delivered?"),
    # inside the sentence only its name (file name, title) is taken out
    ("What notice ends the Acme Widget Supply Agreement?", "What notice ends?"),
    ("What notice ends the agreement under the Supply Agreement?",
     "What notice ends the agreement?"),
    # a party or defined term its opening names is part of what is asked
    ("When may Borealis Retail LLC terminate the agreement?",
     "When may Borealis Retail LLC terminate the agreement?"),
])
def test_what_names_a_chosen_contract_and_what_is_asked(scoping, query, question) -> None:
    from clausegraph.retrieve.scope import without_document_name

    naming = _naming(scoping, "Acme_Widget_Supply_Agreement.txt")
    assert without_document_name(query, [naming]) == question


def _policy_naming():
    from clausegraph.retrieve.scope import DocumentNaming

    # as document_naming reads "HDFHLIP23024V072223.pdf" titled "EASY HEALTH", issued by
    # "HDFC ERGO General Insurance Company Limited" (www.hdfcergo.com)
    name = "hdfhlip23024v072223 easy health"
    return DocumentNaming(name, name + " hdfc ergo general insurance company limited "
                          "www.hdfcergo.com easy health preamble")


@pytest.mark.parametrize(("query", "question"), [
    ("What is the waiting period for cataract under the HDFC ERGO Easy Health policy?",
     "What is the waiting period for cataract?"),
    ("What is the waiting period for cataract under the Easy Health Policy?",
     "What is the waiting period for cataract?"),
    ("Under the HDFC ERGO Easy Health policy wordings, what is the grace period?",
     "what is the grace period?"),
    ("What is the grace period in HDFCERGO Easy Health 2023 policy terms?",
     "What is the grace period?"),
    ("Does the Easy Health Policy cover AYUSH treatment?", "Does cover AYUSH treatment?"),
    # no word for a document after the phrase: a term of the policy, not its name
    ("Is the Easy Health benefit paid once a year?",
     "Is the Easy Health benefit paid once a year?"),
    # a phrase the policy is not called by stays
    ("What is the grace period under the Bajaj Allianz Health Guard policy?",
     "What is the grace period under the Bajaj Allianz Health Guard policy?"),
])
def test_a_policy_named_inside_the_question_is_left_out(query, question) -> None:
    """Issuer and product, with the word for a document after them or ending them, in
    several styles: the name only matches the policy's first page."""
    from clausegraph.retrieve.scope import without_document_name

    assert without_document_name(query, [_policy_naming()]) == question


@pytest.mark.parametrize(("query", "question"), [
    ("According to the policy document, what is the waiting period for cataract?",
     "What is the waiting period for cataract?"),
    ("As per this agreement, can either party assign it?", "Can either party assign it?"),
    ("Under the policy, is maternity covered?", "Is maternity covered?"),
    ("Based on the terms and conditions of the contract, who pays the fees?",
     "Who pays the fees?"),
    ("Under this Agreement, may the Licensee sublicense?", "May the Licensee sublicense?"),
    ("according to the plan document, how much is the deductible?",
     "How much is the deductible?"),
    # a frame that names a document becomes a leading part, for the scoping to read
    ("According to the Arogya Sanjeevani Policy, what is the grace period?",
     "According to the Arogya Sanjeevani Policy; what is the grace period?"),
    # conditions and questions that only mention the document stay whole
    ("In case the policy lapses, what happens to the bonus?",
     "In case the policy lapses, what happens to the bonus?"),
    ("In the event of hospitalisation abroad, what is paid?",
     "In the event of hospitalisation abroad, what is paid?"),
    ("Is maternity covered under the policy?", "Is maternity covered under the policy?"),
])
def test_a_frame_that_says_where_to_look_leaves_the_question(query, question) -> None:
    """A question opening with a frame no longer opens with what it asks ("Is ...", "How
    much ..."): the verdict read only 104 of the 170 it reads without one."""
    from clausegraph.retrieve.scope import reframe

    assert reframe(query) == question


@pytest.mark.parametrize(("query", "question"), [
    ("Can you tell me what the waiting period for cataract is?",
     "What the waiting period for cataract is?"),
    ("Could you please tell me, how long is the free look period?",
     "How long is the free look period?"),
    ("Please let me know the grace period for renewal.", "The grace period for renewal."),
    ("I want to know whether AYUSH treatment is covered.",
     "Is it the case that AYUSH treatment is covered."),
    ("Could you tell me if maternity is covered?", "Is it the case that maternity is covered?"),
    ("Please answer from the policy: what is the room rent limit?",
     "What is the room rent limit?"),
    # a request for information about a subject (LegalBench-RAG's MAUD wordings)
    ("Information about the Closing Condition: Compliance with Covenants",
     "Closing Condition: Compliance with Covenants"),
    ("I want information about the Limitations on Antitrust Efforts",
     "Limitations on Antitrust Efforts"),
    ("What about the Fiduciary exception to the No-Shop Clause?",
     "Fiduciary exception to the No-Shop Clause?"),
    ("Tell me about the waiting period for cataract.", "Waiting period for cataract."),
    ("Details regarding the room rent limit", "Room rent limit"),
    # information as the subject asked about stays
    ("What information does the app collect?", "What information does the app collect?"),
    ("Is information about minors shared?", "Is information about minors shared?"),
    # a question to the reader is no request around another
    ("Can you cancel the policy within the free look period?",
     "Can you cancel the policy within the free look period?"),
    ("Can the insured tell the insurer of a claim by phone?",
     "Can the insured tell the insurer of a claim by phone?"),
])
def test_a_request_around_the_question_leaves_it(query, question) -> None:
    """"Can you tell me what ...?" read as "Can ..." was a yes-or-no question: its verdict
    stated the fact for 42% of the policy questions asked so, against 68% asked plainly."""
    from clausegraph.retrieve.scope import reframe

    assert reframe(query) == question
