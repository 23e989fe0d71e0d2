// scroll_to (intent-engine.md §2.1): brings an element into view and checks that it is.
#include "engine/builtins/common.h"

namespace lscope {
namespace {

using namespace builtin;

Status run(IntentRun& run) {
  auto target = parseTarget(run.vars.value("target", ""));
  if (!target) return target.status();
  Page& page = run.page;
  auto done = run.act(*target, [&](const Element& e) -> Result<std::string> {
    auto r = page.scroll(json::object(), &e);
    if (!r) return r.status();
    return std::string();
  });
  if (!done) return done.status();
  const Element el = done->element;
  run.log("scroll " + logLabel(el));
  const Element* now = run.scan.byId(el.id);
  if (!now || !now->in_viewport) {
    return Status(codes::kVerificationFailed, logLabel(el) + " is still out of view",
                  "it may sit in a scrolling container: scroll --within <css>");
  }
  run.summary = logLabel(el);
  run.no_changes = true;
  return Status::ok();
}

bool ready(const PageScan&) { return false; }

}  // namespace

BuiltinIntent scrollToIntent() {
  return {define("scroll_to", "Scroll an element into view.",
                 {param("target", "string", true, nullptr, "id, \"text\", role or css(…)")},
                 {"scroll to", "scroll down to", "bring into view"}),
          run, ready};
}

}  // namespace lscope
