# Try it on the mock first: a Team key of your choosing, then the check as CI runs it.
node_modules/.bin/investor-graph-mock --port "${PORT:-4010}" --key team=igk_team_ci_example_key_00001 > /dev/null &
MOCK=$!
# Wait quietly (up to 30 s) until it answers.
for _ in $(seq 150); do curl -s -o /dev/null "http://127.0.0.1:${PORT:-4010}/api/v1/openapi.json" && break; sleep 0.2; done
# --no: the project's own command, never a package of that name fetched from npm.
INVESTOR_GRAPH_KEY=igk_team_ci_example_key_00001 \
  npx --no -- investor-graph-check-api "http://127.0.0.1:${PORT:-4010}" --budget-calls 60
echo "check-api exit code: $?"
kill "$MOCK"
