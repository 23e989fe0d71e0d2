// lscope trace view FILE (issue 20): one self-contained HTML report of a --trace file, readable
// without a network: a timeline of the steps, each step's screenshots before and after with
// the target outlined, its change report, failures highlighted with their hint.
#pragma once

#include <string>

namespace lscope {

// Writes the report for `trace` (a .jsonl) to `out` (default: the trace's name with .html).
// Returns 0, or 2 with a message on stderr when the trace cannot be read or the report written.
int writeTraceReport(const std::string& trace, std::string out);

}  // namespace lscope
