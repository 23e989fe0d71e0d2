// The scanner's JavaScript source (scanner/scanner.js) and the listener registry
// (scanner/listeners.js), embedded at build time into generated translation units in the build
// directory. Byte-identical on every backend.
#pragma once

#include <random>
#include <string>
#include <string_view>

namespace lscope {

// scanner.js: a single JavaScript expression evaluating to the scanner API object
// ({handle(command) -> Promise<string>, protocolVersion, version}). See scanner/README.md.
std::string_view scannerSource();

// The name under which backends install the API object in the scanner's world.
inline constexpr std::string_view kScannerGlobal = "__lemmascope";

// listeners.js: a function expression `(function (channel) {...})` that installs the listener
// registry in the page's main world (scanner/README.md, "Listener registry").
std::string_view listenerRegistrySource();

// The global, in the scanner's world, that holds the registry's channel token; set it before
// the scanner's first command.
inline constexpr std::string_view kChannelGlobal = "__lemmascope_channel";

// The registry as a script for one document, talking on `channel`.
inline std::string listenerRegistryScript(const std::string& channel) {
  return "(" + std::string(listenerRegistrySource()) + "\n)(\"" + channel + "\");";
}

// `globalThis.__lemmascope_channel = "<channel>"` (an expression): tells the scanner's world the token.
inline std::string channelAssignment(const std::string& channel) {
  return "globalThis." + std::string(kChannelGlobal) + " = \"" + channel + "\"";
}

// A fresh random channel token (letters and digits only: an event name and a JS string).
inline std::string newListenerChannel() {
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device rd;
  std::mt19937_64 gen((static_cast<uint64_t>(rd()) << 32) ^ rd());
  std::uniform_int_distribution<int> pick(0, 35);
  std::string out = "ls";
  for (int i = 0; i < 16; ++i) out += kAlphabet[pick(gen)];
  return out;
}

}  // namespace lscope
