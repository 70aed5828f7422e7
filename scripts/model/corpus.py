"""Builds the training text of the fitted static model: sentences of technical prose taken from
pinned PyPI wheels (Python docstrings and comments, and the API documentation botocore ships as
JSON). Nothing here comes from relay's own evaluation sets. Deterministic: the same wheels give
the same sentences, in the same order.

    python corpus.py OUT.txt COUNT WHEEL...
"""
import ast
import gzip
import hashlib
import html
import json
import re
import sys
import zipfile

WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
TAG = re.compile(r"<[^>]+>")
MARKUP = re.compile(r"``|`|:[a-z]+:|\*\*|::|\.\. [a-z-]+::.*|>>>.*|#+")


def clean(text):
    text = html.unescape(TAG.sub(" ", text))
    text = MARKUP.sub(" ", text)
    return " ".join(text.split())


def sentences(text):
    """Prose sentences of a docstring or documentation field: 5 to 40 words, mostly words."""
    for para in re.split(r"\n\s*\n", text):
        para = clean(para)
        for s in SPLIT.split(para):
            words = s.split()
            if not 5 <= len(words) <= 40:
                continue
            if len(WORD.findall(s)) < 0.8 * len(words):
                continue
            if not s[0].isupper():
                continue
            yield s


def from_python(source):
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node)
            if doc:
                yield from sentences(doc)
    comment = []
    for line in source.splitlines() + [""]:
        line = line.strip()
        if line.startswith("#") and not line.startswith("#!"):
            comment.append(line.lstrip("#").strip())
        elif comment:
            yield from sentences(" ".join(comment))
            comment = []


def documentation(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "documentation" and isinstance(inner, str):
                yield inner
            else:
                yield from documentation(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from documentation(inner)


def from_wheel(path):
    with zipfile.ZipFile(path) as z:
        for name in sorted(z.namelist()):
            if name.endswith(".py"):
                yield from from_python(z.read(name).decode("utf-8", "replace"))
            elif name.endswith(("service-2.json", "service-2.json.gz")):
                raw = z.read(name)
                if name.endswith(".gz"):
                    raw = gzip.decompress(raw)
                for doc in documentation(json.loads(raw)):
                    yield from sentences(doc)


def main(out, count, wheels):
    seen = set()
    for wheel in wheels:
        for s in from_wheel(wheel):
            seen.add(s)
    # A fixed sample: the sentences whose digests are smallest.
    ranked = sorted(seen, key=lambda s: hashlib.sha256(s.encode()).digest())[:count]
    with open(out, "w") as f:
        for s in ranked:
            f.write(s + "\n")
    print(f"corpus: {len(seen)} distinct sentences, kept {len(ranked)}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3:])
