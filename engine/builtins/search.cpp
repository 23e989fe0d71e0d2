// search (intent-engine.md §4.2): types the query into the page's main search (the `main`
// landmark over navigation and sidebar filters, then size, position and a submit button),
// submits with Enter or its button, waits for results, and says which box it used.
#include "engine/builtins/choices.h"
#include "engine/builtins/common.h"

#include <algorithm>

#include "engine/observation.h"
#include "engine/resolver.h"

namespace lscope {
namespace {

using namespace builtin;

bool isSearchBox(const Element& e) {
  if (e.type != "input" && e.type != "textarea" && e.attributes.value("role", "") != "combobox") return false;
  if (e.role == "search") return true;
  // A picker the scanner did not call a search is named for what it picks ("Approver"), its
  // placeholder saying how ("Search a colleague"): it fills a field of a form (scanner/README.md).
  if (e.attributes.value("role", "") == "combobox") return false;
  return e.type == "input" && (attrHas(e, {"search", "query", "keyword"}) || e.attributes.value("name", "") == "q" ||
                               textHas(e, {"search", "find"}));
}

// A combobox among its form's other fields picks one of the form's own choices (Headless UI's
// "People", "Search by name…", in an invite form): it searches no site, and its form's submit
// sends the form. The scanner says so (`filters_form`, the rule its search_form follows).
bool isSiteSearch(const Element& e) { return isSearchBox(e) && !e.filters_form; }

// How much `e` looks like the page's main search (issue 12 item 4): landmark first.
int score(const PageScan& p, const Element& e) {
  int s = 0;
  const std::string& lm = e.landmark;
  if (lm == "main") s += 40;
  else if (lm == "search") s += 20;
  else if (lm == "header" || lm.empty()) s += 10;
  else if (lm == "nav") s -= 20;
  else if (lm == "aside") s -= 30;
  else if (lm == "dialog") s -= 10;
  if (p.pattern("search_form") && p.pattern("search_form")->fields.count("input") &&
      p.pattern("search_form")->fields.at("input") == e.id) {
    s += 5;
  }
  if (searchButtonFor(p, e)) s += 15;
  // Size: the main search is a wide box; a widget's filter field or a sidebar filter is narrow.
  s += std::min(12, static_cast<int>(e.rect.width / 60));
  if (e.rect.width < 120) s -= 5;
  // The filter field of a select widget (select2's tags search) is no site search.
  if (e.attributes.value("role", "") == "searchbox" && e.attributes.contains("aria-controls")) s -= 10;
  if (e.visible) s += 20;
  if (e.in_viewport) s += 5;
  // Sidebar menu filters say so.
  if (textHas(e, {"filter", "menu"}) || attrHas(e, {"filter", "sidebar", "menu"})) s -= 15;
  return s;
}

std::string where(const Element& e) { return e.landmark.empty() ? "the page" : e.landmark; }

Status run(IntentRun& run) {
  std::string query = run.vars.value("query", "");
  std::string mode = run.vars.value("submit", "auto");
  long long wait_ms = durationArg(run.vars.value("wait", json("5s")), 5000);
  long long appear_ms = durationArg(run.vars.value("appear", json("3s")), 3000);
  Page& page = run.page;
  waitForPattern(run, [](const PageScan& p) { return firstWhere(p, isSiteSearch) != nullptr; }, appear_ms,
                 "search box");
  std::vector<const Element*> boxes = rankSearchBoxes(run.scan);
  if (boxes.empty()) {
    return Status(codes::kTargetNotFound, "no search box on this page", "observe for a search link or icon; click it first");
  }
  const Element input = *boxes.front();
  const Element* btn = searchButtonFor(run.scan, input);
  int button_id = btn ? btn->id : 0;
  if (boxes.size() > 1) {
    std::string others;
    for (size_t i = 1; i < boxes.size() && i < 3; ++i) {
      others += (others.empty() ? "" : ", ") + std::string("[") + std::to_string(boxes[i]->id) + "] in " + where(*boxes[i]);
    }
    run.add("chosen", "the search in " + where(input) + " " + logLabel(input) + "; not " + others);
  }

  auto text_before = page.scanner().textOf("body");
  PageScan before = run.scan;
  if (input.value && !input.value->empty()) run.log("clear [" + std::to_string(input.id) + "]");
  auto t = run.type(input, query);
  if (!t) return t.status();

  // Signs that the search ran: a new page, new elements, or new text.
  auto changed = [&]() -> Result<bool> {
    if (documentOf(run.scan) != documentOf(before) || run.scan.url != before.url) return true;
    auto now = page.scanner().textOf("body");
    if (!now) return now.status();
    std::string a = text_before ? *text_before : "";
    // Typing the query changes nothing else; results or "no results" change the text.
    return *now != a && now->size() != a.size();
  };
  auto waitResults = [&](long long ms) -> Result<bool> {
    page.settle();
    Status s = run.waitFor(changed, ms);
    if (s) return true;
    if (s.code() == codes::kTimeout) return false;
    return s;
  };
  // A popup the text brought up is closed before Enter goes into the box (a button's click
  // finds it in front of itself).
  if (mode != "click") LSCOPE_RETURN_IF_ERROR(run.beforeKeys());
  auto t0 = Clock::now();
  auto clickButton = [&]() -> Status {
    const Element* b = run.scan.byId(button_id);
    if (!b) return Status(codes::kTargetNotFound, "no search button", "search --submit enter");
    auto c = run.click(*b);
    return c.status();
  };
  Result<bool> done = false;
  if (mode == "click") {
    LSCOPE_RETURN_IF_ERROR(clickButton());
    done = waitResults(wait_ms);
  } else {
    // Enter first (most sites); in auto mode, the button when Enter changed nothing.
    const Element* in = run.scan.byId(input.id);
    LSCOPE_RETURN_IF_ERROR(page.press("Enter", in && !in->focused ? in : nullptr));
    run.log("press Enter");
    long long first = mode == "auto" && button_id ? std::min<long long>(wait_ms, 1500) : wait_ms;
    done = waitResults(first);
    if (done && !*done && mode == "auto" && button_id) {
      LSCOPE_RETURN_IF_ERROR(run.rescan());
      LSCOPE_RETURN_IF_ERROR(clickButton());
      done = waitResults(wait_ms);
    }
  }
  if (!done) return done.status();
  run.summary = quote(query);
  if (!*done) {
    return Status(codes::kVerificationFailed, "the page did not change after searching",
                  button_id ? "try search --submit click, or wait longer with --wait 10s"
                            : "observe: the site may need another way to submit");
  }
  run.log("wait results (" + elapsedSince(t0) + ")");
  return Status::ok();
}

bool ready(const PageScan& page) {
  if (page.pattern("search_form")) return true;
  for (const auto& e : page.elements) {
    if (e.role == "search" && !e.filters_form) return true;
  }
  return false;
}

}  // namespace

const Element* searchButtonFor(const PageScan& p, const Element& box) {
  using namespace builtin;
  if (const Pattern* pat = p.pattern("search_form")) {
    auto in = pat->fields.find("input");
    auto sub = pat->fields.find("submit");
    if (in != pat->fields.end() && in->second == box.id && sub != pat->fields.end()) return p.byId(sub->second);
  }
  return firstWhere(p, [&](const Element& e) {
    bool same = !box.form.empty() ? e.form == box.form : e.landmark == box.landmark;
    return same && e.id != box.id && (e.type == "button" || e.type == "generic") &&
           (e.role == "submit" || textHas(e, {"search", "go", "find", "submit"}));
  });
}

std::vector<const Element*> rankSearchBoxes(const PageScan& page) {
  std::vector<const Element*> boxes;
  for (const auto& e : page.elements) {
    if (isSiteSearch(e)) boxes.push_back(&e);
  }
  std::stable_sort(boxes.begin(), boxes.end(),
                   [&](const Element* a, const Element* b) { return score(page, *a) > score(page, *b); });
  return boxes;
}

BuiltinIntent searchIntent() {
  return {define("search", "Search the site for a query and wait for results.",
                 {param("query", "string", true, nullptr, ""),
                  param("submit", "string", false, "auto", "enter, click or auto", false, {"enter", "click", "auto"}),
                  param("wait", "string", false, "5s", "for results"), appearParam()},
                 {"search for", "look up", "find", "search the site for"}),
          run, ready};
}

}  // namespace lscope
