"""A small index built without the embedding model: three short documents with real-looking
clauses, typed edges and deterministic unit vectors. Shared by the store contract suite and
the retrieval tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from clausegraph.ingest import load_document
from clausegraph.models import Clause, Document, DocumentGraph, Edge, Page, RelationType
from clausegraph.segment import segment
from clausegraph.store.base import DocumentArtifacts, DocumentEntry, IndexReader, IndexStore
from clausegraph.store.local.folder import FolderStore
from clausegraph.text.tokenize import tokenize

DIM = 8
TEXTS = {
    "lease": [
        "Definitions. Premises means the office space on the third floor.",
        "The Tenant shall pay rent monthly in advance for the Premises.",
        "Notwithstanding Section 2, no rent is payable during the first month.",
        "Either party may terminate this lease with ninety days written notice.",
    ],
    "policy": [
        "Waiting Period means the time during which benefits are not payable.",
        "Cataract surgery is covered after a waiting period of two years.",
        "Pre-existing diseases are excluded until thirty six months of cover.",
    ],
    "nda": [
        "Confidential Information means any information disclosed by a party.",
        "The recipient shall not disclose Confidential Information to third parties.",
        "This agreement terminates two years after the effective date.",
    ],
}


def unit_vector(text: str) -> np.ndarray:
    rng = np.random.default_rng(sum(map(ord, text)))
    vector = rng.normal(size=DIM).astype(np.float32)
    return vector / np.linalg.norm(vector)


def artifacts_for(name: str) -> DocumentArtifacts:
    texts = TEXTS[name]
    body = "\n".join(texts)
    doc_id = f"{abs(hash(name)) % 16**16:016x}"
    document = Document(doc_id=doc_id, key=name, source_path=f"/docs/{name}.txt",
                        title=name.title(), media_type="text", text=body,
                        pages=[Page(number=1, start=0, end=len(body))])
    clauses, start = [], 0
    for order, text in enumerate(texts):
        clauses.append(Clause(clause_id=f"{name}:{order + 1}", doc_id=doc_id,
                              number=str(order + 1), text=text, span=(start, start + len(text)),
                              segments=[(start, start + len(text))], pages=[1], order=order))
        start += len(text) + 1
    first, second, last = clauses[0].clause_id, clauses[1].clause_id, clauses[-1].clause_id
    edges = [
        # the term the first clause opens with ("Waiting Period means ..."), as relate reads it
        Edge(type=RelationType.DEFINES, source=first, target=second, confidence=0.9,
             rule_id="test", evidence="means", evidence_span=(0, 5),
             term=texts[0].split(" means")[0]),
        Edge(type=RelationType.OVERRIDES, source=last, target=second, confidence=0.8,
             rule_id="test", evidence="Notwithstanding", evidence_span=(0, 5)),
        Edge(type=RelationType.SAME_SECTION, source=second, target=last, confidence=1.0,
             rule_id="test", evidence="", evidence_span=(0, 0)),
    ]
    vectors = np.vstack([unit_vector(t) for t in texts])
    return DocumentArtifacts(document, clauses, DocumentGraph(edges=edges), vectors,
                             [tokenize(t) for t in texts])


def add_documents(store: IndexStore, *names: str, remove: tuple[str, ...] = ()) -> None:
    store.ensure_writable()
    with store.write_lock():
        added = []
        for name in names:
            artifacts = artifacts_for(name)
            store.stage(artifacts)
            added.append((artifacts.document.doc_id, DocumentEntry.of(artifacts, 0.0)))
        store.commit(added, list(remove), "test-model", DIM)


class TextVectorEmbedder:
    """Embeds a query as the synthetic index embeds clauses (a deterministic unit vector)."""

    name = "synthetic"
    dim = 8

    def encode_query(self, text: str) -> np.ndarray:
        return unit_vector(text)


def read_texts(folder: Path, files: dict[str, str]) -> IndexReader:
    """A folder index of text files read and segmented by the real reader and segmenter
    (zero vectors: for tests of scoping and answering, not of dense search)."""
    store = FolderStore(folder / "index")
    store.ensure_writable()
    added = []
    with store.write_lock():
        for name, text in files.items():
            path = folder / name
            path.write_text(text, encoding="utf-8")
            document = load_document(path)
            clauses = segment(document)
            vectors = np.zeros((len(clauses), 4), dtype=np.float32)
            artifacts = DocumentArtifacts(document, clauses, DocumentGraph(), vectors,
                                          [tokenize(c.text) for c in clauses])
            store.stage(artifacts)
            added.append((document.doc_id, DocumentEntry.of(artifacts, 0.0)))
        store.commit(added, [], "none", 4)
    return store.open_reader()


def file_clauses(reader: IndexReader, file_name: str) -> list[Clause]:
    """The clauses of the document of :func:`read_texts` written as ``file_name``."""
    doc_id = next(d for d, e in reader.entries().items() if e.source_path.endswith(file_name))
    return reader.clauses.document_clauses(doc_id)
