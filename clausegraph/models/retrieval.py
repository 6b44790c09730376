"""What retrieval produces: ranked clauses with their scores and the reason each is there."""

from __future__ import annotations

from pydantic import BaseModel, Field

from clausegraph.models.document import Clause
from clausegraph.models.graph import Edge


def local_label(clause_id: str) -> str:
    """A clause id without its document key: paths never leave one document."""
    return clause_id.split(":", 1)[-1]


class RetrievedClause(BaseModel):
    """A clause in the result, its scores, and why it is there."""

    clause: Clause
    score: float
    sim: float
    bm25: float = Field(description="raw BM25 score")
    dense: float = Field(description="cosine similarity to the query")
    centrality: float
    path_support: float
    origin: str = Field(
        description="'seed' (top fused hit, starts expansion), 'hit' (a lower BM25/dense "
        "candidate), 'expanded' (reached through the graph), 'governing' (a definition "
        "or exception of a returned clause, added to an answer), 'review' (the contract "
        "review's best clause for the CUAD type asked, which retrieval missed) or "
        "'rare-word' (a best BM25 match for the question's rarest word alone, added to an "
        "answer's candidates)"
    )
    rare_word: str | None = Field(default=None, description="the word a 'rare-word' clause "
                                  "was found by, as the question writes it")
    seed_rank: int | None = Field(default=None, description="1-based rank among seed hits")
    via: list[Edge] = Field(default_factory=list, description="edges walked from the seed")
    via_seed: str | None = None

    @property
    def clause_id(self) -> str:
        return self.clause.clause_id

    def reason(self) -> str:
        """One line saying why this clause was retrieved."""
        scores = f"sim {self.sim:.2f}: BM25 {self.bm25:.2f}, dense {self.dense:.2f}"
        if self.origin == "seed":
            return f"seed hit #{self.seed_rank} ({scores})"
        if self.origin == "review":
            return "the contract review's best clause for the clause type asked"
        if self.origin == "rare-word":  # not a fused hit: its own BM25 and cosine
            return (f"holds the question's rarest word, '{self.rare_word}' "
                    f"(BM25 {self.bm25:.2f}, dense {self.dense:.2f})")
        if self.origin == "hit":
            return f"retrieval hit ({scores})"
        steps = ", ".join(
            f"{local_label(e.source)} {e.type.value} {local_label(e.target)}" for e in self.via
        )
        start = local_label(self.via_seed) if self.via_seed else "a retrieved clause"
        return f"reached from {start} via {steps}" if steps else \
            f"reached from {start} through the clause graph"
