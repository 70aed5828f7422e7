#!/usr/bin/env bash
# The benchmark suite of docs/BENCHMARKS.md: relay against its peers (rg over .relay/, jq, and
# sqlite3 with FTS5 over the same records) on one generated corpus, each operation in one
# hyperfine run with its peers. Opt-in, not part of cargo test; the 1M run takes about an hour
# and ~8 GB of disk.
#
#   bash scripts/bench.sh [SIZE]     SIZE packages: 1000000 (default), 100000, or 10000 (quick)
#   bash scripts/bench.sh orient-budget
#                                    only orient within a 9,000-character budget, on a store of
#                                    its own (500 packages, 200 open questions, 300 facts in
#                                    the window, a file deliverable each, 50 of them changed
#                                    since: orient flags them; about a minute)
#
# Environment (all optional):
#   BENCH_DIR       work folder: corpus cache, stores, peer database, results (/tmp/relay-bench)
#   BENCH_SEED      generator seed (42)
#   BENCH_END       the corpus's newest moment (today, 00:00 UTC: so orient's window, relative
#                   pulls and deposits meet a store as busy as on any other day)
#   BENCH_FACTS     facts (250000) over BENCH_FACT_KEYS keys (5000); BENCH_SESSIONS (10000)
#   BENCH_RUNS      the most timed runs of a quick command (10); quick commands get at least 5
#                   (3 at 1M), slow ones 3 to 5; relay's search and FTS5, timed as a pair,
#                   3× BENCH_RUNS (at least 30) after 5 warm-ups
#   BENCH_ROWS      only these operations, comma-separated (e.g. search_phrase,status,startup);
#                   the store of an earlier run is reused when import is not among them
#   BENCH_BEFORE    another relay binary (an older build, same on-disk format), timed beside
#                   this one in every operation as "relay@before": before and after in one run
#   BENCH_SHAPE     the corpus's shape, so that no figure holds for one corpus only (default:
#                   the project's own, 20,000 words, Zipf 1.1, 15-54-word descriptions, relay's
#                   ids): vocab1k, vocab30k, vocab300k (distinct words), zipf0.8, zipf1.4 (the
#                   exponent), words10, words50, words500 (description length), ids-sequential
#                   (PKG-000001), ids-uuid, ids-prefix (a long prefix every id shares); every row
#                   runs on it, into results-SIZE-SHAPE/. scripts/bench_shapes.sh runs them all.
#
# Writes $BENCH_DIR/results-SIZE/: hyperfine JSON per operation (hf-*.json), peak RSS in KB
# (rss/*.txt), meta.json (machine, sizes, queries), and report.md (printed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

size=${1:-1000000}
only=
if [ "$size" = orient-budget ]; then
  only=$size size=0
fi
case $size in '' | *[!0-9]*)
  echo "usage: bash scripts/bench.sh [SIZE] (a number of packages, e.g. 10000)" >&2
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
shape=${BENCH_SHAPE:-default}
case $shape in
  default) shape_args=() ;;
  vocab1k) shape_args=(--vocab 1000) ;;
  vocab30k) shape_args=(--vocab 30000) ;;
  vocab300k) shape_args=(--vocab 300000) ;;
  zipf0.8) shape_args=(--zipf 0.8) ;;
  zipf1.4) shape_args=(--zipf 1.4) ;;
  words10) shape_args=(--words 10) ;;
  words50) shape_args=(--words 50) ;;
  words500) shape_args=(--words 500) ;;
  ids-sequential) shape_args=(--ids sequential) ;;
  ids-uuid) shape_args=(--ids uuid) ;;
  ids-prefix) shape_args=(--ids prefix) ;;
  *)
    echo "unknown BENCH_SHAPE '$shape': default, vocab1k, vocab30k, vocab300k, zipf0.8, zipf1.4, words10, words50, words500, ids-sequential, ids-uuid or ids-prefix" >&2
    exit 2
    ;;
esac
# Every file of a shape other than the default is named for it.
tag=$([ "$shape" = default ] || echo "-$shape")

# Tools.
missing=()
for tool in rg jq sqlite3 hyperfine python3; do
  command -v "$tool" > /dev/null || missing+=("$tool")
done
[ -x /usr/bin/time ] || missing+=("/usr/bin/time")
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench.sh needs ${missing[*]}; on Debian or Ubuntu:" >&2
  echo "  apt-get install ripgrep jq sqlite3 hyperfine time python3" >&2
  exit 2
fi
if ! sqlite3 :memory: "CREATE VIRTUAL TABLE t USING fts5(x)" 2> /dev/null; then
  echo "this sqlite3 ($(sqlite3 --version | cut -d' ' -f1)) is built without FTS5; the peer needs it" >&2
  exit 2
fi
if ! hyperfine --help | grep -q -- '--output'; then
  echo "hyperfine $(hyperfine --version) is too old: the suite needs --output (1.13 or later)" >&2
  exit 2
fi

echo "# building relay, the generator and the load clients (release)"
cargo build --release --quiet --bin relay --example gen_corpus --example watch_start --example load
relay=$repo/target/release/relay
gen=$repo/target/release/examples/gen_corpus
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src crates Cargo.toml Cargo.lock || echo '+local changes')"

mkdir -p "$work/bin"
work=$(cd "$work" && pwd)
# Both binaries run from one folder: where a binary lies moves a quick command by a millisecond.
# The older one is copied first: BENCH_BEFORE may name the bin/relay an earlier run left here,
# which the copy of this build would overwrite (every "before" was then this build itself).
if [ -n "${BENCH_BEFORE:-}" ]; then
  cp "$BENCH_BEFORE" "$work/bin/relay-before.tmp"
  mv "$work/bin/relay-before.tmp" "$work/bin/relay-before"
  BENCH_BEFORE=$work/bin/relay-before
fi
cp "$relay" "$work/bin/relay"
relay=$work/bin/relay
res=$work/results-${only:-$size}$tag
rm -rf "$res"
mkdir -p "$res/rss"
store=$work/store-$size$tag
empty=$work/empty-$size$tag
db=$work/peer-$size$tag.sqlite

# The corpus: a seeded import stream, generated once per (size, counts, seed, end day).
gen_args=(--packages "$size" --facts "$facts" --fact-keys "$fact_keys" --sessions "$sessions"
  --seed "$seed" --months 36 --end "$end" ${shape_args[@]+"${shape_args[@]}"})
stream=$work/corpus-${size}p-${facts}f-${sessions}s-seed$seed-${end%%T*}$tag.ndjson
"$gen" "${gen_args[@]}" --describe > "$res/corpus.json"
if [ -z "$only" ] && [ ! -s "$stream" ]; then
  echo "# generating $stream"
  /usr/bin/time -f "%e %M" -o "$res/generate.txt" "$gen" "${gen_args[@]}" --stream "$stream.tmp"
  mv "$stream.tmp" "$stream"
fi
field() { jq -r "$1" "$res/corpus.json"; }

# Everything relay runs is attributed to one script actor, outside any session.
export RELAY_ACTOR=bench RELAY_ACTOR_TYPE=script NO_COLOR=1
unset RELAY_SESSION RELAY_PROJECT RELAY_STORE 2> /dev/null || true

if [ "$size" -ge 1000000 ]; then min_runs=3 slow_runs=3; else min_runs=5 slow_runs=5; fi
# BENCH_RUNS below the floor raises no error: the floor wins.
quick=(-w 1 --min-runs "$min_runs" --max-runs "$((runs > min_runs ? runs : min_runs))")
slow=(-w 1 -r "$slow_runs")
# The runs of relay's search and FTS5's, timed as a pair (the search rows).
pair_runs=$((runs * 3 > 30 ? runs * 3 : 30))
prep=()

# op NAME "HYPERFINE OPTIONS" [--wrap] LABEL COMMAND [LABEL COMMAND]...
# Times the commands side by side (output piped, as a reader would take it), each after the
# --prepare commands in the array prep (one for all, or one per command). Commands run without
# a shell (hyperfine -N: nothing is subtracted, so nothing can go below zero); one that needs
# a shell (pipes, globs, redirections) is written "sh:COMMAND" and runs as bash -c 'COMMAND',
# its shell's start counted in. With --wrap each command runs under /usr/bin/time, which
# appends its peak RSS to rss/NAME--LABEL.txt on every run (about 1 ms more: for slow
# commands only); otherwise relay's peak RSS is taken in one more run afterwards.
slug() { printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_'; }
quote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
unshell() { case $1 in sh:*) echo "bash -c $(quote "${1#sh:}")" ;; *) echo "$1" ;; esac; }
# A row's second half (NAME_scanners, below) is selected with its row.
selected() { [ -z "${BENCH_ROWS:-}" ] || [[ ",$BENCH_ROWS," == *",${1%_scanners},"* ]]; }
op() {
  local name=$1 opts=$2 wrap=0
  shift 2
  if ! selected "$name"; then
    prep=()
    return 0
  fi
  if [ "${1:-}" = --wrap ]; then
    wrap=1
    shift
  fi
  local args=() labels=() cmds=()
  if [ -n "${BENCH_BEFORE:-}" ] && [[ $1 == relay* ]] && [[ $2 == *"$relay"* ]]; then
    # The same command by the older binary, right after relay's own.
    set -- "$1" "$2" "relay@before ${1#relay}" "${2//$relay/$BENCH_BEFORE}" "${@:3}"
    # One --prepare per command: the older binary's is relay's.
    if [ ${#prep[@]} -gt 2 ]; then
      prep=("${prep[@]:0:2}" "${prep[@]:0:2}" "${prep[@]:2}")
    fi
  fi
  while [ $# -gt 0 ]; do
    local cmd
    cmd=$(unshell "$2")
    if [ $wrap = 1 ]; then
      cmd="/usr/bin/time -f %M -a -o $res/rss/$name--$(slug "$1").txt $cmd"
    fi
    labels+=("$1")
    cmds+=("${2#sh:}")
    args+=(-n "$1" "$cmd")
    shift 2
  done
  local p prepare=()
  for p in "${prep[@]}"; do
    if [ "$p" = --prepare ]; then prepare+=("$p"); else prepare+=("$(unshell "sh:$p")"); fi
  done
  prep=()
  echo "## $name"
  # shellcheck disable=SC2086
  if ! hyperfine -N --style basic --output=pipe -i $opts "${prepare[@]}" \
    --export-json "$res/hf-$name.json" "${args[@]}" > "$res/hf-$name.txt" 2>&1; then
    cat "$res/hf-$name.txt" >&2
    exit 1
  fi
  grep -E '^(Benchmark|  Time)' "$res/hf-$name.txt" | paste - - | sed -E 's/ +/ /g' || true
  # Peers may exit 1 (rg finding nothing); relay must not fail.
  local failed
  failed=$(jq -r '.results[] | select((.command | startswith("relay")) and any(.exit_codes[]; . != 0)) | .command' "$res/hf-$name.json")
  if [ -n "$failed" ]; then
    echo "failed in hyperfine's runs: $failed (see $res/hf-$name.json)" >&2
    exit 1
  fi
  if [ $wrap = 0 ]; then
    local i
    for i in "${!labels[@]}"; do
      case ${labels[$i]} in relay*)
        if ! /usr/bin/time -f %M -o "$res/rss/$name--$(slug "${labels[$i]}").txt" \
          bash -c "${cmds[$i]}" | cat > /dev/null; then
          echo "failed: ${cmds[$i]}" >&2
          exit 1
        fi
        ;;
      esac
    done
  fi
}

# orient within a budget (a hook's cap): 9,000 characters out of a window of 500 packages (one
# in five a decision, in full), 200 open questions and 300 facts, built with relay itself once
# per work folder. Markdown and --json, with and without the budget; --limit 500 so the whole
# window is read.
orient_budget() {
  local ob=$work/orient-budget
  if [ ! -f "$ob/built" ]; then
    echo "# building $ob"
    rm -rf "$ob"
    mkdir -p "$ob"
    (cd "$ob" && "$relay" init --project bench -q > /dev/null)
    sed -i 's/^fsync = true/fsync = false/' "$ob/.relay/config.toml"
    local i now json
    now=$(date -u +%s)
    for i in $(seq 1 500); do
      json="{\"title\": \"Package $i: retry budget and cache warming in the ingest path\",
        \"description\": \"What changed in the ingest path for package $i, and why.\",
        \"created_at\": \"$(date -u -d "@$((now - i * 37 * 60))" +%Y-%m-%dT%H:%M:%SZ)\""
      if [ $((i % 5)) = 0 ]; then
        json+=", \"package_type\": \"decision\", \"significance\": 7,
          \"decisions_made\": [\"Decision $i: keep the cache warm across deploys\"]"
      fi
      if [ "$i" -le 200 ]; then
        json+=", \"open_questions\": [\"Question $i: should the retry budget grow with load?\"]"
      fi
      if [ $((i % 50)) = 1 ]; then
        json+=", \"handoff_note\": \"Handoff $i: the ingest path is yours; start with the retry budget\""
      fi
      # Each package names a file it wrote, with its hash: orient checks them all (stale
      # deliverables), and every tenth is rewritten after the deposit (same size, so it is
      # hashed to find out).
      mkdir -p "$ob/src"
      printf 'content of file %04d\n' "$i" > "$ob/src/f$i.txt"
      json+=", \"deliverables\": [{\"path\": \"src/f$i.txt\", \"type\": \"txt\",
        \"hash\": \"sha256:$(sha256sum "$ob/src/f$i.txt" | cut -d' ' -f1)\", \"size_bytes\": 21}]"
      printf '%s}' "$json" | "$relay" deposit --store "$ob/.relay" --from - -q > /dev/null
      if [ $((i % 10)) = 0 ]; then
        printf 'CONTENT OF FILE %04d\n' "$i" > "$ob/src/f$i.txt"
      fi
    done
    for i in $(seq 1 300); do
      "$relay" facts assert --store "$ob/.relay" "service-$i" status "healthy since build $i" -q > /dev/null
    done
    touch "$ob/built"
  fi
  # The indexes (and the file hashes) built from scratch, as after an import; the first orient
  # builds them.
  rm -rf "$ob/.relay/cache"
  "$relay" orient --store "$ob/.relay" --limit 500 > /dev/null
  local args="--store $ob/.relay --limit 500"
  op orient_budget "${quick[*]}" \
    "relay orient --max-chars 9000" "$relay orient $args --max-chars 9000" \
    "relay orient --json --max-chars 9000" "$relay orient $args --json --max-chars 9000" \
    "relay orient (no budget)" "$relay orient $args" \
    "relay orient --json (no budget)" "$relay orient $args --json"
}

if [ -n "$only" ]; then
  orient_budget
  jq -r '.results[] | "\(.command): median \(.median * 10000 | round / 10) ms"' \
    "$res/hf-orient_budget.json"
  echo "# results in $res"
  exit 0
fi

# The sizes of the files a command reads or writes, for MB/s.
bytes_of() { find -L "$@" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}'; }
store_bytes() {
  bytes_of "$store/.relay" -path "$store/.relay/cache" -prune -o -path "$store/.relay/local" -prune -o
}

# ---------------------------------------------------------------------------------------------
# import: relay import into a new store, against loading the same stream into sqlite3 (a table
# per kind, indexes on package_id, created_at and (subject, predicate), and an FTS5 index over
# the text fields, weighted as relay weighs them).
cat > "$res/load.sql" << EOF
.bail on
CREATE TEMP TABLE raw(line TEXT);
.mode ascii
.separator "\\037" "\\n"
.import $stream raw
.mode list
BEGIN;
CREATE TABLE projects(project_id TEXT PRIMARY KEY, json TEXT);
CREATE TABLE packages(
  package_id TEXT PRIMARY KEY, project_id TEXT, created_at TEXT, package_type TEXT,
  status TEXT, actor TEXT, session_id TEXT, significance INTEGER, title TEXT,
  description TEXT, decisions TEXT, questions TEXT, handoff TEXT, tags TEXT, json TEXT);
CREATE TABLE facts(
  fact_id TEXT PRIMARY KEY, project_id TEXT, subject TEXT, predicate TEXT, value TEXT,
  valid_from TEXT, valid_to TEXT, created_at TEXT, json TEXT);
CREATE TABLE sessions(
  session_id TEXT PRIMARY KEY, project_id TEXT, actor_id TEXT, callsign TEXT,
  started_at TEXT, ended_at TEXT, json TEXT);
INSERT INTO packages
  SELECT line->>'package_id', line->>'project_id', line->>'created_at', line->>'package_type',
         line->>'status', line->>'\$.created_by.id', line->>'\$.created_by.session_id',
         line->>'significance', line->>'title', line->>'description',
         (SELECT group_concat(value, char(10)) FROM json_each(line, '\$.decisions_made')),
         (SELECT group_concat(value, char(10)) FROM json_each(line, '\$.open_questions')),
         line->>'handoff_note',
         (SELECT group_concat(value, ' ') FROM json_each(line, '\$.tags')),
         line
  FROM raw WHERE line->>'package_id' IS NOT NULL;
INSERT INTO facts
  SELECT line->>'fact_id', line->>'project_id', line->>'subject', line->>'predicate',
         line->>'value', line->>'valid_from', line->>'valid_to', line->>'created_at', line
  FROM raw WHERE line->>'package_id' IS NULL AND line->>'fact_id' IS NOT NULL;
INSERT INTO sessions
  SELECT line->>'session_id', line->>'project_id', line->>'actor_id', line->>'callsign',
         line->>'started_at', line->>'ended_at', line
  FROM raw WHERE line->>'package_id' IS NULL AND line->>'fact_id' IS NULL
    AND line->>'session_id' IS NOT NULL;
INSERT INTO projects
  SELECT line->>'project_id', line FROM raw
  WHERE line->>'package_id' IS NULL AND line->>'fact_id' IS NULL
    AND line->>'session_id' IS NULL AND line->>'project_id' IS NOT NULL;
CREATE INDEX packages_created_at ON packages(created_at);
CREATE INDEX facts_key ON facts(subject, predicate, valid_from);
CREATE INDEX facts_current ON facts(subject, predicate) WHERE valid_to IS NULL;
CREATE VIRTUAL TABLE packages_fts USING fts5(
  title, description, decisions, questions, handoff, tags,
  content='packages', content_rowid='rowid', tokenize='porter unicode61');
INSERT INTO packages_fts(packages_fts) VALUES('rebuild');
INSERT INTO packages_fts(packages_fts, rank) VALUES('rank', 'bm25(3.0, 1.0, 2.0, 2.0, 2.0, 2.0)');
CREATE TRIGGER packages_fts_insert AFTER INSERT ON packages BEGIN
  INSERT INTO packages_fts(rowid, title, description, decisions, questions, handoff, tags)
  VALUES (new.rowid, new.title, new.description, new.decisions, new.questions, new.handoff,
          new.tags);
END;
COMMIT;
EOF
# The page cache is warmed before every timed run of a slow operation, not once: this kind of
# machine reclaims idle page cache within minutes, and a late row would read from disk.
cat "$stream" > /dev/null # warm the page cache
if ! selected import && [ ! -d "$store/.relay" ]; then
  BENCH_ROWS="$BENCH_ROWS,import" # no store from an earlier run: make it
fi
prep=(--prepare "cat $stream > /dev/null && rm -rf $store && mkdir -p $store && cd $store && $relay init --project bench -q > /dev/null"
  --prepare "cat $stream > /dev/null && rm -f $db")
op import "${slow[*]}" --wrap \
  "relay import" "$relay import --store $store/.relay $stream -q" \
  "sqlite3 load" "sh:sqlite3 $db < $res/load.sql"

cd "$store"
expect=$(($(wc -l < "$stream")))
counts=$("$relay" status --json | jq -c '[.packages, .facts.total, .sessions.total]')
# (A reused store holds the deposits of the runs before: only a fresh import is counted.)
if selected import && [ "$counts" != "[$size,$facts,$sessions]" ]; then
  echo "relay import left [packages, facts, sessions] = $counts; the stream has [$size,$facts,$sessions]" >&2
  exit 1
fi
find .relay -type f -exec cat {} + > /dev/null # warm the page cache

logs=.relay/projects/bench/packages
facts_file=.relay/projects/bench/facts.ndjson
sessions_file=.relay/projects/bench/sessions.ndjson
sq="sqlite3 -readonly $db"

# pull latest 20
op pull_latest "${quick[*]}" \
  "relay pull --latest 20" "$relay pull --latest 20 --json" \
  "jq | sort | head" "sh:jq -r '.package | [.created_at, .package_id, .title] | @tsv' $logs/*.ndjson | sort -r | head -20" \
  "sqlite3" "$sq \"SELECT json FROM packages WHERE status != 'draft' ORDER BY created_at DESC LIMIT 20\""

# pull specific
id=$(field .package_middle)
op pull_specific "${quick[*]}" \
  "relay pull ID" "$relay pull $id --json" \
  "rg -F ID" "rg -F --no-filename $id .relay/projects" \
  "jq select" "sh:jq -c 'select(.package.package_id == \"$id\") | .package' $logs/*.ndjson" \
  "sqlite3" "$sq \"SELECT json FROM packages WHERE package_id = '$id'\""

# relevant pull: 1 to 3 terms, rare to common, a phrase and a prefix. Each entry is
# NAME|relay's query|rg -i's pattern|FTS5's MATCH (relay's words are ORed in FTS5, as relay ranks
# every package holding any of them).
rare=$(field .words.rank_2000)
mid=$(field .words.rank_200)
common=$(field .words.rank_36)
three=$(field .words.rank_1000)
prefix=${mid:0:5}
queries=("rare~$rare~$rare~$rare" "mid~$mid~$mid~$mid" "common~$common~$common~$common"
  "two_terms~memory leak~memory|leak~memory OR leak"
  "three_terms~billing $three timeout~billing|$three|timeout~billing OR $three OR timeout"
  "phrase~\"memory leak\"~memory leak~\"memory leak\""
  "prefix~$prefix*~\\b$prefix~$prefix*")
for entry in "${queries[@]}"; do
  IFS='~' read -r name q alt fts <<< "$entry"
  selected "search_$name" || continue
  # relay and FTS5 answer in milliseconds, rg and jq in seconds. Timed in one hyperfine run,
  # the pair got at most 10 runs each, one of them right after jq's 30 s, and their ratio
  # moved by ±5% from run to run; so the pair is timed on its own with more warm-ups and runs,
  # then the scanners, and the two runs are kept as one row (relay first).
  op "search_$name" "-w 5 -r $pair_runs" \
    "relay search" "$relay search $(quote "$q") --limit 5 --json" \
    "sqlite3 FTS5" "$sq $(quote "SELECT p.json FROM packages_fts JOIN packages p ON p.rowid = packages_fts.rowid WHERE packages_fts MATCH '$fts' ORDER BY rank LIMIT 5")"
  op "search_${name}_scanners" "${quick[*]}" \
    "rg -i" "rg -i $(quote "$alt") $logs --no-filename" \
    "jq test()" "sh:jq -c 'select([.package | .title, .description, .handoff_note, (.decisions_made, .open_questions, .tags | arrays | .[])] | map(strings) | join(\" \") | test(\"${alt//\\/\\\\}\"; \"i\")) | .package' $logs/*.ndjson"
  pair=$res/hf-search_$name.json scanners=$res/hf-search_${name}_scanners.json
  jq -s '.[0].results += .[1].results | .[0]' "$pair" "$scanners" > "$pair.tmp"
  mv "$pair.tmp" "$pair"
  rm "$scanners"
done

# orient (its default 14-day window)
since=$(date -u -d '14 days ago' +%Y-%m-%dT%H:%M:%SZ)
op orient "${quick[*]}" \
  "relay orient" "$relay orient --json" \
  "sqlite3" "$sq \"SELECT json FROM packages WHERE created_at >= '$since' AND status != 'draft' ORDER BY created_at DESC; SELECT json FROM facts WHERE valid_to IS NULL ORDER BY subject, predicate\""

# facts get: the key with the longest history, and one with a short one
for which in busiest quiet; do
  subject=$(field ".fact_key_$which[0]")
  predicate=$(field ".fact_key_$which[1]")
  op "facts_get_$which" "${quick[*]}" \
    "relay facts get" "$relay facts get $subject $predicate --json" \
    "rg | rg" "sh:rg -F '\"subject\":\"$subject\",\"predicate\":\"$predicate\"' $facts_file | rg -F '\"valid_to\":null'" \
    "jq select" "jq -c 'select(.subject == \"$subject\" and .predicate == \"$predicate\" and .valid_to == null)' $facts_file" \
    "sqlite3" "$sq \"SELECT json FROM facts WHERE subject = '$subject' AND predicate = '$predicate' AND valid_to IS NULL\""
done
fact_keys_used="$(field '.fact_key_busiest | join(" ")'), $(field '.fact_key_quiet | join(" ")')"

# facts list: the current facts
op facts_list "${quick[*]}" \
  "relay facts list" "$relay facts list --json" \
  "rg -F" "rg -F '\"valid_to\":null' $facts_file" \
  "jq select" "jq -c 'select(.valid_to == null)' $facts_file" \
  "sqlite3" "$sq \"SELECT json FROM facts WHERE valid_to IS NULL ORDER BY subject, predicate\""

# status
op status "${quick[*]}" \
  "relay status" "$relay status --json" \
  "rg -c" "rg -c '' .relay/projects .relay/projects.ndjson" \
  "sqlite3" "$sq \"SELECT package_type, count(*) FROM packages GROUP BY 1; SELECT status, count(*) FROM packages GROUP BY 1; SELECT count(*), max(created_at) FROM packages; SELECT count(*), count(*) FILTER (WHERE valid_to IS NULL) FROM facts; SELECT count(*), count(*) FILTER (WHERE ended_at IS NULL) FROM sessions\""

# facts history at scale: every fact ever recorded (250k), each with its effective valid_to
op facts_history "${quick[*]}" \
  "relay facts list --include-ended" "$relay facts list --include-ended --json" \
  "jq -c" "jq -c . $facts_file" \
  "sqlite3" "$sq \"SELECT json FROM facts ORDER BY subject, predicate, valid_from\""

# process start: the least a command costs
op startup "-w 3 --min-runs 20 --max-runs 50" \
  "relay --version" "$relay --version" \
  "sqlite3 'select 1'" "sqlite3 :memory: 'select 1'"

# export: every record as one stream, written to a file
warm_all="find .relay -type f -exec cat {} + > /dev/null && cat $db > /dev/null"
prep=(--prepare "$warm_all")
op export "${slow[*]}" --wrap \
  "relay export" "sh:$relay export --out - > $work/export-relay.ndjson" \
  "sqlite3 SELECT" "sh:$sq \"SELECT json FROM projects; SELECT json FROM packages ORDER BY created_at; SELECT json FROM facts; SELECT json FROM sessions\" > $work/export-sqlite.ndjson" \
  "cat" "sh:cat .relay/projects.ndjson $logs/*.ndjson $facts_file $sessions_file > $work/export-cat.ndjson"
export_bytes=0
if [ -f "$work/export-relay.ndjson" ]; then export_bytes=$(bytes_of "$work/export-relay.ndjson"); fi
if ! selected export; then
  : # not run
elif [ "$(wc -l < "$work/export-relay.ndjson")" -ne "$expect" ]; then
  echo "warning: relay export wrote $(wc -l < "$work/export-relay.ndjson") lines; the stream has $expect" >&2
elif [ "$size" -le 100000 ] && ! cmp -s <(tail -n +2 "$stream" | sort) \
  <(grep -v '^{"project_id"' "$work/export-relay.ndjson" | sort); then
  # (The project record is init's, not the stream's: import leaves a present project alone.)
  echo "warning: relay export does not give back the imported stream's records" >&2
fi
rm -f "$work"/export-*.ndjson

# verify: every line checked
prep=(--prepare "$warm_all")
op verify "${slow[*]}" --wrap \
  "relay verify" "$relay verify -q" \
  "rg -c ''" "rg -c '' .relay/projects .relay/projects.ndjson" \
  "jq empty" "sh:jq empty .relay/projects.ndjson $logs/*.ndjson $facts_file $sessions_file" \
  "sqlite3 integrity_check" "$sq 'PRAGMA integrity_check'"

# deposit: into this store and into an empty one (the ratio is the point), and a sqlite INSERT
rm -rf "$empty"
mkdir -p "$empty"
(cd "$empty" && "$relay" init --project bench -q > /dev/null)
deposit_args="--title 'Benchmark deposit' --type decision --description 'Measuring the cost of one deposit on a large store' --decision 'Keep deposits append-only' --question 'Does the cost grow with the store?' --tag bench --json"
op deposit "-w 1 --min-runs 10 --max-runs $((runs > 10 ? runs : 10))" \
  "relay deposit" "$relay deposit --store $store/.relay $deposit_args" \
  "relay deposit (empty store)" "$relay deposit --store $empty/.relay $deposit_args" \
  "sqlite3 INSERT" "sqlite3 $db \"INSERT INTO packages(package_id, project_id, created_at, package_type, status, actor, title, description, decisions, questions, tags, json) VALUES ('pkg_' || lower(hex(randomblob(16))), 'bench', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'decision', 'complete', 'bench', 'Benchmark deposit', 'Measuring the cost of one deposit on a large store', 'Keep deposits append-only', 'Does the cost grow with the store?', 'bench', json_object('title', 'Benchmark deposit'))\""

# cold cache: the first command after cache/ is deleted rebuilds what it needs (NAME|LABEL|ARGS)
for row in "cold_search|relay search (no cache/)|search memory leak --limit 5 --json" \
  "cold_pull_latest|relay pull --latest 20 (no cache/)|pull --latest 20 --json" \
  "cold_status|relay status (no cache/)|status --json" \
  "cold_orient|relay orient (no cache/)|orient"; do
  IFS='|' read -r name label args <<< "$row"
  prep=(--prepare "rm -rf $store/.relay/cache")
  op "$name" "-w 0 -r 3" --wrap "$label" "$relay $args"
done
"$relay" search memory leak --limit 5 --json > /dev/null # leave the cache built

# after a checkout: git replaced the newest month's log (a new file). With the same bytes, the
# first read fingerprints that log again and keeps its index; with two lines swapped (the same
# length, as merging in another order gives), it rebuilds that month's index (each run swaps
# them again, so every run meets a log its index no longer matches).
newest=$(ls $logs/*.ndjson | tail -n 1)
rewrite_same="cp $newest $newest.new && mv $newest.new $newest"
swap_two="{ sed -n 2p $newest; sed -n 1p $newest; tail -n +3 $newest; } > $newest.new && mv $newest.new $newest"
"$relay" search memory leak --limit 5 --json > /dev/null
prep=(--prepare "$rewrite_same")
op checkout_same "-w 0 -r 5" \
  "relay search (log replaced, same bytes)" "$relay search memory leak --limit 5 --json"
prep=(--prepare "$swap_two")
op checkout_reordered "-w 0 -r 5" \
  "relay search (log replaced, two lines swapped)" "$relay search memory leak --limit 5 --json"
"$relay" search memory leak --limit 5 --json > /dev/null

if selected orient_budget; then orient_budget; fi

# watch start-up: from launch to printing the first record appended after it (a deposit every
# 20 ms until one is printed), relay (and BENCH_BEFORE) side by side; the first run of each,
# not counted, saves what its next start reads.
if selected watch_start; then
  echo "## watch_start"
  "$repo/target/release/examples/watch_start" "$store" "$relay" ${BENCH_BEFORE:+"$BENCH_BEFORE"} \
    --project bench --runs 5 | tee "$res/watch-start.md"
fi

# relay serve under load: 16 writers and 4 readers (pull --latest, search, pull by id, facts)
# for 60 s on a copy of this store (cache included, warm); p50/p99 per operation and the rate
# per 10 s window; then it checks every acknowledged deposit and runs relay verify. The copy
# keeps its deposits out of the store: a store the load wrote into would give the next run's
# readers the load's own titles (no words to search) and every later row a bigger newest month.
if selected http_load; then
  echo "## http_load"
  loaded=$work/store-$size-load
  rm -rf "$loaded"
  cp -a "$store" "$loaded"
  # The copy's logs are new files to the cache's witness (their inodes changed), so its first
  # reads would read every log whole: a search and a facts listing do that before the clock
  # starts, as the store itself had been read (the suite measures a warm cache).
  "$relay" --store "$loaded" search warm --limit 1 > /dev/null
  "$relay" --store "$loaded" facts list --json > /dev/null
  "$repo/target/release/examples/load" "$relay" --store "$loaded" --writers 16 --readers 4 \
    --seconds 60 | tee "$res/http-load.md"
  rm -rf "$loaded"
fi

# ---------------------------------------------------------------------------------------------
cache_bytes=$(bytes_of .relay/cache 2> /dev/null || echo 0)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
ram_kb=$(awk '/MemTotal/ {print $2}' /proc/meminfo)
jq -n \
  --arg date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  --arg commit "$commit" \
  --arg nproc "$(nproc)" --arg cpu "$cpu" --arg ram_kb "$ram_kb" --arg kernel "$(uname -sr)" \
  --arg fs "$(df -T "$work" | awk 'NR == 2 {print $2}')" --arg rustc "$(rustc --version)" \
  --arg tools "$(rg --version | sed -n 1p); $(jq --version); sqlite3 $(sqlite3 --version | cut -d' ' -f1); $(hyperfine --version)" \
  --arg size "$size" --arg seed "$seed" --arg end_at "$end" --arg stream "$stream" \
  --arg gen "$(cat "$res/generate.txt" 2> /dev/null || true)" \
  --arg stream_bytes "$(bytes_of "$stream")" --arg store_bytes "$(store_bytes)" \
  --arg cache_bytes "$cache_bytes" --arg export_bytes "$export_bytes" \
  --arg sqlite_bytes "$(bytes_of "$db")" --arg work "$work" \
  --arg queries "$(printf '%s\n' "${queries[@]}")" --arg pkg "$id" \
  --arg fact_key "$fact_keys_used" \
  --argjson corpus "$(cat "$res/corpus.json")" \
  '{date: $date, commit: $commit, size: ($size | tonumber), seed: ($seed | tonumber), "end": $end_at,
    stream: $stream, generate: $gen, work: $work,
    machine: {nproc: $nproc, cpu: $cpu, ram_gib: (($ram_kb | tonumber) / 1048576 * 10 | round / 10),
              kernel: $kernel, filesystem: $fs, rustc: $rustc, tools: $tools},
    bytes: {stream: ($stream_bytes | tonumber), store: ($store_bytes | tonumber),
            cache: ($cache_bytes | tonumber), export: ($export_bytes | tonumber),
            sqlite: ($sqlite_bytes | tonumber)},
    queries: ($queries | split("\n") | map(select(. != "") | split("~") | {(.[0]): .[1]}) | add),
    package: $pkg, fact_key: $fact_key, corpus: $corpus}' > "$res/meta.json"

python3 "$repo/scripts/bench_report.py" "$res" > "$res/report.md"
echo
cat "$res/report.md"
echo
echo "# results in $res (report.md, hf-*.json, rss/, meta.json)"
