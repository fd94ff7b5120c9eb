#!/usr/bin/env bash
# Builds k6 from the Go module proxy with the machine's Go, once, into the kit's cache, and prints
# the binary's path. Never a downloaded release binary.
#
# The pin is k6-build/go.mod (go.k6.io/k6/v2 v2.2.0) with every dependency locked in go.sum. Plain
# `go install go.k6.io/k6/v2@v2.2.0` is not used: it looks up the module's deprecation through
# <proxy>/go.k6.io/k6/v2/@v/list, which the proxy this workplace reaches answers 404, and the
# install stops there. Building the same pinned module from a wrapper module needs no such lookup.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="$(awk '/^require go.k6.io\/k6\/v2 /{print $3}' "$here/k6-build/go.mod")"
cache="${KIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/investor-graph-kit}"
bin="$cache/k6-$version/k6"
if [ ! -x "$bin" ]; then
  command -v go >/dev/null 2>&1 || { echo "[kit] k6 is built with Go and no 'go' is on PATH" >&2; exit 3; }
  mkdir -p "$(dirname "$bin")"
  echo "[kit] building k6 $version with $(go version | cut -d' ' -f3) (a few minutes, once)" >&2
  # -mod=readonly after the user's own GOFLAGS, which it joins, not replaces (as install-oasdiff.sh).
  (cd "$here/k6-build" && GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly" go build -trimpath -o "$bin.partial" go.k6.io/k6/v2)
  mv "$bin.partial" "$bin"
fi
echo "$bin"
