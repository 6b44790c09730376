"""SmoothQuant + dynamic int8 version of the BERT encoder graph (``embedding.quantize: int8``).

Dynamic int8 on its own moves MiniLM's vectors too far (mean cosine 0.99 against fp32): the
LayerNorm outputs that feed the projections have a few outlier channels, and dynamic
quantisation gives each activation tensor one scale. SmoothQuant (Xiao et al. 2023) divides
input channel j of a projection by ``s_j = max|x_j|**alpha / max|W_j|**(1 - alpha)`` and
multiplies row j of its weights by ``s_j``: the fp32 product is unchanged, the activation
outliers shrink. Smoothed here: the QKV projection (``Attention``), the attention output and
the FFN up projection; FFN down (fed by GELU, which smoothing makes worse) stays fp32. Weights
become per-channel uint8 (ONNX Runtime's AVX2 u8s8 kernel can saturate with int8 weights).

``max|x_j|`` is not measured at run time: it is packaged per model
(``data/<model>-smoothquant.npz``), computed once by ``scripts/calibrate_int8.py`` from public
LegalBench-RAG documents that none of the project's benchmarks reads. Measurements and the
calibration data: docs/embedding.md.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from clausegraph.embed.base import INT8_VARIANT

if TYPE_CHECKING:
    import onnx

# Appended to the weights fingerprint, so an index built by the fp32 encoder (either backend)
# is told apart from one built by this encoder.
VARIANT = INT8_VARIANT
# Bump when smoothing or quantisation changes what is written (stale cached graphs rebuild).
INT8_VERSION = 1
ALPHA = 0.5
CALIBRATION_DIR = Path(__file__).resolve().parent / "data"


def calibration_path(model_name: str) -> Path:
    return CALIBRATION_DIR / f"{model_name}-smoothquant.npz"


def calibration_digest(model_name: str) -> str:
    """First 8 hex digits of the packaged calibration's SHA-256 ('none' without one)."""
    path = calibration_path(model_name)
    if not path.is_file():
        return "none"
    return hashlib.sha256(path.read_bytes()).hexdigest()[:8]


def smoothed_nodes(model: onnx.ModelProto) -> dict[str, tuple[str, str]]:
    """Node name -> (input activation, weight initializer) of every projection to smooth:
    per layer the ``Attention`` (QKV), the attention-output and the FFN-up MatMul, as named by
    :func:`clausegraph.embed.bert_onnx.build_bert_encoder`."""
    layers = {node.name.split(".")[0] for node in model.graph.node if node.name.endswith(".inter")}
    names = {f"{layer}.{part}" for layer in layers for part in ("context", "attn.mm", "inter")}
    return {node.name: (node.input[0], node.input[1])
            for node in model.graph.node if node.name in names}


def activation_maxima(model: onnx.ModelProto,
                      batches: Iterable[tuple[np.ndarray, np.ndarray]]) -> dict[str, np.ndarray]:
    """Per node of :func:`smoothed_nodes`, the largest |value| of each input channel over the
    real (unpadded) tokens of ``batches`` of (input_ids, attention_mask), run in fp32."""
    import onnx
    import onnxruntime
    from onnx import helper

    targets = smoothed_nodes(model)
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    activations = sorted({act for act, _ in targets.values()})
    for act in activations:
        probe.graph.output.append(helper.make_tensor_value_info(act, onnx.TensorProto.FLOAT, None))
    session = onnxruntime.InferenceSession(probe.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
    peak = {act: np.zeros(0, np.float32) for act in activations}
    for ids, mask in batches:
        values = session.run(activations, {"input_ids": ids, "attention_mask": mask})
        for act, value in zip(activations, values):
            batch_peak = np.abs(value[mask.astype(bool)]).max(axis=0)
            peak[act] = batch_peak if peak[act].size == 0 else np.maximum(peak[act], batch_peak)
    return {name: peak[act] for name, (act, _) in targets.items()}


def load_maxima(model_name: str, weights_sha256: str) -> dict[str, np.ndarray]:
    """The packaged calibration of ``model_name``; refuses other weights, whose activations
    it does not describe."""
    path = calibration_path(model_name)
    if not path.is_file():
        raise ValueError(f"no packaged int8 calibration for {model_name!r} ({path.name}); "
                         "int8 runs the packaged all-MiniLM-L6-v2 only")
    with np.load(path) as data:
        calibrated_for = str(data["weights_sha256"])
        if calibrated_for != weights_sha256:
            raise ValueError(f"{path.name} was calibrated for other weights of {model_name!r} "
                             f"(sha256:{calibrated_for[:12]}, these: sha256:{weights_sha256[:12]})")
        return {key: data[key] for key in data.files if key != "weights_sha256"}


def smooth(model: onnx.ModelProto, maxima: dict[str, np.ndarray],
           alpha: float = ALPHA) -> list[str]:
    """Fold SmoothQuant scales into ``model`` in place: a Mul by 1/s before each projection of
    :func:`smoothed_nodes`, its weight rows times s. Returns the smoothed node names."""
    from onnx import helper, numpy_helper

    targets = smoothed_nodes(model)
    if set(targets) != set(maxima):
        raise ValueError("the int8 calibration does not match the graph's projections")
    weights = {init.name: init for init in model.graph.initializer}
    nodes = []
    for node in model.graph.node:
        if node.name in targets:
            act, weight_name = targets[node.name]
            weight = numpy_helper.to_array(weights[weight_name])
            scale = (np.maximum(maxima[node.name], 1e-5) ** alpha
                     / np.maximum(np.abs(weight).max(axis=1), 1e-5) ** (1 - alpha))
            weights[weight_name].CopyFrom(numpy_helper.from_array(
                (weight * scale[:, None]).astype(np.float32), weight_name))
            model.graph.initializer.append(numpy_helper.from_array(
                (1 / scale).astype(np.float32), f"{node.name}.inv_scale"))
            nodes.append(helper.make_node("Mul", [act, f"{node.name}.inv_scale"],
                                          [f"{node.name}.smoothed"], name=f"{node.name}.smooth"))
            node.input[0] = f"{node.name}.smoothed"
        nodes.append(node)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return sorted(targets)


def write_int8_graph(model: onnx.ModelProto, maxima: dict[str, np.ndarray], output: Path) -> None:
    """Smooth ``model`` (a copy) with ``maxima`` and write it with per-channel uint8 weights
    on the smoothed projections to ``output``."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    smoothed = onnx.ModelProto()
    smoothed.CopyFrom(model)
    nodes = smooth(smoothed, maxima)
    root = logging.getLogger()
    level = root.level
    # The quantiser logs a "consider pre-processing" advice on the root logger; a user
    # asking a question should not see it.
    root.setLevel(logging.ERROR)
    try:
        # DefaultTensorType: the fused com.microsoft ops carry no type information for the
        # quantiser's shape inference; every tensor here is float32.
        quantize_dynamic(smoothed, output, op_types_to_quantize=["MatMul", "Attention"],
                         nodes_to_quantize=nodes, per_channel=True,
                         weight_type=QuantType.QUInt8, extra_options={"DefaultTensorType": 1})
    finally:
        root.setLevel(level)


def padded_batches(encodings: Sequence, size: int = 32):
    """(input_ids, attention_mask) arrays for ``tokenizers`` encodings, ``size`` at a time."""
    for start in range(0, len(encodings), size):
        batch = encodings[start:start + size]
        width = max(len(encoding.ids) for encoding in batch)
        ids = np.zeros((len(batch), width), np.int64)
        mask = np.zeros_like(ids)
        for row, encoding in enumerate(batch):
            ids[row, :len(encoding.ids)] = encoding.ids
            mask[row, :len(encoding.ids)] = 1
        yield ids, mask
