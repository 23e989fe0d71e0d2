// `lscope scanner`: talk to the in-page scanner through a real backend, one JSON line in, one
// JSON line out. For scanner tests and for anyone who wants to see what the scanner sees.
#pragma once

#include <istream>
#include <ostream>

#include "engine/backend.h"

namespace lscope {

// Lines are scanner commands ({"cmd": "scan", ...}, optional "frame") or backend operations
// ({"op": "goto"|"reload"|"back"|"click"|"move"|"key"|"text"|"commit"|"url"|"wait_url"|"frames"}; "commit" is
// text in one step (Backend::commitText)).
// Returns 0 at end of input; 1 if the backend could not start.
int runScannerShell(BackendFactory* factory, std::istream& in, std::ostream& out);

}  // namespace lscope
