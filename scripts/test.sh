#!/usr/bin/env bash
# Installs, builds, and runs every test: unit tests, then end-to-end tests in real headless
# Chromium with the official MCP client.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "==> tests"
ctest --test-dir build --output-on-failure "$@"
