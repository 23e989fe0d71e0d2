#!/usr/bin/env bash
# Installs, builds, and runs every test: unit tests, then end-to-end tests in real headless
# Chromium with the official MCP client.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "==> tests"
# Two at a time: the suites mostly wait on the browser (tests/CMakeLists.txt).
status=0
ctest --test-dir build --output-on-failure --parallel 2 "$@" || status=$?
# Each failed test with its error, last, where the tail of a CI log shows it.
if [ "$status" -ne 0 ]; then
  echo "==> what failed"
  scripts/failures.sh || true
fi
exit "$status"
