# Build k6 once (Go, from the module proxy), then the Team plan's script at 5 req/s against the mock.
K6="$(bash node_modules/@investor-graph/load/install-k6.sh)"
"$K6" run --no-usage-report -e BASE_URL="${BASE_URL:-http://127.0.0.1:4010}" -e DURATION="${DURATION:-30s}" node_modules/@investor-graph/load/team.js
