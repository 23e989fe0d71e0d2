#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, with AddressSanitizer and UndefinedBehaviorSanitizer) in
# build-asan and runs each over a copy of its seed corpus (fuzz/corpus/<target>), with its dictionary
# (fuzz/<target>.dict) where there is one.
#   scripts/fuzz.sh [--time SECONDS | --runs N] [target ...]     (default: --time 60, every target)
# Prints one line per target (executions, seconds, executions/s, corpus size, peak RSS) and
# fails on a crash, a leak or a timeout; the input that caused it is kept in build-asan/fuzz-artifacts.
set -euo pipefail
cd "$(dirname "$0")/.."

limit=(-max_total_time=60)
targets=()
while (($#)); do
  case "$1" in
    --time) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
((${#targets[@]})) || targets=(oil yaml scan jsonrpc http)

nice -n 19 scripts/build-asan.sh --target fuzzers >/dev/null
mkdir -p build-asan/fuzz-artifacts
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
status=0
printf '%-8s %14s %8s %10s %8s %8s\n' target executions seconds 'exec/s' corpus 'rss MB'
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  cp -r "fuzz/corpus/$t/." "$work/"
  log="build-asan/fuzz-artifacts/$t.log"
  start=$(date +%s)
  # -timeout: one input taking longer than 10 s is a hang; -rss_limit_mb: growth is a leak too.
  dict=(); [[ -f "fuzz/$t.dict" ]] && dict=(-dict="fuzz/$t.dict")
  # jsonrpc: inputs of 1 kB (three or more requests; the session lives across inputs, so longer
  # exchanges are still explored) run 1.5 to 3 times as fast as the default 4 kB (bench/fuzz.md).
  len=(); [[ "$t" == jsonrpc ]] && len=(-max_len=1024)
  if ! "build-asan/fuzz/fuzz_$t" "${limit[@]}" "${dict[@]}" "${len[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="build-asan/fuzz-artifacts/$t-" "$work" >"$log" 2>&1; then
    echo "fuzz_$t FAILED: see $log" >&2
    tail -30 "$log" >&2
    status=1
  fi
  secs=$(( $(date +%s) - start ))
  stat() { grep -o "stat::$1: *[0-9]*" "$log" | grep -o '[0-9]*$' | tail -1; }
  printf '%-8s %14s %8s %10s %8s %8s\n' "$t" "$(stat number_of_executed_units)" "$secs" \
    "$(stat average_exec_per_sec)" "$(ls "$work" | wc -l)" "$(stat peak_rss_mb)"
  rm -rf "$work"
done
exit $status
