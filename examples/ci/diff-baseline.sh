# The contract your service serves against the kit's, then against the one kept from the last run,
# if there is one: each exits 1 on a change that breaks clients (or when the service serves no
# contract it can read), which ends the script. Only a contract that passed both is kept, for the
# next run to compare with.
set -e
BASE_URL="${BASE_URL:-https://api.example.com}"
npx --no -- investor-graph-contract-tests diff --base-url "$BASE_URL"
if [ -f last-contract.json ]; then
  npx --no -- investor-graph-contract-tests diff --base-url "$BASE_URL" --baseline last-contract.json
fi
curl -sS --fail -o last-contract.json.new "$BASE_URL/api/v1/openapi.json"
mv last-contract.json.new last-contract.json
