#!/usr/bin/env bash
# The sanitizer build (issue 16): clang with AddressSanitizer and UndefinedBehaviorSanitizer
# (undefined behaviour aborts) and the libFuzzer targets, in build-asan. Extra arguments go to
# `cmake --build` (e.g. --target fuzzers).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DLSCOPE_FUZZ=ON >/dev/null
cmake --build build-asan "$@"
