#!/usr/bin/env bash
# Installs, builds, and runs every test: unit tests, then end-to-end tests in real headless
# Chromium with the official MCP client.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "==> tests"
# Two at a time: the suites mostly wait on the browser (tests/CMakeLists.txt).
ctest --test-dir build --output-on-failure --parallel 2 "$@"
