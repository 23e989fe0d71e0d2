// JSON from outside (a client's message, an agent's OIL line or `do` sentence, a fetched pack
// index, a browser's protocol message, the scanner's answer) parsed with a bound on its nesting:
// copying, comparing and dumping a json value recurse once per level, and a message nested
// 100,000 levels deep overflowed the stack (one line from any client, stdio or HTTP, ended the
// server). Nothing we read needs more than a few levels; a browser's message carries values a
// page shapes (an evaluated result, a WebDriver script's answer), so it gets a wider bound.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lscope {

inline constexpr int kMaxJsonNesting = 128;
// CDP, WebDriver and the extension's relay: Chromium refuses to send a value deeper than 1,000
// levels ("Object reference chain is too long"; its CBOR-to-JSON step stops before that), and
// 1,000 levels of copying fit any thread's stack. Other remote ends are not trusted to do so.
inline constexpr int kMaxBrowserJsonNesting = 1000;

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
inline std::string tooDeepMessage(int limit = kMaxJsonNesting) {
  return "nested more than " + std::to_string(limit) + " levels deep";
}

// json::parse without exceptions: discarded when `text` is not JSON or nests deeper than `limit`
// (then *too_deep is set, when given).
inline nlohmann::json parseJsonBounded(std::string_view text, bool* too_deep = nullptr, int limit = kMaxJsonNesting) {
  const bool deep = jsonNesting(text, limit) > limit;
  if (too_deep) *too_deep = deep;
  if (deep) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
}

// The "id" of a protocol message refused for its depth, read from its first member as CDP and
// the extension's relay write replies ({"id":12,"result":...}), so its caller gets an error
// instead of waiting out its deadline; -1 when the message does not start so.
inline int leadingMessageId(std::string_view text) {
  constexpr std::string_view kStart = "{\"id\":";
  if (text.substr(0, kStart.size()) != kStart) return -1;
  long long id = 0;
  size_t i = kStart.size();
  for (; i < text.size() && i < kStart.size() + 9 && text[i] >= '0' && text[i] <= '9'; ++i) id = id * 10 + (text[i] - '0');
  return i > kStart.size() && i < text.size() && (text[i] == ',' || text[i] == '}') ? static_cast<int>(id) : -1;
}

// The error reply a refused message's caller gets, shaped as the protocol's own errors.
inline nlohmann::json tooDeepReply(int id, const std::string& who) {
  return {{"id", id},
          {"error", {{"code", -32000}, {"message", who + "'s answer is " + tooDeepMessage(kMaxBrowserJsonNesting)}}}};
}

// A browser-side protocol message (CDP, the extension's relay) as JSON. One nested deeper than
// kMaxBrowserJsonNesting becomes the error reply to its command when its id leads it (`who`
// names the sender in that error), else it is discarded as unparsable.
inline nlohmann::json parseProtocolMessage(std::string_view payload, const std::string& who) {
  bool too_deep = false;
  nlohmann::json msg = parseJsonBounded(payload, &too_deep, kMaxBrowserJsonNesting);
  if (!too_deep) return msg;
  const int id = leadingMessageId(payload);
  return id >= 0 ? tooDeepReply(id, who) : nlohmann::json(nlohmann::json::value_t::discarded);
}

}  // namespace lscope
