// fill_form (intent-engine.md §4.5): matches each key to a field by pattern field, name, id,
// label (including names the scanner reads from nearby text), placeholder and aliases; fills
// text fields, selects (native and custom), checkboxes and radio groups in page order; lists what
// it could not match.
#include "engine/builtins/common.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "engine/expression.h"
#include "engine/observation.h"
#include "engine/resolver.h"

namespace lscope {
namespace {

using namespace builtin;

// Lower-case letters and digits only: "Verify password" -> "verifypassword".
std::string squash(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
  }
  return out;
}

std::string valueText(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A text field that opens a list of choices: a combobox, or one that says it pops up a listbox
// without the role (Mantine's Select and MultiSelect inputs).
bool opensList(const Element& e) {
  return e.attributes.value("role", "") == "combobox" || e.attributes.value("aria-haspopup", "") == "listbox";
}

// The element of `page` that a field no longer in it became: the same tag and name, where it was
// (within 40 px), the nearest; or null.
const Element* successorOf(const PageScan& page, const Element& gone) {
  const Element* best = nullptr;
  double best_d = 40;
  for (const auto& e : page.elements) {
    if (e.tag != gone.tag || e.text != gone.text || e.text.empty()) continue;
    const double d = std::hypot(e.rect.cx() - gone.rect.cx(), e.rect.cy() - gone.rect.cy());
    if (d <= best_d) {
      best = &e;
      best_d = d;
    }
  }
  return best;
}

bool hasAlias(const Element& e, const std::string& key) {
  const std::string k = squash(key);
  return std::any_of(e.aliases.begin(), e.aliases.end(), [&](const std::string& a) { return squash(a) == k; });
}

// A checkbox matched by its group's question (one of its aliases, not its own text) and given
// option names rather than a yes or no: the answer is for the group.
bool answersAsGroup(const Element& box, const std::string& key, const json& value) {
  if (squash(box.text) == squash(key) || !hasAlias(box, key)) return false;
  if (value.is_array()) return true;
  if (!value.is_string()) return false;
  static const std::set<std::string> kYesNo = {"true", "false", "yes", "no", "on", "off", "checked", "unchecked", ""};
  return !kYesNo.count(squash(value.get<std::string>()));
}

struct Assignment {
  std::string key;
  json value;
  int id;  // the field, or for radios the option to check
};

int matchScore(const Element& e, const std::string& key, const Pattern* pat) {
  std::string k = squash(key);
  if (k.empty()) return 0;
  int score = 0;
  if (pat && pat->fields.count(key) && pat->fields.at(key) == e.id) score = 100;
  std::string name = squash(e.attributes.value("name", ""));
  std::string id = squash(e.attributes.value("id", ""));
  std::string text = squash(e.text);
  std::string ph = squash(e.attributes.value("placeholder", ""));
  std::string aria = squash(e.attributes.value("aria-label", ""));
  if (name == k || id == k) score = std::max(score, 90);
  if (e.type == "radio" && name == k) score = std::max(score, 85);  // a radio group by its name
  if (text == k || aria == k) score = std::max(score, 80);
  if (ph == k) score = std::max(score, 75);
  for (const auto& a : e.aliases) {
    if (squash(a) == k) score = std::max(score, 72);
  }
  if (e.role == k) score = std::max(score, 70);
  if (text.find(k) != std::string::npos || (!text.empty() && text.size() >= 3 && k.find(text) != std::string::npos)) {
    score = std::max(score, 50);
  }
  if (name.find(k) != std::string::npos || ph.find(k) != std::string::npos || aria.find(k) != std::string::npos) {
    score = std::max(score, 40);
  }
  return score;
}

Status fill(IntentRun& run, const json& data, const std::string& pattern, bool partial) {
  Page& page = run.page;
  // The fields that may take values, optionally those of one pattern's container.
  std::set<int> scope;
  const Pattern* pat = nullptr;
  if (!pattern.empty()) {
    pat = run.scan.pattern(pattern.substr(0, pattern.find('.')));
    if (!pat) return Status(codes::kTargetNotFound, "no " + pattern + " on this page", "observe lists the patterns");
    auto ids = page.hooks(run.scan).select(":is(" + pat->container + ") *", false);
    if (ids) scope.insert(ids->begin(), ids->end());
    for (const auto& [n, id] : pat->fields) scope.insert(id);
  }

  // 1. Match every key to a field (§4.5 step 2). Visible fields first: a person fills what they see.
  std::vector<Assignment> plan;
  std::vector<std::string> skipped;
  std::set<int> used;
  // The best field for a key; fields of `form` (the form most keys point to) win ties and near
  // ties: a page with two forms that both ask for an email is filled in one of them.
  auto bestFor = [&](const std::string& key, const std::string& form) -> const Element* {
    const Element* best = nullptr;
    int best_score = 0;
    for (const auto& e : run.scan.elements) {
      if (!isField(e) || used.count(e.id) || (!scope.empty() && !scope.count(e.id))) continue;
      int score = matchScore(e, key, pat);
      if (score > 0 && e.visible) score += 5;
      if (score > 0 && !form.empty() && e.form == form) score += 15;
      if (score > best_score) {
        best = &e;
        best_score = score;
      }
    }
    return best;
  };
  std::map<std::string, int> votes;
  for (auto it = data.begin(); it != data.end(); ++it) {
    if (const Element* e = bestFor(it.key(), "")) {
      if (!e->form.empty()) ++votes[e->form];
    }
  }
  std::string form;
  int most = 0;
  for (const auto& [f, n] : votes) {
    if (n > most) {
      form = f;
      most = n;
    }
  }
  for (auto it = data.begin(); it != data.end(); ++it) {
    const std::string key = it.key();
    const Element* best = bestFor(key, form);
    if (!best) {
      skipped.push_back(quote(key) + ": no matching field found");
      continue;
    }
    int target = best->id;
    if (best->type == "checkbox" && answersAsGroup(*best, key, *it)) {
      // A group of checkboxes asked as one question (a fieldset's legend, a named group) and
      // answered with option names: those are checked, the group's others unchecked, as a radio
      // group's value picks its option (Base UI's CheckboxGroup "Allowed network protocols").
      std::map<std::string, std::string> want;  // squashed -> as given
      for (const auto& v : it->is_array() ? *it : json::array({*it})) want.emplace(squash(valueText(v)), valueText(v));
      std::set<std::string> found;
      for (const auto& e : run.scan.elements) {
        if (e.type != "checkbox" || used.count(e.id) || !hasAlias(e, key)) continue;
        const std::string text = squash(e.text), value = squash(e.attributes.value("value", ""));
        const bool on = want.count(text) || (!value.empty() && want.count(value));
        if (on) found.insert(want.count(text) ? text : value);
        if (!on && !e.checked.value_or(false)) continue;  // an unlisted box already unchecked stays so
        used.insert(e.id);
        plan.push_back({key, json(on), e.id});
      }
      for (const auto& [w, given] : want) {
        if (!found.count(w)) skipped.push_back(quote(key) + ": no option " + quote(given));
      }
      continue;
    }
    if (best->type == "radio") {
      // The option of the group whose label or value is the value.
      std::string want = squash(valueText(*it));
      std::string group = best->attributes.value("name", "");
      // Radios with no name attribute (custom elements: Web Awesome's wa-radio) are a group by
      // the question they answer to (the legend or radiogroup name among their aliases).
      auto answersKey = [&](const Element& e) {
        return e.attributes.value("name", "").empty() && hasAlias(e, key);  // named radios group by name
      };
      bool by_question = group.empty() && answersKey(*best);
      int option = 0;
      for (const auto& e : run.scan.elements) {
        if (e.type != "radio") continue;
        if (by_question ? !answersKey(e) : e.attributes.value("name", "") != group) continue;
        used.insert(e.id);
        if (squash(e.text) == want || squash(e.attributes.value("value", "")) == want) option = e.id;
      }
      if (!option) {
        skipped.push_back(quote(key) + ": no option " + quote(valueText(*it)));
        continue;
      }
      target = option;
    }
    used.insert(target);
    plan.push_back({key, *it, target});
  }

  // 2. Fill in page order, as a person would (later fields may depend on earlier ones).
  auto order = [&](int id) {
    for (size_t i = 0; i < run.scan.elements.size(); ++i) {
      if (run.scan.elements[i].id == id) return i;
    }
    return run.scan.elements.size();
  };
  std::stable_sort(plan.begin(), plan.end(), [&](const Assignment& a, const Assignment& b) { return order(a.id) < order(b.id); });
  int filled = 0;
  std::set<int> typed;  // the fields filled by typing: those are read back
  for (const auto& a : plan) {
    const Element* found = run.scan.byId(a.id);
    if (!found) {
      skipped.push_back(quote(a.key) + ": the field went away while filling");
      continue;
    }
    const Element el = *found;  // a copy: every action rescans
    std::string shown;
    Result<Acted> done = Status(codes::kInternal, "not filled");
    if (el.type == "radio") {
      done = run.act(el, [&](const Element& e) { return page.setChecked(e, true); });
      shown = "checked";
    } else if (el.type == "checkbox") {
      const json& v = a.value;
      bool want = v.is_boolean() ? v.get<bool>() : truthy(v) && v != "false" && v != "no" && v != "off";
      done = run.act(el, [&](const Element& e) { return page.setChecked(e, want); });
      shown = want ? "checked" : "unchecked";
    } else if (bool autocomplete = el.tag == "input" && opensList(el) && !el.isSensitive();
               autocomplete || el.type == "select") {
      // A select, or a text field with a list of choices (an autocomplete): the option is picked
      // as `select` picks it; a value an autocomplete's list does not offer is typed (free text).
      // A list of values picks each in turn (a multiple select: Mantine's MultiSelect).
      std::vector<json> options;
      // A native <select multiple> takes the list at once (each pick alone would replace the last).
      const bool at_once = a.value.is_array() && Page::takesListAtOnce(el);
      if (a.value.is_array()) {
        for (const auto& v : a.value) options.push_back(json(valueText(v)));
      } else {
        options.push_back(autocomplete ? json(valueText(a.value))
                          : a.value.is_string() || a.value.is_number_integer() ? a.value : json(a.value.dump()));
      }
      std::vector<std::string> chosen;
      Element field = el;
      if (at_once) {
        done = run.act(field, [&](const Element& e) -> Result<std::string> {
          auto all = page.selectList(e, json(options));
          if (!all) return all.status();
          chosen = std::move(*all);
          return std::string();
        });
      } else {
        for (const auto& option : options) {
          // A pick may redraw the field as another element (Blueprint's MultiSelect drops its
          // placeholder and its search type with the first tag): the next pick goes to its successor.
          if (!run.scan.byId(field.id)) {
            if (const Element* next = successorOf(run.scan, field)) field = *next;
          }
          done = run.act(field, [&](const Element& e) -> Result<std::string> {
            auto r = page.select(e, option);
            if (r) {
              chosen.push_back(*r);
              return std::string();
            }
            if (!autocomplete || r.status().code() != codes::kTargetNotFound) return r.status();
            chosen.push_back(option.get<std::string>());
            return page.type(e, chosen.back(), true);
          });
          if (!done) break;
        }
      }
      for (const auto& c : chosen) shown += (shown.empty() ? "" : ", ") + quote(c);
    } else {
      std::string text = valueText(a.value);
      bool secret = el.isSensitive() || isSensitiveName(a.key);
      if (secret) page.rememberSecret(text);
      done = run.act(el, [&](const Element& e) { return page.type(e, text, true); });
      shown = quote(secret ? std::string(kMask) : text);
      typed.insert(el.id);
    }
    if (!done) {
      skipped.push_back(quote(a.key) + ": " + done.status().message());
      continue;
    }
    ++filled;
    run.add("filled", "[" + std::to_string(el.id) + "] " + elementLabel(el) + " ← " + shown);
    run.reported.insert(el.id);
  }
  // Verify: read the text fields back (a mask, a formatter or a script may have changed them).
  int checked = 0;
  std::vector<std::string> differ;
  if (filled > 0 && run.rescan()) {
    for (const auto& a : plan) {
      const Element* now = run.scan.byId(a.id);
      if (!typed.count(a.id) || !now || !now->value || (now->type != "input" && now->type != "textarea") ||
          now->isSensitive() || isSensitiveName(a.key)) {
        continue;
      }
      ++checked;
      std::string want = valueText(a.value);
      if (!fieldShowsTyped(*now, *now->value, want)) {
        differ.push_back(quote(a.key) + ": the field holds " + quote(*now->value));
      }
    }
  }
  for (const auto& d : differ) run.add("differs", d);
  for (const auto& s : skipped) run.add("skipped", s);
  if (checked > 0 && differ.empty()) run.result.push_back("verified: " + std::to_string(checked) + " text field" + (checked == 1 ? "" : "s") + " read back");
  run.summary = std::to_string(filled) + " field" + (filled == 1 ? "" : "s");
  // A field that holds something else than asked is not filled (Mantine's searchable Select puts
  // its chosen label back, empty, when the typed text picked nothing).
  if (!differ.empty()) {
    run.partial = true;
    run.message = std::to_string(filled - differ.size()) + " of " + std::to_string(filled + skipped.size()) +
                  " fields hold what was asked";
    return Status(codes::kVerificationFailed, run.message, "observe the fields that differ, and fill them one by one");
  }
  if (!skipped.empty() && !partial) {
    run.partial = filled > 0;
    run.message = std::to_string(filled) + " of " + std::to_string(filled + skipped.size()) + " fields filled";
    return Status(codes::kTargetNotFound, run.message, "check the field names with observe, or pass --partial");
  }
  return Status::ok();
}

Status run(IntentRun& run) {
  json data = run.vars.value("data", json::object());
  if (!data.is_object() || data.empty()) {
    return Status(codes::kParameterInvalid, "data must be an object of field -> value",
                  "fill_form {\"email\": \"a@b.c\", \"country\": \"France\"}");
  }
  long long appear_ms = durationArg(run.vars.value("appear", json("3s")), 3000);
  waitForPattern(run, [](const PageScan& p) { return firstWhere(p, isField) != nullptr; }, appear_ms, "form");
  return fill(run, data, run.vars.value("pattern", ""), run.vars.value("partial", false));
}

bool ready(const PageScan& page) {
  int fields = 0;
  for (const auto& e : page.elements) fields += (e.type == "input" || e.type == "select" || e.type == "textarea") ? 1 : 0;
  return fields >= 2;
}

}  // namespace

BuiltinIntent fillFormIntent() {
  return {define("fill_form", "Fill a form's fields from {field: value} (text, selects, checkboxes, radios).",
                 {param("data", "object", true, nullptr, "{field: value}"),
                  param("pattern", "string", false, nullptr, ""),
                  param("partial", "boolean", false, false, "some fields may be missing"), appearParam()},
                 {"fill the form with", "fill in the form", "fill out the form", "enter these details"}),
          run, ready};
}

}  // namespace lscope
