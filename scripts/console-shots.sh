#!/usr/bin/env bash
# Screenshots of the web console for docs/console/: seeds a demo store in a scratch folder
# (Markdown in the fields, deliverables with a URL and stale files, every status, facts, a
# flagged package), starts `relay ui` on it and shoots each page at desktop and phone widths
# with scripts/console-shots.py (headless Chromium + Selenium).
#
#   scripts/console-shots.sh [OUT_DIR]   # default docs/console
#
# Needs: a built relay (RELAY, default target/debug/relay), a python with selenium
# (PYTHON, default target/mcp-venv/bin/python), chromium and chromedriver.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/docs/console}")
relay=$(realpath "${RELAY:-$root/target/debug/relay}")
python=${PYTHON:-$root/target/mcp-venv/bin/python}
demo=$(mktemp -d)
trap 'kill "${ui:-}" 2>/dev/null || true; rm -rf "$demo"' EXIT
cd "$demo"
git init -q . && git config user.email ana@example.org && git config user.name Ana
export RELAY_ACTOR=ana RELAY_ACTOR_TYPE=human NO_COLOR=1
"$relay" init -q --project billing >/dev/null
mkdir -p docs src && echo "# Export spec" >docs/export.md && echo "fn main() {}" >src/export.rs
echo "old" >docs/old-notes.md
printf '%s\n' '## Plan' '' '- stream the rows of a month' '- one file per month, named by it' '' \
  '| Column | Format |' '|---|---|' '| date | `YYYY-MM-DD` |' '| amount | cents, no separators |' >plan.md
spec=$("$relay" deposit -q --type decision --title "CSV export for invoices" \
  --description $'Adds **CSV export** to the invoice list.\n\n- one file per month\n- `UTF-8`, RFC 4180 quoting ([spec](https://www.rfc-editor.org/rfc/rfc4180))\n\n<script>alert(1)</script> and [a trap](javascript:alert(1)) stay text.' \
  --decision "Stream rows with **csv::Writer**; never buffer a month" \
  --decision "Dates as \`YYYY-MM-DD\`" \
  --question "Do finance users need \`xlsx\` too?" \
  --handoff $'Next:\n\n1. wire the *Export* button\n2. add a test for an empty month' \
  --deliverable docs/export.md --deliverable src/export.rs --deliverable docs/old-notes.md \
  --deliverable https://example.org/designs/export \
  --content-md plan.md --tag billing --tag export | cut -d' ' -f1)
echo "# Export spec, revised" >>docs/export.md && rm docs/old-notes.md
"$relay" deposit -q --title "Timezone bug in invoice dates" --tag bug --parent "$spec" \
  --description "Invoices issued after 23:00 UTC showed the next day (found while testing $spec). Fixed in \`src/dates.rs\`." >/dev/null
review=$("$relay" deposit -q --title "Rotate the signing keys" --status draft --tag security \
  --description "Rotates the **signing keys**; see the runbook." | cut -d' ' -f1)
"$relay" review flag "$review" --human --note "needs a person to check the runbook" >/dev/null
agent=$(RELAY_ACTOR=claude RELAY_ACTOR_TYPE=agent "$relay" deposit -q --title "Refactor the PDF renderer" \
  --status awaiting_review --review agent --tag pdf | cut -d' ' -f1)
RELAY_ACTOR=claude RELAY_ACTOR_TYPE=agent "$relay" deposit -q --title "Draft: retry webhooks" --status draft --tag webhooks >/dev/null
changes=$("$relay" deposit -q --title "Dunning emails" --status awaiting_review --review human --tag email | cut -d' ' -f1)
"$relay" review request-changes "$changes" --note "add the German template" >/dev/null
"$relay" facts assert invoices format csv --source "$spec" -q >/dev/null
"$relay" facts assert invoices owner ana -q >/dev/null
"$relay" facts assert export status building --valid-from 2026-01-01T00:00:00Z -q >/dev/null
"$relay" facts assert export status live --valid-from 2026-02-01T00:00:00Z -q >/dev/null
"$relay" ui --no-open >"$demo/link" 2>"$demo/ui.err" &
ui=$!
for _ in $(seq 50); do [ -s "$demo/link" ] && break; sleep 0.2; done
link=$(head -1 "$demo/link")
"$python" "$root/scripts/console-shots.py" "$link" "$out" <<PAGES
package /packages/$spec
search /search?q=invoice&mode=keyword
timeline /
orient /orient
facts /facts
facts-as-of /facts?as_of=2026-01-15
review /review
review-error review-error
PAGES
