#!/usr/bin/env bash
# Makes a Python virtual environment holding a tool pinned in a requirements.txt (a freeze, from
# PyPI), once, in the kit's cache, and prints the path of the tool's command (the venv's `python`
# is beside it). Exit 3, saying why, when this machine has no Python 3.11+ with venv. The kit's
# tests use it (Schemathesis, openapi-python-client); it is no part of any published package.
#   bash scripts/python-venv.sh TOOL PATH/TO/requirements.txt
set -euo pipefail
[ $# -eq 2 ] && [ -f "$2" ] || { echo "usage: bash scripts/python-venv.sh TOOL REQUIREMENTS.txt" >&2; exit 2; }
tool="$1"
requirements="$2"
version="$(awk -F'==' -v tool="$tool" '$1==tool{print $2}' "$requirements")"
[ -n "$version" ] || { echo "[kit] $requirements pins no $tool" >&2; exit 2; }
cache="${KIT_CACHE:-${XDG_CACHE_HOME:-${HOME:?set HOME, XDG_CACHE_HOME or KIT_CACHE}/.cache}/investor-graph-kit}"
python="${PYTHON:-python3}"
command -v "$python" >/dev/null 2>&1 || { echo "[kit] $tool runs on Python 3.11+ and no '$python' is on PATH" >&2; exit 3; }
# The pins are a freeze on Python 3.11 (3.10 would need exceptiongroup and tomli besides).
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "[kit] the pinned $tool needs Python 3.11 or newer; $("$python" --version) found" >&2; exit 3; }
"$python" -c 'import venv, ensurepip' 2>/dev/null || { echo "[kit] '$python' has no venv with ensurepip (on Debian: apt-get install python3-venv)" >&2; exit 3; }
# The venv is named by the Python it runs on and the hash of the pins: either changed, a new one.
pins="$(sha256sum "$requirements" | cut -c1-12)"
venv="$cache/$tool-$version-py$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-$pins"
bin="$venv/bin/$tool"
# The venv is complete when its marker exists: an install cut short is made again from scratch.
if [ ! -f "$venv/.complete" ]; then
  echo "[kit] installing $tool $version from PyPI into $venv (once)" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2 || { echo "[kit] '$python -m venv' failed" >&2; exit 3; }
  # No version check against PyPI, no prompts; every pin as written, nothing resolved.
  PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 "$venv/bin/python" -m pip install -q --no-deps -r "$requirements" >&2
  [ -x "$bin" ] || { echo "[kit] the venv has no $bin after the install" >&2; exit 1; }
  touch "$venv/.complete"
fi
echo "$bin"
