# The Team plan's script at 5 req/s against the mock (k6 is built once with Go, from the module
# proxy); summary, JUnit, raw samples and an HTML report land in ./load-results/ ($RESULTS_DIR).
npx --no -- investor-graph-load run team -- -e BASE_URL="${BASE_URL:-http://127.0.0.1:4010}" -e DURATION="${DURATION:-30s}"
