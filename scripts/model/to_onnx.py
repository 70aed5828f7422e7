"""Writes a BERT sentence encoder's weights (a `query/` folder: config.json, model.safetensors)
as an ONNX graph, then quantises its matrix products to int8 (onnxruntime's dynamic
quantisation), for ONNX Runtime to embed documents with.

    python scripts/model/to_onnx.py MODEL_DIR/query OUT_DIR

OUT_DIR gets model.onnx (float32) and model-int8.onnx: the int8 graph with ONNX Runtime's
hardware-independent fusions already applied (its "extended" level), so that a process that
runs one query does not spend its start optimising the graph. The graph takes `input_ids` and
`attention_mask` (int64, batch x tokens) and gives `embedding` (float32, batch x hidden): the
last hidden states averaged over the unmasked tokens, as sentence-transformers' mean pooling,
not yet normalised. Needs numpy, onnx, onnxruntime and safetensors.
"""

import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file


def build(weights, config):
    hidden = config["hidden_size"]
    heads = config["num_attention_heads"]
    head = hidden // heads
    eps = config.get("layer_norm_eps", 1e-12)
    prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""
    nodes, inits = [], []
    counter = [0]

    def name(base):
        counter[0] += 1
        return f"{base}_{counter[0]}"

    def const(base, value):
        n = name(base)
        inits.append(numpy_helper.from_array(np.asarray(value), n))
        return n

    def weight(key):
        return const(key.replace(".", "_"), weights[prefix + key].astype(np.float32))

    def op(kind, inputs, base=None, **attrs):
        out = name(base or kind.lower())
        nodes.append(helper.make_node(kind, inputs, [out], **attrs))
        return out

    def linear(x, key):
        # torch keeps (out, in); x @ W.T + b
        w = const(key.replace(".", "_") + "_t", weights[prefix + key + ".weight"].T.copy())
        return op("Add", [op("MatMul", [x, w]), weight(key + ".bias")])

    def norm(x, key):
        return op("LayerNormalization", [x, weight(key + ".weight"), weight(key + ".bias")],
                  axis=-1, epsilon=eps)

    ids, mask = "input_ids", "attention_mask"
    # Embeddings: word + position (0..T) + token type 0.
    words = op("Gather", [weight("embeddings.word_embeddings.weight"), ids])
    length = op("Gather", [op("Shape", [ids]), const("one", np.array(1, np.int64))])
    positions = op("Range", [const("zero", np.array(0, np.int64)), length,
                             const("step", np.array(1, np.int64))])
    pos = op("Gather", [weight("embeddings.position_embeddings.weight"), positions])
    types = const("type0", weights[prefix + "embeddings.token_type_embeddings.weight"][0])
    x = op("Add", [op("Add", [words, pos]), types])
    x = norm(x, "embeddings.LayerNorm")

    # The attention bias: 0 where a token is real, -10000 where it is padding; (B, 1, 1, T).
    maskf = op("Cast", [mask], to=TensorProto.FLOAT)
    bias = op("Mul", [op("Sub", [const("onef", np.array(1.0, np.float32)), maskf]),
                      const("neg", np.array(-10000.0, np.float32))])
    bias = op("Unsqueeze", [bias, const("axes12", np.array([1, 2], np.int64))])
    split_shape = const("split", np.array([0, 0, heads, head], np.int64))
    merge_shape = const("merge", np.array([0, 0, hidden], np.int64))
    scale = const("scale", np.array(1.0 / np.sqrt(head), np.float32))

    for layer in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."

        def heads_of(t, perm):
            return op("Transpose", [op("Reshape", [t, split_shape])], perm=perm)

        q = heads_of(linear(x, p + "attention.self.query"), [0, 2, 1, 3])
        k = heads_of(linear(x, p + "attention.self.key"), [0, 2, 3, 1])
        v = heads_of(linear(x, p + "attention.self.value"), [0, 2, 1, 3])
        scores = op("Add", [op("Mul", [op("MatMul", [q, k]), scale]), bias])
        probs = op("Softmax", [scores], axis=-1)
        ctx = op("Transpose", [op("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        ctx = op("Reshape", [ctx, merge_shape])
        x = norm(op("Add", [linear(ctx, p + "attention.output.dense"), x]),
                 p + "attention.output.LayerNorm")
        inner = linear(x, p + "intermediate.dense")
        # Exact GELU: x * 0.5 * (1 + erf(x / sqrt 2)).
        erf = op("Erf", [op("Div", [inner, const("sqrt2", np.array(np.sqrt(2.0), np.float32))])])
        gelu = op("Mul", [op("Mul", [inner, op("Add", [erf, const("onef", np.array(1.0, np.float32))])]),
                          const("half", np.array(0.5, np.float32))])
        x = norm(op("Add", [linear(gelu, p + "output.dense"), x]), p + "output.LayerNorm")

    # Mean pooling over the real tokens.
    m = op("Unsqueeze", [maskf, const("axis2", np.array([2], np.int64))])
    summed = op("ReduceSum", [op("Mul", [x, m]), const("axis1", np.array([1], np.int64))],
                keepdims=0)
    count = op("ReduceSum", [m, const("axis1", np.array([1], np.int64))], keepdims=0)
    count = op("Max", [count, const("tiny", np.array(1e-9, np.float32))])
    nodes.append(helper.make_node("Div", [summed, count], ["embedding"]))

    graph = helper.make_graph(
        nodes, "sentence_encoder",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", hidden])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="relay scripts/model/to_onnx.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: python scripts/model/to_onnx.py MODEL_DIR/query OUT_DIR")
    src, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(src, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    weights = load_file(os.path.join(src, "model.safetensors"))
    os.makedirs(out, exist_ok=True)
    f32 = os.path.join(out, "model.onnx")
    onnx.save(build(weights, config), f32)
    import onnxruntime
    from onnxruntime.quantization import QuantType, quantize_dynamic
    plain = os.path.join(out, "model-int8-plain.onnx")
    quantize_dynamic(f32, plain, weight_type=QuantType.QInt8)
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = os.path.join(out, "model-int8.onnx")
    onnxruntime.InferenceSession(plain, options, providers=["CPUExecutionProvider"])
    os.remove(plain)
    print(f"wrote {f32} and model-int8.onnx")


if __name__ == "__main__":
    main()
