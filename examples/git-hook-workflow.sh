#!/usr/bin/env bash
# Every commit becomes a context package: relay's git hooks in a scratch repository.
#
#   bash examples/git-hook-workflow.sh            # with relay on PATH
#   RELAY=target/debug/relay bash examples/git-hook-workflow.sh
set -euo pipefail
relay=${RELAY:-relay}
case $relay in */*) relay=$(cd "$(dirname "$relay")" && pwd)/$(basename "$relay") ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

git init -q
git config user.name "Ada Lovelace"
git config user.email ada@example.com
git config commit.gpgsign false

"$relay" init --project demo
"$relay" hook install --git       # post-commit: relay deposit --auto; pre-commit: relay scan --staged
git add .relay
git commit -q -m "Add the relay store"

echo "Sessions live in Redis from now on." > NOTES.md
git add NOTES.md
git commit -q -m "Move sessions to Redis" -m "Postgres took 10x the writes."

echo "--- relay pull --latest 1"
"$relay" pull --latest 1
# The post-commit hook deposited the commit: its subject is the package's title.
"$relay" pull --latest 1 --type auto_deposit --json | grep -q '"title":"Move sessions to Redis"'
echo "ok: the commit was deposited as an auto_deposit package"
