#!/usr/bin/env bash
# The sanitizer build (issue 16): clang with AddressSanitizer and UndefinedBehaviorSanitizer
# (undefined behaviour aborts) and the libFuzzer targets, in build-asan. Extra arguments go to
# `cmake --build` (e.g. --target fuzzers).
set -euo pipefail
cd "$(dirname "$0")/.."
# LSCOPE_ASAN_OPT: the optimisation level, -O2 unless set (fuzzing in earnest); the suite's
# sanitizer check (scripts/sanitize.sh) builds at -O0, which compiles in about 40% of the CPU time.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${LSCOPE_ASAN_OPT:--O2} -g1 -DNDEBUG" -DLSCOPE_FUZZ=ON >/dev/null
cmake --build build-asan "$@"
