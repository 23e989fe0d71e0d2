// The command table (intent-language.md "Command Categories"), top to bottom in one place.
#include "engine/commands.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace lscope {
namespace {

using P = ParamSpec;
using T = ParamType;

P target(bool required = true) {
  return P{"target", T::kTarget, required, true, "id, \"text\", role, css(…) or xpath(…)"};
}

P timeout() { return P{"timeout", T::kDuration, false, false, "max wait, e.g. 10s (default 30s)"}; }
// Actions wait for their target to appear and become actionable (auto-wait, issue 12).
P autoWait() { return P{"timeout", T::kDuration, false, false, "auto-wait (default 5s)"}; }

std::vector<CommandSpec> buildTable() {
  std::vector<CommandSpec> t;
  // name, title, category, summary, usage, params, aliases, read_only, destructive, idempotent, open_world
  // --- navigation
  t.push_back({"goto", "Go to URL", "navigation", "Load a URL in the current tab and observe it.",
               "goto <url>",
               {P{"url", T::kString, true, true, ""}},
               {"navigate", "open"}, false, false, true, true});
  t.push_back({"back", "Go back", "navigation", "Go back in history.", "back", {}, {}, false, false,
               false, true});
  t.push_back({"forward", "Go forward", "navigation", "Go forward in history.", "forward", {}, {},
               false, false, false, true});
  t.push_back({"refresh", "Reload page", "navigation", "Reload the page.", "refresh", {}, {"reload"},
               false, false, true, true});
  t.push_back({"url", "Current URL", "navigation", "Print the current URL.", "url", {}, {}, true,
               false, true, false});
  // --- observation
  t.push_back({"observe", "Observe page", "observation",
               "List the page's interactive elements with ids, patterns and available intents.",
               "observe [--full] [--near <text>] [--within <css>] [--viewport] [--max <n>]",
               {P{"full", T::kBoolean, false, false, "selectors, positions"},
                P{"near", T::kString, false, false, "only elements near this text"},
                P{"within", T::kString, false, false, "only elements inside this CSS selector"},
                P{"viewport", T::kBoolean, false, false, "only elements in the viewport"},
                P{"hidden", T::kBoolean, false, false, ""},
                P{"max", T::kInteger, false, false, ""}},
               {"scan", "look"}, true, false, true, false});
  t.push_back({"text", "Page text", "observation", "Print the visible text of the page or an element.",
               "text [<target>]", {target(false)}, {"read"}, true, false, true, false});
  // extract (issue 13): content as data; a target names the part of the page to read.
  t.push_back({"extract", "Extract content", "observation",
               "Read the page's content as data: text, links, tables, images, meta, forms, or a list of repeated items.",
               "extract text|links|tables|images|meta|forms [within <target>] | extract list <target> "
               "[--max <n>] [--offset <n>] [--table <n>]",
               {P{"kind", T::kString, true, true, "what to read",
                  {"text", "links", "tables", "images", "meta", "forms", "list"}},
                P{"target", T::kTarget, false, true,
                  "the part of the page to read (a heading reads its section); for list, one item or the list",
                  {}, false, false, false, /*lead=*/"within"},
                P{"max", T::kInteger, false, false, "items (table rows) to return"},
                P{"offset", T::kInteger, false, false, "skip this many items (table rows): the next page"},
                P{"table", T::kInteger, false, false, "only the n-th table (1-based)"}},
               {"scrape"}, true, false, true, false});
  t.push_back({"title", "Page title", "observation", "Print the page title.", "title", {}, {}, true,
               false, true, false});
  t.push_back({"screenshot", "Screenshot", "observation", "Capture the viewport as a PNG image.",
               "screenshot", {}, {}, true, false, true, false});
  // --- actions
  t.push_back({"click", "Click", "action", "Click an element (native input) and report changes.",
               "click <target> [--double] [--right] [--middle] [--force] [--timeout 5s]",
               {target(), P{"double", T::kBoolean, false, false, ""},
                P{"right", T::kBoolean, false, false, ""},
                P{"middle", T::kBoolean, false, false, ""},
                P{"force", T::kBoolean, false, false, "click even if covered"}, autoWait()},
               {"tap"}, false, true, false, true});
  t.push_back({"type", "Type text", "action", "Type text into a field (clears it first).",
               "type <target> <text> [--enter] [--append]",
               {target(),
                P{"text", T::kString, true, true, "text, or secret:NAME", {}, /*rest=*/true, false,
                  /*secret_ref=*/true},
                P{"enter", T::kBoolean, false, false, ""},
                P{"append", T::kBoolean, false, false, "keep existing text"},
                P{"delay", T::kInteger, false, false, ""}, autoWait()},
               {"fill", "input"}, false, true, false, true});
  t.push_back({"clear", "Clear field", "action", "Clear an input field.", "clear <target>",
               {target(), autoWait()}, {}, false, false, true, true});
  t.push_back({"press", "Press key", "action", "Press a key or combination (Enter, Control+A).",
               "press <key>", {P{"key", T::kString, true, true, "Enter, Tab, Control+A ..."}},
               {"key"}, false, true, false, true});
  t.push_back({"select", "Select option", "action", "Choose an option of a dropdown by text or value.",
               "select <target> <option>",
               {target(), P{"option", T::kString, false, true, "option text or value; a list picks each (a multiple select)",
                            {}, true, false, false, {}, true},
                P{"index", T::kInteger, false, false, ""}, autoWait()},
               {"choose"}, false, false, true, true});
  t.push_back({"check", "Check", "action", "Check a checkbox, radio or switch.", "check <target>",
               {target(), autoWait()}, {}, false, false, true, true});
  t.push_back({"uncheck", "Uncheck", "action", "Uncheck a checkbox or switch.", "uncheck <target>",
               {target(), autoWait()}, {}, false, false, true, true});
  t.push_back({"hover", "Hover", "action", "Move the mouse over an element.", "hover <target>",
               {target(), autoWait()}, {}, false, false, true, true});
  // drag: press on the target (on its handle when it has one), move the mouse to `to` in steps,
  // release; a heading names the list or column under it (the drop lands at its end).
  t.push_back({"drag", "Drag and drop", "action",
               "Drag an element onto another, or to the end of the list or column a heading names.",
               "drag <target> [to] <target>",
               {target(), P{"to", T::kTarget, true, true, "where to drop it: an element, or a list's or column's heading",
                            {}, false, false, false, /*lead=*/"to"},
                autoWait()},
               {"drag_and_drop", "move"}, false, false, false, true});
  t.push_back({"focus", "Focus", "action", "Give an element keyboard focus.", "focus <target>",
               {target(), autoWait()}, {}, false, false, true, true});
  t.push_back({"scroll", "Scroll", "action", "Scroll the page or a container.",
               "scroll [up|down|left|right|top|bottom] [<pixels>|page] [--within <css>]",
               {P{"direction", T::kString, false, true, "",
                  {"up", "down", "left", "right", "top", "bottom"}},
                P{"amount", T::kString, false, true, "pixels or 'page'"},
                P{"within", T::kString, false, false, "CSS selector of the container to scroll"},
                P{"smooth", T::kBoolean, false, false, ""}},
               {}, false, false, false, true});
  t.push_back({"upload", "Upload file", "action", "Set the file(s) of a file input.",
               "upload <target> <path> [<path> ...]",
               {target(), P{"path", T::kString, true, true, "file path(s), space-separated", {}, true}, autoWait()},
               {}, false, false, true, false});
  // dismiss and submit (issue 13): one named thing, through the built-ins' ways of closing popups
  // and choosing forms (dismiss_popups, submit_form).
  t.push_back({"dismiss", "Dismiss", "action",
               "Close one popup: the top one, one of a kind, or the one holding a target.",
               "dismiss popup|modal|overlay|toast|banner|<target>",
               {P{"target", T::kTarget, true, true, "popup, modal, overlay, toast, banner, or what the popup shows"},
                P{"wait", T::kDuration, false, false, "for a popup that opens late (default 3s)"}},
               {}, false, false, false, true});
  t.push_back({"submit", "Submit", "action",
               "Submit the form holding the target (a field, or its button), or the current form.",
               "submit [<target>]",
               {target(false), P{"wait", T::kDuration, false, false, "for the outcome (default 10s)"}},
               {}, false, true, false, true});
  // --- tabs
  t.push_back({"tabs", "Tabs", "tabs", "List tabs; switch to, close or open one.",
               "tabs [list|switch <n>|close <n>|new [<url>]]",
               {P{"action", T::kString, false, true, "what to do", {"list", "switch", "close", "new"}},
                P{"tab", T::kString, false, true, "tab number from the list, or a URL for new"}},
               {"tab"}, false, true, false, true});
  // --- intents and configuration (intent-engine.md §7, §11.3)
  t.push_back({"intent", "Run intent", "intent", "Run any intent by name (for clients that never refresh tools).",
               "intent <name> [<params>]",
               {P{"name", T::kString, true, true, ""},
                P{"params", T::kObject, false, true, ""}},
               {}, false, true, false, true});
  // `do` and `capabilities` (issue 19): one sentence to the intent it means.
  t.push_back({"do", "Do", "intent",
               "What to do, in one sentence: runs the intent it means with the values it gives.",
               "do <sentence> [--dry_run]",
               {P{"sentence", T::kString, true, true, "e.g. log in as ada@example.com with password \"…\"", {}, true, true},
                P{"dry_run", T::kBoolean, false, false, "only say which intent and values"}},
               {}, false, true, false, true});
  t.push_back({"capabilities", "Capabilities", "intent",
               "Intents available now: what each does, its parameters, an example, ready here or not.",
               "capabilities", {}, {}, true, false, true, false});
  t.push_back({"intents", "List intents", "intent", "List intents with their tier and whether they are ready here.",
               "intents [--session] [--reload] [--clear_session]",
               {P{"session", T::kBoolean, false, false, "only session intents"},
                P{"reload", T::kBoolean, false, false, "reload intent files first"},
                P{"clear_session", T::kBoolean, false, false, "remove every session intent"}},
               {}, false, false, true, false});
  t.push_back({"define", "Define intent", "intent", "Register a session intent from a YAML or JSON definition.",
               "define <definition>",
               {P{"definition", T::kString, true, true, "the definition (schemas/intent-v1.json)", {}, true}},
               {}, false, false, false, false});
  t.push_back({"undefine", "Remove intent", "intent", "Remove a session intent.", "undefine <name>",
               {P{"name", T::kString, true, true, ""}}, {}, false, false, true, false});
  t.push_back({"export", "Export intent", "intent",
               "Write an intent's definition as YAML that loads back to the same definition (§7.5).",
               "export <name> [--to <file>]",
               {P{"name", T::kString, true, true, ""},
                P{"to", T::kString, false, false, "file to write (default ~/.lemmascope/intents/<name>.yaml)"},
                P{"out", T::kString, false, false, "the same as --to (the spec's spelling, §7.5)"}},
               {}, false, false, true, false});
  // The intent learner (intent-engine.md §8, issue 18).
  t.push_back({"learned", "Learned intents", "intent",
               "Intents the learner proposes from repeated command sequences, and those saved.",
               "learned [--all]",
               {P{"all", T::kBoolean, false, false, "also the rejected ones"}},
               {}, true, false, true, false});
  t.push_back({"accept", "Accept proposal", "intent", "Save a learner proposal as a discovered intent (a tool from now on).",
               "accept <name>", {P{"name", T::kString, true, true, ""}}, {}, false, false, true, false});
  t.push_back({"reject", "Reject proposal", "intent", "Reject a learner proposal: it is never proposed again.",
               "reject <name>", {P{"name", T::kString, true, true, ""}}, {}, false, false, true, false});
  t.push_back({"refine", "Refine proposal", "intent",
               "Show or change a proposal before saving it: add/remove param, edit/add/remove step, test, save, cancel (§8.4).",
               "refine <name> [add param <p>:<type> [--optional] | remove param <p> | edit step <n> <step> | "
               "add step <n> <step> | remove step <n> | rename <new> | test [--<p> <value> ...] | save | cancel]",
               {P{"name", T::kString, true, true, ""},
                P{"change", T::kString, false, true, "e.g. add param title:string --optional; test --rating 5", {}, true}},
               {}, false, false, false, true});
  t.push_back({"forget", "Forget learned", "intent",
               "Delete what the learner recorded for a domain (or everything with --all), proposals and saved ones too.",
               "forget <domain> | forget --all",
               {P{"domain", T::kString, false, true, ""},
                P{"all", T::kBoolean, false, false, "every domain"}},
               {}, false, true, true, false});
  // Site packs (intent-engine.md §9.5).
  t.push_back({"packs", "List packs", "intent", "List site packs: loaded here, available, or invalid with the reason.",
               "packs [--reload]",
               {P{"reload", T::kBoolean, false, false, "read the pack folders again first"}},
               {}, true, false, true, false});
  t.push_back({"pack", "Manage pack", "intent",
               "Load, unload, update, install or create a site pack (§9.5).",
               "pack load|unload|update|install|new <name|folder|archive|index-url> [--source <index-url>] "
               "[--pack <name>] [--trusted] [--force]",
               {P{"action", T::kString, true, true, "what to do", {"load", "unload", "update", "install", "new"}},
                P{"name", T::kString, true, true, "a pack name; for install a folder, a .tar.gz or an index URL"},
                P{"source", T::kString, false, false, "install <name> from this pack index URL"},
                P{"pack", T::kString, false, false, "install: which pack of the index"},
                P{"trusted", T::kBoolean, false, false, "install: trust the author (scripts, files, sensitive fields)"},
                P{"force", T::kBoolean, false, false, "install: replace an installed pack"}},
               {}, false, false, false, true});
  t.push_back({"config", "Configuration", "config", "Show, set or reset engine settings (intent-engine.md §11).",
               "config [show|set|reset] [<key>] [<value>]",
               {P{"action", T::kString, false, true, "show, set or reset", {"show", "set", "reset"}},
                P{"key", T::kString, false, true, "setting, e.g. execution.default_timeout"},
                P{"value", T::kString, false, true, "new value", {}, true}},
               {}, false, false, true, false});
  // --- waits
  t.push_back({"wait", "Wait", "wait", "Wait for load, network idle, an element, or a URL.",
               "wait load|idle|visible|hidden|exists|gone|enabled|disabled|url [<target|url>] [--timeout 10s]",
               {P{"condition", T::kString, true, true, "",
                  {"load", "idle", "visible", "hidden", "exists", "gone", "enabled", "disabled",
                   "url", "navigation"}},
                P{"target", T::kTarget, false, true, "element, or URL part"}, timeout()},
               {}, true, false, true, true});
  return t;
}

bool iequal(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

const ParamSpec* CommandSpec::param(const std::string& n) const {
  for (const auto& p : params) {
    if (p.name == n) return &p;
  }
  return nullptr;
}

const std::vector<CommandSpec>& commandTable() {
  static const std::vector<CommandSpec> kTable = buildTable();
  return kTable;
}

const CommandSpec* findCommand(const std::string& name) {
  for (const auto& c : commandTable()) {
    if (iequal(c.name, name)) return &c;
    for (const auto& a : c.aliases) {
      if (iequal(a, name)) return &c;
    }
  }
  return nullptr;
}

size_t editDistance(const std::string& a, const std::string& b) {
  // Optimal string alignment: Levenshtein, and two adjacent letters swapped count as one edit
  // ("clcik" is one from "click").
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<size_t> before(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1])) cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> nearestCommands(const std::string& word, size_t max) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& c : commandTable()) {
    scored.emplace_back(editDistance(word, c.name), c.name);
    for (const auto& a : c.aliases) scored.emplace_back(editDistance(word, a) + 1, c.name);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, n] : scored) {
    if (d > std::max<size_t>(2, word.size() / 2)) break;
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    if (out.size() >= max) break;
  }
  return out;
}

std::optional<long long> parseDurationMs(const std::string& text) {
  constexpr double kMaxDurationMs = 24.0 * 3600 * 1000;
  if (text.empty()) return std::nullopt;
  size_t i = 0;
  int points = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
    if (text[i] == '.' && ++points > 1) return std::nullopt;  // "1.2.3" is no number
    ++i;
  }
  if (i == 0 || (i == 1 && points == 1)) return std::nullopt;
  double value = std::strtod(text.substr(0, i).c_str(), nullptr);
  std::string unit = text.substr(i);
  for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double ms;
  if (unit.empty() || unit == "ms") {
    ms = value;
  } else if (unit == "s" || unit == "sec" || unit == "secs" || unit == "seconds") {
    ms = value * 1000;
  } else if (unit == "m" || unit == "min" || unit == "minutes") {
    ms = value * 60000;
  } else {
    return std::nullopt;
  }
  // Casting a double beyond long long is undefined (found by fuzz_oil: --timeout 2.9e36); no
  // wait needs more than a day.
  if (!std::isfinite(ms) || ms > kMaxDurationMs) return std::nullopt;
  return static_cast<long long>(ms);
}

}  // namespace lscope
