"""ClauseGraph: clause-graph retrieval and cited answers over legal and policy documents."""

from clausegraph.config import RetrievalConfig, Settings

__all__ = ["ClauseGraph", "RetrievalConfig", "Settings"]
__version__ = "0.1.0"


def __getattr__(name: str):
    # Import lazily: ``import clausegraph`` should not load torch, spaCy and FAISS.
    if name == "ClauseGraph":
        from clausegraph.api import ClauseGraph

        return ClauseGraph
    raise AttributeError(name)
