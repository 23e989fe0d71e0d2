// Key definitions for CDP Input.dispatchKeyEvent: names of intent-language.md "Key Names"
// and printable ASCII characters.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lscope::cdp {

struct KeyDef {
  std::string key;   // DOM KeyboardEvent.key
  std::string code;  // DOM KeyboardEvent.code
  int key_code = 0;  // windowsVirtualKeyCode
  std::string text;  // text the key inserts ("" for non-printing keys)
};

// A named key ("Enter", "ArrowDown", "F5", "Control") or a single character; case-insensitive
// for names. nullopt when unknown.
std::optional<KeyDef> keyByName(const std::string& name);
// The key that types `c`, for printable ASCII; nullopt otherwise.
std::optional<KeyDef> keyForChar(char c);
// The params of one Input.dispatchKeyEvent ("keyDown" carries the text; "keyUp" does not).
nlohmann::json keyEvent(const KeyDef& key, const std::string& type, int modifiers);

}  // namespace lscope::cdp
