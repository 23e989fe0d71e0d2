// Key table for CDP input. Codes follow the DOM UI Events KeyboardEvent code values and the
// Windows virtual-key codes Chromium expects in windowsVirtualKeyCode.
#include "transports/cdp/cdp_keys.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace lscope::cdp {
namespace {

struct NamedKey {
  const char* name;
  const char* code;
  int key_code;
  const char* text;
};

const NamedKey kNamedKeys[] = {
    {"Enter", "Enter", 13, "\r"},       {"Tab", "Tab", 9, ""},
    {"Escape", "Escape", 27, ""},       {"Space", "Space", 32, " "},
    {"Backspace", "Backspace", 8, ""},  {"Delete", "Delete", 46, ""},
    {"ArrowUp", "ArrowUp", 38, ""},     {"ArrowDown", "ArrowDown", 40, ""},
    {"ArrowLeft", "ArrowLeft", 37, ""}, {"ArrowRight", "ArrowRight", 39, ""},
    {"Home", "Home", 36, ""},           {"End", "End", 35, ""},
    {"PageUp", "PageUp", 33, ""},       {"PageDown", "PageDown", 34, ""},
    {"Insert", "Insert", 45, ""},       {"Control", "ControlLeft", 17, ""},
    {"Shift", "ShiftLeft", 16, ""},     {"Alt", "AltLeft", 18, ""},
    {"Meta", "MetaLeft", 91, ""},
};

bool iequals(const std::string& a, const char* b) {
  size_t n = std::strlen(b);
  if (a.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// US keyboard: the unshifted key for punctuation, and its code.
struct Punct {
  char c;
  const char* code;
  int key_code;
};
const Punct kPunct[] = {
    {' ', "Space", 32},         {'-', "Minus", 189},       {'_', "Minus", 189},
    {'=', "Equal", 187},        {'+', "Equal", 187},       {'[', "BracketLeft", 219},
    {'{', "BracketLeft", 219},  {']', "BracketRight", 221}, {'}', "BracketRight", 221},
    {'\\', "Backslash", 220},   {'|', "Backslash", 220},   {';', "Semicolon", 186},
    {':', "Semicolon", 186},    {'\'', "Quote", 222},      {'"', "Quote", 222},
    {',', "Comma", 188},        {'<', "Comma", 188},       {'.', "Period", 190},
    {'>', "Period", 190},       {'/', "Slash", 191},       {'?', "Slash", 191},
    {'`', "Backquote", 192},    {'~', "Backquote", 192},   {'!', "Digit1", 49},
    {'@', "Digit2", 50},        {'#', "Digit3", 51},       {'$', "Digit4", 52},
    {'%', "Digit5", 53},        {'^', "Digit6", 54},       {'&', "Digit7", 55},
    {'*', "Digit8", 56},        {'(', "Digit9", 57},       {')', "Digit0", 48},
};

}  // namespace

std::optional<KeyDef> keyForChar(char c) {
  if (c >= 'a' && c <= 'z') return KeyDef{std::string(1, c), std::string("Key") + char(c - 32), c - 32, std::string(1, c)};
  if (c >= 'A' && c <= 'Z') return KeyDef{std::string(1, c), std::string("Key") + c, c, std::string(1, c)};
  if (c >= '0' && c <= '9') return KeyDef{std::string(1, c), std::string("Digit") + c, c, std::string(1, c)};
  for (const auto& p : kPunct) {
    if (p.c == c) return KeyDef{std::string(1, c), p.code, p.key_code, std::string(1, c)};
  }
  return std::nullopt;
}

std::optional<KeyDef> keyByName(const std::string& name) {
  for (const auto& k : kNamedKeys) {
    if (iequals(name, k.name)) return KeyDef{k.name, k.code, k.key_code, k.text};
  }
  if (iequals(name, "Esc")) return keyByName("Escape");
  if (iequals(name, "Return")) return keyByName("Enter");
  if (iequals(name, "Ctrl")) return keyByName("Control");
  if ((name[0] == 'F' || name[0] == 'f') && name.size() >= 2 && name.size() <= 3 &&
      std::all_of(name.begin() + 1, name.end(), ::isdigit)) {
    int n = std::stoi(name.substr(1));
    if (n >= 1 && n <= 12) return KeyDef{"F" + std::to_string(n), "F" + std::to_string(n), 111 + n, ""};
  }
  if (name.size() == 1) return keyForChar(name[0]);
  return std::nullopt;
}

nlohmann::json keyEvent(const KeyDef& key, const std::string& type, int modifiers) {
  nlohmann::json ev = {{"type", type},
                       {"key", key.key},
                       {"code", key.code},
                       {"windowsVirtualKeyCode", key.key_code},
                       {"nativeVirtualKeyCode", key.key_code},
                       {"modifiers", modifiers}};
  // Text only when it types something and no command modifier (Ctrl/Alt/Meta) is held.
  if (type == "keyDown" && !key.text.empty() && (modifiers & (1 | 2 | 4)) == 0) {
    ev["text"] = key.text;
    ev["unmodifiedText"] = key.text;
  } else if (type == "keyDown") {
    ev["type"] = "rawKeyDown";
  }
  return ev;
}

}  // namespace lscope::cdp
