#!/usr/bin/env bash
# Prints each failed test of the last ctest run with the first lines of its error, at the end
# where a CI log's tail shows them (a failing suite's own output may be cut from the middle).
# Usage: scripts/failures.sh [ctest log] (default build/Testing/Temporary/LastTest.log; ctest's
# own --output-on-failure output works too).
log="${1:-$(dirname "$0")/../build/Testing/Temporary/LastTest.log}"
[ -r "$log" ] || { echo "no ctest log at $log" >&2; exit 1; }
awk '
  # The suite: "N/M Testing: name" in LastTest.log, "N/M Test #K: name ..." in ctest output.
  /^[0-9]+\/[0-9]+ Testing: / { suite = $0; sub(/^[0-9]+\/[0-9]+ Testing: /, "", suite) }
  /^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / { suite = $0; sub(/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: /, "", suite); sub(/ \.+.*$/, "", suite) }
  # node --test (TAP): a "not ok" test, its YAML block up to "...", the first lines of its error.
  /^ *not ok [0-9]+ - / { pending = $0; sub(/^ */, "", pending); inerr = 0; shown = 0; next }
  pending != "" && /subtestsFailed/ { pending = ""; next }  # a suite failed by its tests: said below
  pending != "" && /^ *error: / {
    print (suite ? "[" suite "] " : "") pending
    rest = $0; sub(/^ *error: *(\|-)? */, "", rest)
    if (rest != "") { print "    " rest; shown++ }
    inerr = 1; next
  }
  inerr && /^ *((code|name|expected|actual|operator|stack|location|failureType):|--- |\.\.\.$)/ { inerr = 0; pending = ""; next }
  inerr && shown < 6 { l = $0; sub(/^ */, "", l); if (l != "") { print "    " l; shown++ } }
  /^ *\.\.\.$/ { pending = ""; inerr = 0 }
  # doctest (the unit tests): the failing check and its file:line.
  /^[^ ].*: ERROR: / { print (suite ? "[" suite "] " : "") $0 }
' "$log"
