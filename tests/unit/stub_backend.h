// A Backend that replays canned scanner answers: for unit tests of the engine and the MCP
// layer only. End-to-end tests always use a real browser.
#pragma once

#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/backend.h"

namespace lscope::testing {

class StubBackend : public Backend {
 public:
  explicit StubBackend(json scan) : scan_(std::move(scan)) {}
  std::string describe() const override { return "stub"; }
  Status navigate(const std::string& url, Deadline) override {
    url_ = url;
    ++navigations_;
    return Status::ok();
  }
  Status goBack(Deadline) override { return Status::ok(); }
  Status goForward(Deadline) override { return Status::ok(); }
  Status reload(Deadline) override { return Status::ok(); }
  Result<std::string> currentUrl(Deadline) override { return url_; }
  Result<json> scanner(const json& command, const std::string&, Deadline) override {
    commands.push_back(command);
    std::string cmd = command.value("cmd", "");
    if (cmd == "scan") {
      json s = scan_;
      s["page"]["url"] = url_;
      return json{{"ok", true}, {"data", s}};
    }
    if (cmd == "point") return json{{"ok", true}, {"data", {{"x", 50}, {"y", 60}}}};
    if (cmd == "get_text") return json{{"ok", true}, {"data", {{"text", "Hello page"}}}};
    if (cmd == "get_value") {  // what was typed, as a field that kept the focus holds it
      std::string value;
      for (const auto& t : typed) value += t;
      return json{{"ok", true}, {"data", {{"value", value}}}};
    }
    return json{{"ok", true}, {"data", json::object()}};
  }
  Status mouseClick(Point at, MouseButton, int, int, Deadline) override {
    clicks.push_back(at);
    return Status::ok();
  }
  Status mouseMove(Point, Deadline) override { return Status::ok(); }
  Status insertText(const std::string& text, Deadline) override {
    typed.push_back(text);
    return Status::ok();
  }
  Status pressKey(const std::string&, int, Deadline) override { return Status::ok(); }
  Result<std::string> screenshot(Deadline) override { return std::string("iVBORw0KGgo="); }
  Status waitForNetworkIdle(Millis, Deadline) override { return Status::ok(); }
  Status waitForLoad(Deadline) override { return Status::ok(); }
  uint64_t navigationCount() override { return navigations_; }
  Status waitForNavigation(uint64_t, Deadline) override { return Status(codes::kTimeout, "no navigation"); }
  Result<std::vector<FrameInfo>> frames(Deadline) override { return std::vector<FrameInfo>{}; }
  Result<std::vector<TabInfo>> tabs(Deadline) override { return std::vector<TabInfo>{}; }
  Status switchTab(const std::string&, Deadline) override { return Status::ok(); }
  Status closeTab(const std::string&, Deadline) override { return Status::ok(); }
  Result<std::string> newTab(const std::string&, Deadline) override { return std::string("tab-2"); }
  Status setFiles(int, const std::string&, const std::vector<std::string>&, Deadline) override {
    return Status::ok();
  }
  std::vector<BrowserEvent> drainEvents() override { return {}; }

  std::vector<json> commands;
  std::vector<Point> clicks;
  std::vector<std::string> typed;

 private:
  json scan_;
  std::string url_ = "about:blank";
  uint64_t navigations_ = 0;
};

// Makes a backend of type B (a StubBackend) per session; `last` is the newest.
template <class B>
class StubFactoryOf final : public BackendFactory {
 public:
  explicit StubFactoryOf(json scan) : scan_(std::move(scan)) {}
  Result<std::unique_ptr<Backend>> create(Deadline) override {
    auto b = std::make_unique<B>(scan_);
    last = b.get();
    return std::unique_ptr<Backend>(std::move(b));
  }
  void shutdown() override {}
  B* last = nullptr;

 private:
  json scan_;
};

using StubFactory = StubFactoryOf<StubBackend>;

// A backend with a bug: navigate throws (as a transport reading an answer of a shape it did not
// expect would).
class ThrowingNavigateBackend final : public StubBackend {
 public:
  using StubBackend::StubBackend;
  Status navigate(const std::string& url, Deadline deadline) override {
    if (url.find("throw") != std::string::npos) throw std::runtime_error("type must be string, but is null");
    return StubBackend::navigate(url, deadline);
  }
};

using ThrowingNavigateFactory = StubFactoryOf<ThrowingNavigateBackend>;

// A backend whose navigate to a URL with "gate" in it waits until the test opens `gate` (or its
// deadline): a call held in flight for as long as the test needs, on any machine.
class GatedNavigateBackend final : public StubBackend {
 public:
  using StubBackend::StubBackend;
  static inline std::shared_future<void> gate;
  Status navigate(const std::string& url, Deadline deadline) override {
    if (url.find("gate") != std::string::npos && gate.valid()) gate.wait_until(deadline.at());
    return StubBackend::navigate(url, deadline);
  }
};
using GatedNavigateFactory = StubFactoryOf<GatedNavigateBackend>;

}  // namespace lscope::testing
