#!/usr/bin/env bash
# Makes a Python virtual environment with the pinned Schemathesis (requirements.txt, from PyPI), once,
# in the kit's cache, and prints the path of its `schemathesis` command. The kit's own CI uses it
# as a second opinion on the mock (schemathesis.test.ts); it is no part of any published package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="$(awk -F'==' '$1=="schemathesis"{print $2}' "$here/requirements.txt")"
cache="${KIT_CACHE:-${XDG_CACHE_HOME:-${HOME:?set HOME, XDG_CACHE_HOME or KIT_CACHE}/.cache}/investor-graph-kit}"
# The venv is named by the hash of the pins, so a changed requirements.txt makes a new one.
python="${PYTHON:-python3}"
command -v "$python" >/dev/null 2>&1 || { echo "[kit] Schemathesis runs on Python 3.11+ and no '$python' is on PATH" >&2; exit 3; }
# The pins are a freeze on Python 3.11 (3.10 would need exceptiongroup and tomli besides).
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "[kit] the pinned Schemathesis needs Python 3.11 or newer; $("$python" --version) found" >&2; exit 3; }
"$python" -c 'import venv, ensurepip' 2>/dev/null || { echo "[kit] '$python' has no venv with ensurepip (on Debian: apt-get install python3-venv)" >&2; exit 3; }
# The venv is named by the Python it runs on and the hash of the pins: either changed, a new one.
pins="$(sha256sum "$here/requirements.txt" | cut -c1-12)"
venv="$cache/schemathesis-$version-py$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-$pins"
bin="$venv/bin/schemathesis"
# The venv is complete when its marker exists: an install cut short is made again from scratch.
if [ ! -f "$venv/.complete" ]; then
  echo "[kit] installing Schemathesis $version from PyPI into $venv (once)" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2 || { echo "[kit] '$python -m venv' failed" >&2; exit 3; }
  # No version check against PyPI, no prompts; every pin as written, nothing resolved.
  PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 "$venv/bin/python" -m pip install -q --no-deps -r "$here/requirements.txt" >&2
  touch "$venv/.complete"
fi
echo "$bin"
