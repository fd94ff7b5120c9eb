#!/usr/bin/env bash
# Builds oasdiff (github.com/oasdiff/oasdiff), the differ behind `investor-graph-contract-tests
# diff`, from the Go module proxy with the machine's Go, once, into the kit's cache, and prints the
# binary's path, as @investor-graph/load's install-k6.sh builds k6. Never a downloaded release binary.
#
# The pin is oasdiff-build/go.mod (github.com/oasdiff/oasdiff v1.36.0) with every dependency locked
# in go.sum: the build reads both and changes neither (-mod=readonly), so every machine builds what
# the kit was tested with, the module proxy being Go's own (GOPROXY as the machine has it).
# Exit 3 when there is no Go (the diff then says how to get oasdiff, and the run goes on without it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="$(awk '/^require github.com\/oasdiff\/oasdiff /{print $3}' "$here/oasdiff-build/go.mod")"
cache="${KIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/investor-graph-kit}"
bin="$cache/oasdiff-$version/oasdiff"
if [ ! -x "$bin" ]; then
  command -v go >/dev/null 2>&1 || { echo "[kit] oasdiff is built with Go and no 'go' is on PATH" >&2; exit 3; }
  mkdir -p "$(dirname "$bin")"
  echo "[kit] building oasdiff $version with $(go version | cut -d' ' -f3) (a minute, once)" >&2
  # A name of this build's own, moved into place whole: two runs building at once never meet half a file.
  # -mod=readonly after the user's own GOFLAGS (-p=1 on a small machine, say), which it joins, not replaces.
  (cd "$here/oasdiff-build" && GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly" go build -trimpath \
    -ldflags "-X github.com/oasdiff/oasdiff/build.Version=${version#v}" -o "$bin.$$.partial" github.com/oasdiff/oasdiff)
  mv "$bin.$$.partial" "$bin"
fi
echo "$bin"
