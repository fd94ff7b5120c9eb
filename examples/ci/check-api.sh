#!/usr/bin/env bash
# Checks a live Investor Graph API against the kit, the way a CI pipeline would:
#   1. lint the contract the service serves (GET /api/v1/openapi.json) with the kit's Spectral ruleset;
#   2. run the property-based contract tests within a budget of calls;
#   3. a short k6 smoke run at the key's plan rate (the at_rate scenario only).
# Every step runs even when an earlier one fails, so all three JUnit files are there to read.
#
#   INVESTOR_GRAPH_KEY=igk_... bash examples/ci/check-api.sh https://api.example.com
#
# Run it from a project that has the kit's packages installed (README, Install: the line for CI),
# or from the kit's clone: every tool is found in ./node_modules, nothing is fetched.
#
# Environment:
#   INVESTOR_GRAPH_KEY    the key to test with (a key of its own: the tests count its calls)
#   INVESTOR_GRAPH_EMAIL  instead of a key: get a free trial key for this address
#   RESULTS_DIR           where the reports go (api-check-results)
#   BUDGET_CALLS          most calls the contract tests may make (200)
#   SMOKE_DURATION        length of the k6 smoke run (10s; not K6_DURATION, which k6 itself reads)
#   K6_BIN                a k6 binary; otherwise built once with Go by @investor-graph/load's install-k6.sh
# Exit: 0 when all three held, 1 when one failed, 2 on bad usage.
set -uo pipefail

BASE_URL="${1:-${BASE_URL:-}}"
BASE_URL="${BASE_URL%/}"
OUT="${RESULTS_DIR:-api-check-results}"
usage() { echo "check-api: $1" >&2; echo "usage: INVESTOR_GRAPH_KEY=... bash examples/ci/check-api.sh BASE_URL" >&2; exit 2; }
[[ "$BASE_URL" =~ ^https?://[^/]+ ]] || usage "give the API's base URL (http or https), got '${BASE_URL}'"
mkdir -p "$OUT" || usage "cannot create $OUT"
OUT="$(cd "$OUT" && pwd)"

# Where an installed package lives, and the file it exports, as Node resolves them from here.
package_dir() { node -e 'console.log(require("path").dirname(require.resolve(process.argv[1] + "/package.json")))' "$1"; }
package_entry() { node --input-type=module -e 'import { fileURLToPath } from "node:url"; console.log(fileURLToPath(import.meta.resolve(process.argv[1])))' "$1"; }

# JSON read with the Node the kit already needs, not jq.
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=process.argv[1].split(".").reduce((o,k)=>o?.[k],JSON.parse(s));if(v==null)process.exit(1);console.log(v)})' "$1"; }

if [ -z "${INVESTOR_GRAPH_KEY:-}" ]; then
  [ -n "${INVESTOR_GRAPH_EMAIL:-}" ] || usage "set INVESTOR_GRAPH_KEY, or INVESTOR_GRAPH_EMAIL for a trial key"
  body="$(node -e 'console.log(JSON.stringify({email:process.argv[1]}))' "$INVESTOR_GRAPH_EMAIL")"
  answer="$(curl -sS -X POST -H 'content-type: application/json' -d "$body" "$BASE_URL/api/v1/keys/trial")"
  INVESTOR_GRAPH_KEY="$(json key <<<"$answer")" \
    || usage "no trial key from $BASE_URL/api/v1/keys/trial: $(json detail <<<"$answer" || echo "${answer:0:200}")"
fi
export INVESTOR_GRAPH_KEY

# The key's plan picks the k6 script (its rate); the key itself is never printed.
PLAN="$(curl -sS -H "authorization: Bearer $INVESTOR_GRAPH_KEY" "$BASE_URL/api/v1/account" | json data.plan.id)" \
  || usage "$BASE_URL/api/v1/account did not accept the key"
echo "[check-api] $BASE_URL, a $PLAN key; reports in $OUT"

failed=()

echo "[check-api] 1/3 lint the served contract"
# The kit's ruleset by its installed path, so the ruleset file may sit anywhere (here: with the reports).
if curl -fsS "$BASE_URL/api/v1/openapi.json" -o "$OUT/openapi.json" && RULESET="$(package_entry @investor-graph/spectral-ruleset)"; then
  echo "extends: [\"$RULESET\"]" > "$OUT/.spectral.yaml"
  npx --no -- spectral lint "$OUT/openapi.json" --ruleset "$OUT/.spectral.yaml" --fail-severity=warn \
    -f stylish -f junit --output.junit "$OUT/lint.xml" || failed+=(lint)
else
  failed+=(lint)
fi

echo "[check-api] 2/3 contract tests"
npx --no -- investor-graph-contract-tests --base-url "$BASE_URL" --plan "$PLAN" --budget-calls "${BUDGET_CALLS:-200}" \
  --junit "$OUT/contract-tests.xml" --report "$OUT/contract-tests.json" || failed+=(contract-tests)

echo "[check-api] 3/3 k6 smoke at the $PLAN rate"
LOAD="$(package_dir @investor-graph/load)" || failed+=(k6-scripts)
K6="${K6_BIN:-}"
[ -n "$K6" ] || [ -z "$LOAD" ] || K6="$(bash "$LOAD/install-k6.sh")" || failed+=(k6-build)
if [ -n "$K6" ] && [ -n "$LOAD" ]; then
  # API_KEY reaches k6 from the environment, not the command line (no key in `ps`). The run writes
  # PLAN.summary.json, PLAN.junit.xml, the raw samples and PLAN.report.html beside the other reports.
  API_KEY="$INVESTOR_GRAPH_KEY" npx --no -- investor-graph-load run "$PLAN" --results "$OUT" --k6 "$K6" -- -q \
    -e BASE_URL="$BASE_URL" -e SCENARIOS=at_rate -e DURATION="${SMOKE_DURATION:-10s}" || failed+=(k6)
fi

if [ ${#failed[@]} -eq 0 ]; then
  echo "[check-api] all held: lint, contract tests, k6 smoke"
else
  echo "[check-api] FAILED: ${failed[*]} (JUnit in $OUT)"
  exit 1
fi
