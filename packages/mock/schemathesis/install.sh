#!/usr/bin/env bash
# Makes a Python virtual environment with the pinned Schemathesis (requirements.txt, from PyPI), once,
# in the kit's cache, and prints the path of its `schemathesis` command. The kit's own CI uses it
# as a second opinion on the mock (schemathesis.test.ts); it is no part of any published package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../../../scripts/python-venv.sh" schemathesis "$here/requirements.txt"
