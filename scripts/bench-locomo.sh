#!/usr/bin/env bash
# The public LoCoMo benchmark (snap-research/LoCoMo: ten long conversations, 19–32 sessions
# each, about 2,000 questions that name the turns holding their answer) as a retrieval test of
# relay, for docs/BENCHMARKS.md. Opt-in, not part of cargo test; the data is not in this
# repository. Each conversation gets a fresh store with one package per session; each question
# with an evidence session is asked in keyword, semantic and hybrid mode through one `relay mcp`
# per store (`pull`, mode relevant, limit 10: the model loads once, as in an agent's session),
# and the first 20 of each store and mode also as one-shot `relay search --json` processes, for
# their latency; a BM25 baseline (rank_bm25, or a plain Okapi BM25 when it is not installed)
# ranks the same sessions' text. Reported: session-level recall at 1, 5 and 10, MRR@10 and the
# median latency of a search, per mode and per question category, for all ten conversations,
# the first five (the development split any parameter is tuned on) and the last five. About
# 10 minutes on 2 cores.
#
#   bash scripts/bench-locomo.sh PATH/TO/locomo10.json
#
# The data: data/locomo10.json of https://github.com/snap-research/LoCoMo (2.8 MB; older
# copies of that repository ship it as data/locomo10.zip). It is not relay's to redistribute:
# keep it outside the repository and pass its path.
#
# Environment (all optional):
#   BENCH_DIR      work folder (/tmp/relay-bench); the stores, results.jsonl (each question's
#                  rank per mode), summary.json and report.md go to $BENCH_DIR/results-locomo/
#   RELAY_MODEL    the model folder (target/models/minilm-l6-fitted: bash scripts/fetch-model.sh);
#                  without one only keyword search and BM25 run, and the report says so
#   BENCH_PYTHON   the python that runs scripts/locomo/run.py (python3); with rank_bm25
#                  (pip install rank-bm25) the baseline is rank_bm25's BM25Okapi
#   LOCOMO_MODES   the modes to run (keyword,semantic,hybrid)
#   LOCOMO_DOOR    how questions are asked: mcp (one `relay mcp` per store, the model loaded
#                  once; the default) or cli (one `relay search` process per question)
#   LOCOMO_CLI_SAMPLE  with the mcp door, how many questions per store and mode are also
#                  timed as one-shot `relay search` processes (20)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

if [ $# -ne 1 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  echo "usage: bash scripts/bench-locomo.sh PATH/TO/locomo10.json" >&2
  echo "  (data/locomo10.json of github.com/snap-research/LoCoMo; see the header of this script)" >&2
  exit 2
fi
data=$1
if [ ! -f "$data" ]; then
  echo "no file at $data: download data/locomo10.json from github.com/snap-research/LoCoMo" >&2
  exit 2
fi
data=$(cd "$(dirname "$data")" && pwd)/$(basename "$data")
work=${BENCH_DIR:-/tmp/relay-bench}
python=${BENCH_PYTHON:-python3}
model=${RELAY_MODEL:-$repo/target/models/minilm-l6-fitted}
modes=${LOCOMO_MODES:-keyword,semantic,hybrid}
door=${LOCOMO_DOOR:-mcp}
cli_sample=${LOCOMO_CLI_SAMPLE:-20}

command -v cargo > /dev/null || {
  echo "bench-locomo.sh needs cargo (rustup.rs) to build relay" >&2
  exit 2
}
if ! "$python" -c 'import sys; assert sys.version_info >= (3, 8)' 2> /dev/null; then
  echo "bench-locomo.sh needs python 3.8 or later: set BENCH_PYTHON" >&2
  exit 2
fi
if ! "$python" -c 'import rank_bm25' 2> /dev/null; then
  echo "note: $python has no rank_bm25; the baseline is the plain Okapi BM25 of run.py" >&2
  echo "      (pip install rank-bm25 for rank_bm25's)" >&2
fi
model_args=()
if [ -f "$model/model.safetensors" ]; then
  model=$(cd "$model" && pwd)
  model_args=(--model "$model")
else
  echo "note: no model at $model (bash scripts/fetch-model.sh, or set RELAY_MODEL):" >&2
  echo "      keyword search and BM25 only" >&2
  modes=keyword
fi

echo "# building relay (release)" >&2
cargo build --release --quiet --bin relay
relay=${CARGO_TARGET_DIR:-$repo/target}/release/relay
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src crates Cargo.toml || echo '+local changes')"
note="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"

mkdir -p "$work"
work=$(cd "$work" && pwd)
res=$work/results-locomo
rm -rf "$res"
mkdir -p "$res"

echo "# running the questions (modes: $modes); progress per conversation below" >&2
"$python" scripts/locomo/run.py "$data" --relay "$relay" --work "$res" --modes "$modes" \
  --door "$door" --cli-sample "$cli_sample" \
  "${model_args[@]}" --commit "$commit" --note "$note" \
  --command "bash scripts/bench-locomo.sh $(basename "$data")" > /dev/null
cat "$res/report.md"
