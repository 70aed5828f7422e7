"""The peer of relay's semantic search in scripts/bench-semantic.sh: a numpy brute-force scan of
the very vectors relay stored under .relay/cache/vectors-v3/<model>/, with the query embedded by the
same static model (its token rows, mean-pooled and normalised). Prints the k best entries as
"similarity<TAB>file<TAB>offset", best first.

    python brute_force.py MODEL_DIR STORE_DIR QUERY [K]
"""
import glob
import json
import os
import re
import struct
import sys
import unicodedata

import numpy as np


def load_rows(model_dir):
    raw = open(os.path.join(model_dir, "model.safetensors"), "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    info = header["embeddings"]
    kinds = {"F32": np.float32, "F16": np.float16}
    a, b = info["data_offsets"]
    rows = np.frombuffer(raw[8 + n + a:8 + n + b], dtype=kinds[info["dtype"]])
    return rows.reshape(info["shape"]).astype(np.float32)


def word_pieces(text, vocab):
    """BERT's uncased tokenising: lower case, accents off, split at spaces and punctuation,
    then the longest vocabulary pieces, left to right."""
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(c for c in text if unicodedata.category(c) != "Mn")
    ids = []
    for word in re.findall(r"\w+|[^\w\s]", text):
        start, pieces = 0, []
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    pieces.append(vocab[piece])
                    break
                end -= 1
            if end == start:
                pieces = [vocab.get("[UNK]", 100)]
                break
            start = end
        ids.extend(pieces)
    return ids


def main():
    model_dir, store_dir, query = sys.argv[1], sys.argv[2], sys.argv[3]
    k = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    vocab = json.load(open(os.path.join(model_dir, "tokenizer.json")))["model"]["vocab"]
    rows = load_rows(model_dir)
    ids = word_pieces(query, vocab)
    q = rows[ids].mean(axis=0)
    q /= np.linalg.norm(q)
    best = []
    pattern = os.path.join(store_dir, "cache", "vectors-v3", "*", "*", "*.vec")
    for path in sorted(glob.glob(pattern)):
        with open(path, "rb") as f:
            header = json.loads(f.readline())
            body = f.tell()
        dims = header["dims"]
        kind = np.dtype([("offset", "<u8"), ("scale", "<f4"), ("v", "i1", (dims,))])
        entries = np.memmap(path, dtype=kind, mode="r", offset=body, shape=(header["count"],))
        sims = (entries["v"].astype(np.float32) @ q) * entries["scale"]
        top = np.argpartition(-sims, min(k, len(sims) - 1))[:k] if len(sims) > k else np.arange(len(sims))
        best.extend((float(sims[i]), path, int(entries["offset"][i])) for i in top)
    best.sort(key=lambda t: -t[0])
    for sim, path, offset in best[:k]:
        print(f"{sim:.4f}\t{path}\t{offset}")


if __name__ == "__main__":
    main()
