#!/usr/bin/env bash
# Two agent sessions hand work over through relay: the first deposits decisions, an open question
# and a handoff note; the second starts with `relay orient` and finds them.
#
#   bash examples/agent-handoff.sh                # with relay on PATH
#   RELAY=target/debug/relay bash examples/agent-handoff.sh
set -euo pipefail
relay=${RELAY:-relay}
case $relay in */*) relay=$(cd "$(dirname "$relay")" && pwd)/$(basename "$relay") ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$relay" init --project demo

echo "--- session 1"
"$relay" session start --actor agent-one --actor-type agent
"$relay" deposit --title "Moved sessions to Redis" --type decision \
  --decision "Redis over Postgres for sessions: 10x fewer writes" \
  --question "Do sessions need to survive a restart?" \
  --handoff "Load-test the Redis cluster before Friday" --next-actor agent
"$relay" session end

echo "--- session 2"
"$relay" session start --actor agent-two --actor-type agent
"$relay" orient > orient.md
cat orient.md
grep -q "Load-test the Redis cluster before Friday" orient.md
grep -q "Do sessions need to survive a restart?" orient.md
"$relay" session end
echo "ok: session 2 was briefed with session 1's handoff"
