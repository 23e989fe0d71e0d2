#!/usr/bin/env bash
# Hardening checks (issue 16), run by ctest as "sanitizers": the ASan+UBSan build of lscope runs
# the unit tests and the stdio and HTTP end-to-end suites, then each fuzzer runs for
# ${LSCOPE_FUZZ_SECONDS:-30} s. Any sanitizer report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
# Unoptimised: the checks are about correctness, and the build was the longest part of the
# suite's run on CI (2,066 s on 2 cores beside the other suites). The fuzzers' 30 s below then
# make fewer executions; scripts/fuzz.sh alone builds at -O2.
export LSCOPE_ASAN_OPT="${LSCOPE_ASAN_OPT:--O0}"
scripts/build-asan.sh
# abort_on_error: a report ends the process with a signal, never a quiet exit code.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
echo "==> unit tests (ASan+UBSan)"
build-asan/tests/lscope_unit_tests
echo "==> stdio and HTTP end-to-end suites (ASan+UBSan lscope)"
# Reports of lscope processes the tests start (a leak found at exit too) land in files: any
# file there fails the run, whatever the tests saw.
reports=$(mktemp -d)
(cd tests/e2e && LSCOPE_BIN="$PWD/../../build-asan/lscope" \
  ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$reports/asan" UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$reports/ubsan" \
  node --test --test-concurrency=1 --test-timeout=300000 skeleton.test.js http.test.js)
if compgen -G "$reports/*" >/dev/null; then
  echo "sanitizer reports from lscope:" >&2
  cat "$reports"/* >&2
  exit 1
fi
rm -rf "$reports"
echo "==> fuzzers, ${LSCOPE_FUZZ_SECONDS:-30} s each"
scripts/fuzz.sh --time "${LSCOPE_FUZZ_SECONDS:-30}"
