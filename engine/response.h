// A command's outcome, and its text form (intent-language.md "Response Format",
// intent-engine.md §10): `ok|error|partial <command> ...`, then `# section` blocks.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/status.h"

namespace lscope {

using json = nlohmann::json;

struct Response {
  enum class Kind { kOk, kError, kPartial };
  Kind kind = Kind::kOk;
  std::string command;  // "click", "login"
  std::string summary;  // ok: what was done (`[3] "Sign in"`); error/partial: the message
  std::string body;     // text right after the header with no section title (observations)
  std::vector<std::pair<std::string, std::vector<std::string>>> sections;  // in order
  std::string code;     // error code (scanner-protocol §2.3 / intent-engine App. C)
  std::string hint;
  json data = json::object();       // the same result as JSON (MCP structuredContent)
  std::vector<std::string> images;  // base64 PNGs (MCP image content)

  bool ok() const { return kind == Kind::kOk; }
  // Appends a line to a section, creating it after the existing ones.
  void add(const std::string& section, std::string line);
  bool hasSection(const std::string& section) const;
};

Response okResponse(const std::string& command, std::string summary = {});
Response errorResponse(const std::string& command, const Status& status);

// Replaces every occurrence of each secret, and of its URL-encoded forms, with the mask
// (secrets shorter than 3 bytes are ignored: masking "a" everywhere would garble text).
std::string scrubText(std::string text, const std::vector<std::string>& secrets);
// scrubText over every string of the response (text, sections, hint, structured data).
void scrubSecrets(Response& r, const std::vector<std::string>& secrets);

// Log redaction (§13.1: secrets are never logged). Every secret any session has seen, process
// wide, is masked in every log line whatever wrote it: a driver's own output, relayed at debug
// level, repeats URLs that hold a typed password. Thread-safe.
void addLogSecret(const std::string& secret);
std::string scrubLog(std::string line);

// The response as OIL text. Lines never end with spaces; sections are separated by one blank line.
std::string formatResponse(const Response& r);

}  // namespace lscope
