# The mock on port 4010 with a key your app's config can keep, then your app's first call.
# (In a terminal of its own it is just `npx --no -- investor-graph-mock --key team=...`; a script that
# stops it again runs the bin itself, since stopping npx leaves what it started running.)
PORT="${PORT:-4010}"
node_modules/.bin/investor-graph-mock --port "$PORT" --key team=igk_team_local_development_key0 &
MOCK=$!
# Wait quietly (up to 30 s) until it answers, then make the call.
for _ in $(seq 150); do curl -s -o /dev/null "http://127.0.0.1:$PORT/api/v1/openapi.json" && break; sleep 0.2; done
curl -sS -H 'Authorization: Bearer igk_team_local_development_key0' "http://127.0.0.1:$PORT/api/v1/firms?limit=2"
kill "$MOCK"
