// The extension backend (lscope-r, --backend extension): drives tabs of the user's own Chromium
// through the Lemmascope extension. The server listens on loopback; the extension, once paired,
// connects and relays the DevTools Protocol to the agent's own tab group (ext_relay.h).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend.h"

namespace lscope::ext {

struct ExtensionOptions {
  int port = 9217;                 // --extension-port (0: any free port)
  std::string token_file;          // the pairing secret (default ~/.lemmascope/extension-token)
  std::string extension_dir;       // the unpacked extension (its manifest names its id)
  std::string extension_id;        // --extension-id: a build of the extension with another key
  Millis wait_for_extension{15000};  // how long a first command waits for the extension
  // --extension-launch: start a fresh Chromium with the extension loaded and paired (tests,
  // demos, CI); the pairing goes through the extension's own pairing page.
  bool launch = false;
  std::string browser;
  bool headed = false;
  std::vector<std::string> extra_args;
  int viewport_width = 1280;
  int viewport_height = 800;
  // Where to tell the user that the relay listens and how to pair (stderr in the CLI).
  std::function<void(const std::string&)> announce;
};

// The pairing code the user pastes into the extension's popup: lsx1:PORT:TOKEN.
std::string pairingCode(int port, const std::string& token);
// Reads the token file, creating it (mode 0600) with a fresh random token when missing or when
// `rotate` is set (rotating revokes every extension paired before).
Result<std::string> loadOrCreateToken(const std::string& path, bool rotate);
// The extension's id from its manifest's "key".
Result<std::string> extensionIdOf(const std::string& extension_dir);
std::string randomToken();

std::unique_ptr<BackendFactory> makeExtensionBackendFactory(ExtensionOptions options);

}  // namespace lscope::ext
