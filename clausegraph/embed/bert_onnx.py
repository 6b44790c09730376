"""Build a BERT sentence encoder (all-MiniLM-L6-v2 style) as an ONNX graph straight from
``model.safetensors``: no torch and no export step, only the ``onnx`` helper API.

The graph takes ``input_ids`` and ``attention_mask`` (int64, batch x tokens) and returns
``sentence_embedding`` (float32, batch x hidden): word-piece embeddings + absolute positions +
token type 0, ``num_hidden_layers`` post-LayerNorm encoder layers with exact (erf) GELU, then the
mean over real tokens and L2 normalisation -- what sentence-transformers' Transformer, Pooling
(mean) and Normalize modules compute for this model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import onnx

OPSET = 18  # LayerNormalization (17); ReduceL2 takes its axes as an input (18)


def build_bert_encoder(model_dir: Path) -> onnx.ModelProto:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from safetensors.numpy import load_file

    config = json.loads((model_dir / "config.json").read_text())
    if config.get("model_type") != "bert" or config.get("hidden_act", "gelu") != "gelu":
        raise ValueError(f"{model_dir}: not a BERT model with GELU (config.json)")
    if config.get("position_embedding_type", "absolute") != "absolute":
        raise ValueError(f"{model_dir}: only absolute position embeddings are supported")
    weights = load_file(str(model_dir / "model.safetensors"))
    prefix = "bert." if any(k.startswith("bert.") for k in weights) else ""

    hidden = int(config["hidden_size"])
    heads = int(config["num_attention_heads"])
    eps = float(config.get("layer_norm_eps", 1e-12))

    nodes: list = []
    initializers: list = []

    def const(name: str, array: np.ndarray) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def weight(key: str) -> np.ndarray:
        return weights[prefix + key].astype(np.float32)

    def node(op: str, inputs: list[str], output: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [output], name=output, **attrs))
        return output

    def contrib(op: str, inputs: list[str], output: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [output], name=output, domain="com.microsoft",
                                      **attrs))
        return output

    def dense_skip_norm(x: str, residual: str, key: str, out: str) -> str:
        """LayerNorm(x @ W + b + residual); torch Linear stores W as (out, in)."""
        projected = node("MatMul", [x, const(f"{key}.w", weight(f"{key}.dense.weight").T)],
                         f"{out}.mm")
        return contrib("SkipLayerNormalization",
                       [projected, residual, const(f"{key}.g", weight(f"{key}.LayerNorm.weight")),
                        const(f"{key}.beta", weight(f"{key}.LayerNorm.bias")),
                        const(f"{key}.b", weight(f"{key}.dense.bias"))],
                       out, epsilon=eps)

    def layer_norm(x: str, key: str, out: str) -> str:
        scale = const(f"{key}.g", weight(f"{key}.weight"))
        bias = const(f"{key}.beta", weight(f"{key}.bias"))
        return node("LayerNormalization", [x, scale, bias], out, axis=-1, epsilon=eps)

    # -- embeddings ------------------------------------------------------------------------
    word = const("word_embeddings", weight("embeddings.word_embeddings.weight"))
    # Token type is always 0 for single sentences: fold its row into the position table.
    positions = weight("embeddings.position_embeddings.weight") + weight(
        "embeddings.token_type_embeddings.weight")[0]
    const("position_embeddings", positions)
    const("zero", np.array([0], dtype=np.int64))
    node("Shape", ["input_ids"], "ids_shape")
    node("Gather", ["ids_shape", const("axis1", np.array([1], dtype=np.int64))], "seq_len")
    node("Slice", ["position_embeddings", "zero", "seq_len", "zero"], "positions")
    node("Gather", [word, "input_ids"], "tokens")
    node("Add", ["tokens", "positions"], "embedded")
    x = layer_norm("embedded", "embeddings.LayerNorm", "emb_out")

    node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    node("Cast", ["attention_mask"], "mask_i32", to=TensorProto.INT32)

    # ONNX Runtime's fused CPU kernels (com.microsoft domain): one Attention op per layer
    # (QKV projection, scaled softmax with the padding mask, weighted sum), residual + bias +
    # LayerNorm in one SkipLayerNormalization, bias + exact GELU in one BiasGelu.
    for i in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{i}."
        qkv_weights = np.concatenate(
            [weight(p + f"attention.self.{part}.weight").T for part in ("query", "key", "value")],
            axis=1)
        qkv_bias = np.concatenate(
            [weight(p + f"attention.self.{part}.bias") for part in ("query", "key", "value")])
        context = contrib("Attention", [x, const(f"l{i}.qkv.w", qkv_weights),
                                        const(f"l{i}.qkv.b", qkv_bias), "mask_i32"],
                          f"l{i}.context", num_heads=heads)
        x = dense_skip_norm(context, x, p + "attention.output", f"l{i}.attn")
        inner = node("MatMul", [x, const(f"l{i}.inter.w",
                                         weight(p + "intermediate.dense.weight").T)], f"l{i}.inter")
        gelu = contrib("BiasGelu", [inner, const(f"l{i}.inter.b",
                                                 weight(p + "intermediate.dense.bias"))],
                       f"l{i}.gelu")
        x = dense_skip_norm(gelu, x, p + "output", f"l{i}.out")

    # -- mean pooling over real tokens, then L2 normalisation --------------------------------
    node("Unsqueeze", ["mask_f", const("axis_last", np.array([2], np.int64))], "mask_3d")
    node("Mul", [x, "mask_3d"], "masked_tokens")
    node("ReduceSum", ["masked_tokens", "axis1"], "token_sum", keepdims=0)
    node("ReduceSum", ["mask_3d", "axis1"], "token_count", keepdims=0)
    node("Max", ["token_count", const("min_count", np.array(1e-9, np.float32))], "token_count_c")
    node("Div", ["token_sum", "token_count_c"], "mean")
    node("ReduceL2", ["mean", const("axis_m1", np.array([-1], np.int64))], "norm", keepdims=1)
    node("Max", ["norm", const("min_norm", np.array(1e-12, np.float32))], "norm_c")
    node("Div", ["mean", "norm_c"], "sentence_embedding")

    graph = helper.make_graph(
        nodes,
        "sentence_encoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"]),
        ],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", hidden])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET),
                                                    helper.make_opsetid("com.microsoft", 1)],
                              producer_name="clausegraph")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model
