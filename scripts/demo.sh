#!/usr/bin/env bash
# Sets gql up on a fresh Debian 12 machine and runs the main job: friends-of-friends (2-hop path
# counts) written in .gql, on a Kronecker graph from the built-in generator.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
exec bash scripts/run-demo.sh
