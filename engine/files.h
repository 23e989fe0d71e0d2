// Small file helpers shared by the engine and the transports: reading a file whole, writing one
// (with its folders), and a fresh private temporary folder.
#pragma once

#include <string>

#include "engine/status.h"

namespace lscope {

// Reads a file whole; an error (with `code`) names it.
Result<std::string> readTextFile(const std::string& path, const char* code);

// Writes `bytes` to `path`, creating its folders; false when it cannot.
bool writeFile(const std::string& path, const std::string& bytes);

// Creates a fresh private directory named prefix + six random characters (under the system's
// temporary directory unless `prefix` is a path). Returns its path, or "" on failure.
std::string makeTempDir(const std::string& prefix);

// Standard base64 decoding (screenshots, a manifest's key); other characters are skipped.
std::string base64Decode(const std::string& in);
// Standard base64 with padding (a report's embedded screenshots).
std::string base64Encode(const std::string& bytes);
// Text for HTML content and attribute values: & < > " escaped.
std::string htmlEscape(const std::string& text);

}  // namespace lscope
