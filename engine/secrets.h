// Secrets the agent refers to by name ("secret:github") instead of by value, so they never
// enter the model's context: from a secrets file (--secrets), the environment
// (LSCOPE_SECRET_<NAME>), or asked of the user (MCP URL-mode elicitation, in server/).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "engine/status.h"

namespace lscope {

// Thread-safe.
class SecretStore {
 public:
  // Reads `name=value` (or `name: value`) lines; '#' starts a comment; values may be quoted.
  // Errors name file:line. Warns (in the log) when the file is readable by others.
  Status loadFile(const std::string& path);
  // The file's value, else LSCOPE_SECRET_<NAME> (upper case, non-alphanumerics as '_').
  std::optional<std::string> get(const std::string& name) const;
  void put(const std::string& name, const std::string& value);

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> values_;
};

// "secret:github" -> "github". False for anything else.
bool parseSecretRef(const std::string& value, std::string* name);

// The environment variable a secret may come from: LSCOPE_SECRET_GITHUB for "github".
std::string secretEnvName(const std::string& name);

}  // namespace lscope
