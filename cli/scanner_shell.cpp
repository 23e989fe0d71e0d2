// The scanner shell: a thin, line-oriented front end over Backend (see scanner_shell.h).
#include "cli/scanner_shell.h"

#include <string>

namespace lscope {
namespace {

json statusJson(const Status& s) {
  if (s) return {{"ok", true}};
  return {{"ok", false}, {"code", s.code()}, {"error", s.message()}};
}

json handleOp(Backend& b, const json& msg) {
  Deadline deadline = Deadline::inMs(msg.value("timeout", 30000LL) + 5000);
  std::string op = msg.value("op", "");
  if (op == "goto") return statusJson(b.navigate(msg.value("url", ""), deadline));
  if (op == "reload") return statusJson(b.reload(deadline));
  if (op == "back") return statusJson(b.goBack(deadline));
  if (op == "click" || op == "move") {
    Point p{msg.value("x", 0.0), msg.value("y", 0.0)};
    if (op == "move") return statusJson(b.mouseMove(p, deadline));
    std::string button = msg.value("button", "left");
    MouseButton mb = button == "right" ? MouseButton::kRight : button == "middle" ? MouseButton::kMiddle : MouseButton::kLeft;
    return statusJson(b.mouseClick(p, mb, msg.value("count", 1), msg.value("modifiers", 0), deadline));
  }
  if (op == "key") return statusJson(b.pressKey(msg.value("key", ""), msg.value("modifiers", 0), deadline));
  if (op == "text") return statusJson(b.insertText(msg.value("text", ""), deadline));
  if (op == "commit") return statusJson(b.commitText(msg.value("text", ""), deadline));
  if (op == "url") {
    auto url = b.currentUrl(deadline);
    if (!url) return statusJson(url.status());
    return {{"ok", true}, {"url", *url}};
  }
  if (op == "wait_url") {
    std::string part = msg.value("contains", "");
    Deadline until = Deadline::inMs(msg.value("timeout", 10000LL));
    for (;;) {
      uint64_t count = b.navigationCount();
      auto url = b.currentUrl(until);
      if (!url) return statusJson(url.status());
      if (url->find(part) != std::string::npos) {
        b.waitForLoad(until);
        return {{"ok", true}, {"url", *url}};
      }
      Status s = b.waitForNavigation(count, until);
      if (!s) return statusJson(s);
    }
  }
  if (op == "frames") {
    auto frames = b.frames(deadline);
    if (!frames) return statusJson(frames.status());
    json out = json::array();
    for (const auto& f : *frames) {
      out.push_back({{"id", f.id}, {"url", f.url}, {"box", {{"x", f.box.x}, {"y", f.box.y},
                                                          {"width", f.box.width}, {"height", f.box.height}}}});
    }
    return {{"ok", true}, {"frames", out}};
  }
  return {{"ok", false}, {"code", "UNKNOWN_COMMAND"}, {"error", "unknown op \"" + op + "\""}};
}

}  // namespace

int runScannerShell(BackendFactory* factory, std::istream& in, std::ostream& out) {
  auto backend = factory->create(Deadline::inMs(60000));
  if (!backend) {
    out << statusJson(backend.status()).dump() << std::endl;
    return 1;
  }
  Backend& b = **backend;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json msg = json::parse(line, nullptr, false);
    json reply;
    if (msg.is_discarded() || !msg.is_object()) {
      reply = {{"ok", false}, {"code", "SCRIPT_ERROR"}, {"error", "not a JSON object"}};
    } else if (msg.contains("op")) {
      reply = handleOp(b, msg);
    } else {
      std::string frame = msg.value("frame", "");
      json command = msg;
      command.erase("frame");
      auto r = b.scanner(command, frame, Deadline::inMs(msg.value("timeout", 30000LL) + 5000));
      reply = r ? *r : statusJson(r.status());
    }
    out << reply.dump(-1, ' ', false, json::error_handler_t::replace) << std::endl;
  }
  return 0;
}

}  // namespace lscope
