#!/usr/bin/env bash
# Two relay builds side by side on one generated store (a copy each, since their caches may
# differ): the reads, a deposit, the first search after a checkout replaced the newest month's
# log (same bytes, then two lines swapped) and after cache/ is deleted, each pair in one
# hyperfine run. Prints medians and CPU times. Opt-in, never part of cargo test.
#
#   bash scripts/bench-compare.sh BEFORE_RELAY AFTER_RELAY [SIZE]
#
# BEFORE_RELAY / AFTER_RELAY: release binaries (e.g. built in a git worktree of the older
# commit). SIZE: packages (1000000 by default; 250,000 facts and 10,000 sessions at 1M, a
# tenth of each below). Needs hyperfine, jq and python3. Work folder: $BENCH_DIR
# (/tmp/relay-compare). Uses target/release/examples/gen_corpus (built here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: bash scripts/bench-compare.sh BEFORE_RELAY AFTER_RELAY [SIZE]" >&2; exit 2; }
B=$(realpath "$1") N=$(realpath "$2") size=${3:-1000000}
facts=$((size >= 1000000 ? 250000 : size / 4)) sessions=$((size >= 1000000 ? 10000 : size / 100))
work=${BENCH_DIR:-/tmp/relay-compare}
cargo build --release --quiet --example gen_corpus
G=$PWD/target/release/examples/gen_corpus
mkdir -p "$work" && cd "$work"
stream=corpus-$size.ndjson
[ -s "$stream" ] || "$G" --packages "$size" --facts "$facts" --fact-keys 5000 --sessions "$sessions" \
  --seed 42 --months 36 --end "$(date -u +%Y-%m-%dT00:00:00Z)" --stream "$stream"
for x in b n; do rm -rf $x && mkdir $x; done
(cd b && "$B" init --project bench -q && "$B" import "../$stream" -q > /dev/null)
(cd n && "$N" init --project bench -q && "$N" import "../$stream" -q > /dev/null)
export RELAY_ACTOR=bench RELAY_ACTOR_TYPE=script NO_COLOR=1
for x in b n; do
  R=$B; [ $x = n ] && R=$N
  (cd $x && $R search memory leak > /dev/null 2>&1 && $R pull --latest 20 > /dev/null && $R facts list > /dev/null && $R orient > /dev/null)
done
id=$(cd n && "$N" pull --latest 1 --json | jq -r '.package.package_id // .package_id' | head -1)
D="--title 'Benchmark deposit' --type decision --description 'Measuring the cost of one deposit on a large store' --decision 'Keep deposits append-only' --tag bench --json"
hyperfine -N -w 2 -r 20 --export-json hf-reads.json \
  "$B --store b/.relay pull --latest 20 --json" "$N --store n/.relay pull --latest 20 --json" \
  "$B --store b/.relay pull $id --json" "$N --store n/.relay pull $id --json" \
  "$B --store b/.relay search memory leak --limit 5 --json" "$N --store n/.relay search memory leak --limit 5 --json" \
  "$B --store b/.relay orient --json" "$N --store n/.relay orient --json" \
  "$B --store b/.relay facts list --json" "$N --store n/.relay facts list --json" > /dev/null 2>&1
hyperfine -w 3 -r 30 --export-json hf-deposit.json \
  "$B --store b/.relay deposit $D" "$N --store n/.relay deposit $D" > /dev/null 2>&1
NB=b/.relay/projects/bench/packages/$(ls b/.relay/projects/bench/packages | tail -1)
NN=n/.relay/projects/bench/packages/$(ls n/.relay/projects/bench/packages | tail -1)
search="search memory leak --limit 5 --json"
hyperfine -N -w 0 -r 5 --export-json hf-same.json \
  --prepare "bash -c 'cp $NB $NB.new && mv $NB.new $NB && cp $NN $NN.new && mv $NN.new $NN'" \
  "$B --store b/.relay $search" "$N --store n/.relay $search" > /dev/null 2>&1
swap() { echo "{ sed -n 2p $1; sed -n 1p $1; tail -n +3 $1; } > $1.new && mv $1.new $1"; }
hyperfine -N -w 0 -r 5 --export-json hf-swap.json --prepare "bash -c '$(swap "$NB"); $(swap "$NN")'" \
  "$B --store b/.relay $search" "$N --store n/.relay $search" > /dev/null 2>&1
hyperfine -N -w 0 -r 3 --export-json hf-cold.json --prepare "rm -rf b/.relay/cache n/.relay/cache" \
  "$B --store b/.relay $search" "$N --store n/.relay $search" > /dev/null 2>&1
python3 - << 'PY'
import json, statistics
for f in ["hf-reads", "hf-deposit", "hf-same", "hf-swap", "hf-cold"]:
    for r in json.load(open(f + ".json"))["results"]:
        side = "before" if "b/.relay" in r["command"] else "after "
        what = r["command"].split(".relay ", 1)[1][:60]
        print(f"{f:10} {side} {statistics.median(r['times']) * 1000:9.2f} ms  "
              f"user {r['user'] * 1000:8.2f} ms  sys {r['system'] * 1000:7.2f} ms  {what}")
PY
