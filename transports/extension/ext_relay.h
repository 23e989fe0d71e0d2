// The extension relay: a WebSocket server on loopback that the Lemmascope browser extension
// (transports/extension/chrome) connects to. Seen from the engine it is a CDP connection: the
// extension relays DevTools Protocol messages to the agent's tabs through chrome.debugger and
// emulates the browser-level Target domain over the tabs API, so CdpPage drives it unchanged.
// websocketpp lives only in ext_relay.cpp; this header is cheap.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "transports/cdp/cdp_connection.h"

namespace lscope::ext {

struct RelayOptions {
  std::string host = "127.0.0.1";  // loopback only
  int port = 9217;                 // 0: any free port
  std::string token;               // the pairing secret the extension presents
  std::string extension_id;        // only Origin chrome-extension://<this id> may connect
  // How long a command waits for the extension to (re)connect before it fails.
  Millis reconnect_grace{10000};
  // Told when the extension connects ("connected: the Lemmascope extension 0.1.0 in Chrome/156")
  // and disconnects; called on the socket thread, must be quick.
  std::function<void(const std::string&)> announce;
  // True when the browser is known to be gone for good (one lscope launched has exited): then a
  // missing extension is CONNECTION_ERROR, and the engine starts over instead of waiting.
  std::function<bool()> browser_gone;
};

// One extension at a time: a new authenticated connection replaces the old one. The relay
// outlives connections: when the extension's service worker restarts, commands wait for it
// (up to reconnect_grace) and the engine's sessions go on.
class ExtensionRelay : public cdp::CdpConnection {
 public:
  static Result<std::shared_ptr<ExtensionRelay>> listen(RelayOptions options);
  // The port it listens on (the real one when options.port was 0).
  virtual int port() const = 0;
  // Blocks until an extension is connected or the deadline passes.
  virtual bool waitConnected(Deadline deadline) = 0;
  // "extension 0.1.0 in Chromium/156…" while connected, else "".
  virtual std::string peer() const = 0;
  // Connections refused so far (wrong Origin, wrong token): for tests and `status`.
  virtual int refused() const = 0;
};

// The extension's id as Chromium derives it from the manifest's "key" (base64 DER public key):
// the first 16 bytes of its SHA-256, each nibble written as a letter a–p.
std::string extensionIdFromKey(const std::string& base64_der);

}  // namespace lscope::ext
