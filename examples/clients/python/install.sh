#!/usr/bin/env bash
# Makes a Python virtual environment with the pinned openapi-python-client (requirements.txt, from
# PyPI), once, in the kit's cache, and prints the path of its `openapi-python-client` command; the
# venv's `python` beside it runs the clients it generates (they need httpx and attrs, which it
# holds). The generated-clients test (../generated-clients.test.ts) uses it; it is no part of any
# published package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../../../scripts/python-venv.sh" openapi-python-client "$here/requirements.txt"
