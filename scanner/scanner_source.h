// The scanner's JavaScript source (scanner/scanner.js), embedded at build time into a
// generated translation unit in the build directory. Byte-identical on every backend.
#pragma once

#include <string_view>

namespace lscope {

// scanner.js: a single JavaScript expression evaluating to the scanner API object
// ({handle(command) -> Promise<string>, protocolVersion, version}). See scanner/README.md.
std::string_view scannerSource();

// The name under which backends install the API object in the scanner's world.
inline constexpr std::string_view kScannerGlobal = "__lemmascope";

}  // namespace lscope
