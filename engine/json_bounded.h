// JSON from outside (a client's message, an agent's OIL line or `do` sentence, a fetched pack
// index) parsed with a bound on its nesting: copying, comparing and dumping a json value recurse
// once per level, and a message nested 100,000 levels deep overflowed the stack (one line from
// any client, stdio or HTTP, ended the server). Nothing we read needs more than a few levels.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lscope {

inline constexpr int kMaxJsonNesting = 128;

// The deepest nesting of arrays and objects in `text`, brackets inside strings not counted; it
// stops counting once past `limit`.
inline int jsonNesting(std::string_view text, int limit = kMaxJsonNesting) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// What a refusal says: "nested more than 128 levels deep".
inline std::string tooDeepMessage() { return "nested more than " + std::to_string(kMaxJsonNesting) + " levels deep"; }

// json::parse without exceptions: discarded when `text` is not JSON or nests deeper than
// kMaxJsonNesting (then *too_deep is set, when given).
inline nlohmann::json parseJsonBounded(std::string_view text, bool* too_deep = nullptr) {
  const bool deep = jsonNesting(text) > kMaxJsonNesting;
  if (too_deep) *too_deep = deep;
  if (deep) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
}

}  // namespace lscope
