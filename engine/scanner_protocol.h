// What every party of the scanner protocol (scanner-protocol.md) agrees on beyond the JSON
// itself: which commands only read the page. Shared by the engine's client and the transports.
#pragma once

#include <string>

namespace lscope {

// Commands that only read the page (§3.1, §3.11-3.13, §3.16 and our additions): a transport may
// run them again in a new document when a navigation interrupted them. Actions and waits are
// never repeated (a click must not happen twice).
inline bool isReadOnlyScannerCommand(const std::string& cmd) {
  return cmd == "scan" || cmd == "point" || cmd == "get_text" || cmd == "get_value" || cmd == "exists" ||
         cmd == "query" || cmd == "find_text" || cmd == "get_selector" || cmd == "version";
}

// Commands that change nothing on the page (reads, waits, watches): safe to run again in the
// same document when the first attempt's world went away under them.
inline bool isEffectFreeScannerCommand(const std::string& cmd) {
  return isReadOnlyScannerCommand(cmd) || cmd.rfind("wait", 0) == 0 || cmd.rfind("get_", 0) == 0 ||
         cmd == "watched" || cmd == "key_listeners" || cmd == "extract" || cmd == "guard_result";
}

}  // namespace lscope
