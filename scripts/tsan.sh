#!/usr/bin/env bash
# ThreadSanitizer (issue 16 §3): lscope built with clang -fsanitize=thread in build-tsan runs the
# HTTP end-to-end suite (several sessions at once, cancellation, progress: the server's threads
# all at work). Any report from an lscope process fails the run; tests/tsan.supp lists the
# suppressions, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DLSCOPE_TSAN=ON >/dev/null
cmake --build build-tsan --target lscope
reports=$(mktemp -d)
export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:suppressions=$PWD/tests/tsan.supp:log_path=$reports/tsan"
(cd tests/e2e && LSCOPE_BIN="$PWD/../../build-tsan/lscope" \
  node --test --test-concurrency=1 --test-timeout=300000 http.test.js "$@")
if compgen -G "$reports/*" >/dev/null; then
  echo "ThreadSanitizer reports from lscope:" >&2
  cat "$reports"/* >&2
  exit 1
fi
rm -rf "$reports"
echo "ThreadSanitizer: no reports"
