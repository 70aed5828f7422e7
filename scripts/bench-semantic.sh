#!/usr/bin/env bash
# Semantic and hybrid search at scale, for docs/BENCHMARKS.md: building the vector index from a
# cold cache, then queries by meaning in each mode, side by side in one hyperfine run with a
# numpy brute-force scan of the same stored vectors (scripts/model/brute_force.py). Opt-in, not
# part of cargo test; at 1M it takes about half an hour (more the first time: the corpus is
# generated and imported) and ~3 GB of disk.
#
#   bash scripts/bench-semantic.sh [SIZE]     SIZE packages: 1000000 (default), 100000, 10000
#
# Environment (all optional):
#   BENCH_DIR      work folder, shared with scripts/bench.sh and its corpus (/tmp/relay-bench)
#   BENCH_SEED, BENCH_END, BENCH_FACTS, BENCH_FACT_KEYS, BENCH_SESSIONS   as in bench.sh
#   BENCH_RUNS     the most timed runs of a query (10; at least 5)
#   RELAY_MODEL    the model folder (target/models/minilm-l6-fitted: bash scripts/fetch-model.sh)
#   BENCH_PYTHON   a python with numpy (target/model-venv/bin/python, which fetch-model.sh makes)
#   BENCH_DOCUMENTS  table (default): documents and queries embedded by the model's static table
#                  ([search] query_encoder = "static"), the numpy peer scanning the same vectors
#                  with the same query; transformer: the ONNX transformer of the model's onnx/
#                  (about 170 passages a second on two cores: ten minutes at 100k), no peer
#
# Writes $BENCH_DIR/results-semantic-SIZE-DOCUMENTS/: hyperfine JSON per query (hf-*.json), peak RSS in
# KB (rss/*.txt), build.txt, meta.json and report.md (printed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

size=${1:-1000000}
case $size in '' | *[!0-9]*)
  echo "usage: bash scripts/bench-semantic.sh [SIZE] (a number of packages, e.g. 10000)" >&2
  exit 2
  ;;
esac
seed=${BENCH_SEED:-42}
facts=${BENCH_FACTS:-250000}
fact_keys=${BENCH_FACT_KEYS:-5000}
sessions=${BENCH_SESSIONS:-10000}
end=${BENCH_END:-$(date -u +%Y-%m-%dT00:00:00Z)}
runs=${BENCH_RUNS:-10}
work=${BENCH_DIR:-/tmp/relay-bench}
model=${RELAY_MODEL:-$repo/target/models/minilm-l6-fitted}
python=${BENCH_PYTHON:-$repo/target/model-venv/bin/python}
documents=${BENCH_DOCUMENTS:-table}
case $documents in table) encoder=static ;; transformer) encoder=transformer ;; *)
  echo "BENCH_DOCUMENTS is table or transformer, not $documents" >&2
  exit 2
  ;;
esac

for tool in jq hyperfine curl /usr/bin/time; do
  command -v "$tool" > /dev/null || {
    echo "bench-semantic.sh needs $tool (apt-get install jq hyperfine curl time)" >&2
    exit 2
  }
done
if [ ! -f "$model/model.safetensors" ]; then
  echo "no model at $model: run bash scripts/fetch-model.sh, or set RELAY_MODEL" >&2
  exit 2
fi
if ! "$python" -c 'import numpy' 2> /dev/null; then
  echo "$python has no numpy: run bash scripts/fetch-model.sh (it makes target/model-venv)," >&2
  echo "or set BENCH_PYTHON to a python that has numpy" >&2
  exit 2
fi
model=$(cd "$model" && pwd)

echo "# building relay and the generator (release)"
cargo build --release --quiet --bin relay --example gen_corpus
relay=$repo/target/release/relay
gen=$repo/target/release/examples/gen_corpus
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml || echo '+local changes')"

mkdir -p "$work"
work=$(cd "$work" && pwd)
res=$work/results-semantic-$size-$documents
rm -rf "$res"
mkdir -p "$res/rss"
store=$work/semantic-$size

# The corpus and its generation are bench.sh's, so the two suites share one file.
gen_args=(--packages "$size" --facts "$facts" --fact-keys "$fact_keys" --sessions "$sessions"
  --seed "$seed" --months 36 --end "$end")
stream=$work/corpus-${size}p-${facts}f-${sessions}s-seed$seed-${end%%T*}.ndjson
if [ ! -s "$stream" ]; then
  echo "# generating $stream"
  "$gen" "${gen_args[@]}" --stream "$stream.tmp"
  mv "$stream.tmp" "$stream"
fi

export RELAY_ACTOR=bench RELAY_ACTOR_TYPE=script NO_COLOR=1 RELAY_MODEL=$model
unset RELAY_SESSION RELAY_PROJECT RELAY_STORE 2> /dev/null || true

# The store: imported once per corpus, kept between runs.
if [ "$(cat "$store/.corpus" 2> /dev/null)" != "$stream" ]; then
  echo "# importing $stream into $store"
  rm -rf "$store"
  mkdir -p "$store"
  (cd "$store" && "$relay" init --project bench -q > /dev/null && "$relay" import "$stream" -q)
  echo "$stream" > "$store/.corpus"
fi
cd "$store"
# What embeds documents and queries (see BENCH_DOCUMENTS).
grep -v '^query_encoder' .relay/config.toml > .relay/config.toml.tmp
if grep -q '^\[search\]' .relay/config.toml.tmp; then
  sed -i "/^\[search\]/a query_encoder = \"$encoder\"" .relay/config.toml.tmp
else
  printf '\n[search]\nquery_encoder = "%s"\n' "$encoder" >> .relay/config.toml.tmp
fi
mv .relay/config.toml.tmp .relay/config.toml
find .relay/projects -type f -exec cat {} + > /dev/null # warm the page cache
# The keyword index first, so that the cold run below builds vectors only.
"$relay" search memory leak --mode keyword --limit 1 > /dev/null

# 1. The vector index from a cold cache (the text cache too): one timed `relay index` (its
# peak RSS too), then its size.
echo "## build: every package's vectors ($documents), from a cold cache"
rm -rf .relay/cache/vectors-v3
/usr/bin/time -f "%e %M" -o "$res/build.txt" "$relay" index --quiet > /dev/null
vector_bytes=$(find .relay/cache/vectors-v3 -name '*.vec' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
echo "$(cut -d' ' -f1 "$res/build.txt") s, peak RSS $(cut -d' ' -f2 "$res/build.txt") KB, $vector_bytes bytes of vectors"

# 2. Queries: paraphrases (no word shared with what they should find) and a plain one.
min_runs=5
opts=(-N --style basic --output=pipe -w 1 --min-runs "$min_runs" --max-runs "$((runs > min_runs ? runs : min_runs))")
queries=("bills|bills show the wrong day"
  "connections|database connections exhausted when traffic spikes"
  "plain|memory leak in the worker")
for entry in "${queries[@]}"; do
  name=${entry%%|*}
  q=${entry#*|}
  echo "## query_$name: $q"
  peer=()
  if [ "$documents" = table ]; then
    peer=(-n "numpy brute force" "$python $repo/scripts/model/brute_force.py $model $store/.relay '$q' 5")
  fi
  hyperfine "${opts[@]}" --export-json "$res/hf-query_$name.json" \
    -n "relay semantic" "$relay search '$q' --mode semantic --limit 5 --json" \
    -n "relay hybrid" "$relay search '$q' --mode hybrid --limit 5 --json" \
    -n "relay keyword" "$relay search '$q' --mode keyword --limit 5 --json" \
    "${peer[@]}" \
    > "$res/hf-query_$name.txt" 2>&1 || {
    cat "$res/hf-query_$name.txt" >&2
    exit 1
  }
  grep -E '^(Benchmark|  Time)' "$res/hf-query_$name.txt" | paste - - | sed -E 's/ +/ /g' || true
  for mode in semantic hybrid keyword; do
    /usr/bin/time -f %M -o "$res/rss/query_$name--relay_$mode.txt" \
      "$relay" search "$q" --mode "$mode" --limit 5 --json > /dev/null
  done
  if [ "$documents" = table ]; then
    /usr/bin/time -f %M -o "$res/rss/query_$name--numpy_brute_force.txt" \
      "$python" "$repo/scripts/model/brute_force.py" "$model" "$store/.relay" "$q" 5 > /dev/null
  fi
done

# 2b. The same queries through `relay serve`, where the model and its query transformer are
# loaded once (as in `relay mcp`): curl against the HTTP API's relevant pull.
echo "## served: hybrid and semantic queries through relay serve (model loaded once)"
"$relay" serve --listen 127.0.0.1:0 > "$res/serve.out" 2> "$res/serve.err" &
serve_pid=$!
trap 'kill $serve_pid 2> /dev/null || true' EXIT
for _ in $(seq 100); do
  url=$(head -n 1 "$res/serve.out" | grep -o 'http://[0-9.:]*' || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || {
  echo "relay serve did not start:" >&2
  cat "$res/serve.err" >&2
  exit 1
}
curl -sf "$url/v1/projects/bench/packages?mode=relevant&query=warm&search=semantic&limit=5" > /dev/null
for entry in "${queries[@]}"; do
  name=${entry%%|*}
  q=$(printf %s "${entry#*|}" | jq -sRr @uri)
  hyperfine "${opts[@]}" --export-json "$res/hf-served_$name.json" \
    -n "served hybrid" "curl -sf '$url/v1/projects/bench/packages?mode=relevant&query=$q&search=hybrid&limit=5'" \
    -n "served semantic" "curl -sf '$url/v1/projects/bench/packages?mode=relevant&query=$q&search=semantic&limit=5'" \
    -n "served keyword" "curl -sf '$url/v1/projects/bench/packages?mode=relevant&query=$q&search=keyword&limit=5'" \
    > "$res/hf-served_$name.txt" 2>&1 || {
    cat "$res/hf-served_$name.txt" >&2
    exit 1
  }
  grep -E '^(Benchmark|  Time)' "$res/hf-served_$name.txt" | paste - - | sed -E 's/ +/ /g' || true
done
kill $serve_pid 2> /dev/null || true

# 3. Incremental: a deposit, then the first semantic search after it (which embeds that one
# package and keeps the rest of the file).
echo "## after_deposit: a semantic search after each deposit"
hyperfine "${opts[@]}" --export-json "$res/hf-after_deposit.json" \
  --prepare "$relay deposit --title 'Benchmark deposit about invoices' --decision 'Keep it' -q" \
  -n "relay semantic (after a deposit)" "$relay search 'bills show the wrong day' --mode semantic --limit 5 --json" \
  > "$res/hf-after_deposit.txt" 2>&1 || {
  cat "$res/hf-after_deposit.txt" >&2
  exit 1
}
grep -E '^(Benchmark|  Time)' "$res/hf-after_deposit.txt" | paste - - | sed -E 's/ +/ /g' || true

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
jq -n --arg date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --arg commit "$commit" --arg size "$size" \
  --arg nproc "$(nproc)" --arg cpu "$cpu" --arg build "$(cat "$res/build.txt")" \
  --arg vector_bytes "$vector_bytes" --arg model "$model" --arg documents "$documents" \
  --arg model_id "$(cat "$model/config.json" "$model/model.safetensors" "$model/tokenizer.json" | sha256sum | cut -c1-16)" \
  --arg queries "$(printf '%s\n' "${queries[@]}")" \
  '{date: $date, commit: $commit, size: ($size | tonumber), machine: {nproc: $nproc, cpu: $cpu},
    build: {seconds: ($build | split(" ")[0] | tonumber), peak_rss_kb: ($build | split(" ")[1] | tonumber)},
    vector_bytes: ($vector_bytes | tonumber), model: $model, documents: $documents,
    model_files_sha256_prefix: $model_id,
    queries: ($queries | split("\n") | map(select(. != "") | split("|") | {(.[0]): .[1]}) | add)}' \
  > "$res/meta.json"

"$python" - "$res" > "$res/report.md" << 'EOF'
import glob, json, os, statistics, sys
res = sys.argv[1]
meta = json.load(open(os.path.join(res, "meta.json")))
b = meta["build"]
n = meta["size"]
print(f"# Semantic search at {n:,} packages, documents by the {meta['documents']} ({meta['date']}, relay {meta['commit']})\n")
print(f"{meta['machine']['nproc']} cores, {meta['machine']['cpu']}\n")
print(f"Vectors from a cold cache: {b['seconds']:.1f} s ({n / b['seconds']:,.0f} packages/s), "
      f"peak RSS {b['peak_rss_kb'] / 1024:.0f} MB, {meta['vector_bytes'] / 1e6:.0f} MB of vectors\n")
print("| query | command | median | min | max | peak RSS | / numpy |")
print("|---|---|---|---|---|---|---|")
for path in sorted(glob.glob(os.path.join(res, "hf-*.json"))):
    name = os.path.basename(path)[3:-5]
    results = json.load(open(path))["results"]
    peer = next((r for r in results if r["command"].startswith("numpy")), None)
    for r in results:
        slug = "".join(c if c.isalnum() or c in "._-" else "_" for c in r["command"])
        rss_file = os.path.join(res, "rss", f"{name}--{slug}.txt")
        rss = f"{int(open(rss_file).read().split()[-1]) / 1024:.0f} MB" if os.path.exists(rss_file) else ""
        ratio = f"{r['median'] / peer['median']:.2f}" if peer else ""
        print(f"| {name} | {r['command']} | {r['median'] * 1000:.0f} ms | {r['min'] * 1000:.0f} ms "
              f"| {r['max'] * 1000:.0f} ms | {rss} | {ratio} |")
EOF
echo
cat "$res/report.md"
echo
echo "# results in $res (report.md, hf-*.json, rss/, meta.json)"
