// Target resolution: match, rank, choose; every failure says what was there instead.
#include "engine/resolver.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include <re2/re2.h>

#include "engine/commands.h"
#include "engine/observation.h"

namespace lscope {

std::string normalizeText(const std::string& text) {
  std::string out;
  bool space = false;
  for (unsigned char c : text) {
    if (std::isspace(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

// `want` occurs in `text` with a word boundary on both sides.
bool containsWords(const std::string& text, const std::string& want) {
  if (want.empty()) return false;
  auto alnum = [](unsigned char c) { return std::isalnum(c) || c >= 0x80; };
  for (size_t pos = text.find(want); pos != std::string::npos; pos = text.find(want, pos + 1)) {
    bool start = pos == 0 || !alnum(static_cast<unsigned char>(text[pos - 1])) || !alnum(static_cast<unsigned char>(want[0]));
    size_t end = pos + want.size();
    bool stop = end >= text.size() || !alnum(static_cast<unsigned char>(text[end])) ||
                !alnum(static_cast<unsigned char>(want.back()));
    if (start && stop) return true;
  }
  return false;
}

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Inputs that take text (a textbox in ARIA terms), by their type attribute.
bool isTextInput(const Element& e) {
  if (e.type == "textarea") return true;
  if (e.type != "input") return false;
  static const char* kNotText[] = {"date", "time", "datetime-local", "month", "week", "number", "range",
                                   "color", "file", "checkbox", "radio", "hidden"};
  std::string t = lower(e.attributes.value("type", ""));
  for (const char* n : kNotText) {
    if (t == n) return false;
  }
  return true;
}

// The type attributes of inputs that are not plain text (observations print them: input/date).
bool isInputTypeWord(const std::string& w) {
  static const char* kTypes[] = {"date", "time", "datetime-local", "month", "week", "number", "range",
                                 "color", "file", "tel", "url", "email", "password", "search"};
  std::string l = lower(w);
  for (const char* t : kTypes) {
    if (l == t) return true;
  }
  return false;
}

// Strings an element answers to besides its accessible text.
std::vector<std::string> aliases(const Element& e) {
  std::vector<std::string> out;
  for (const char* a : {"placeholder", "name", "aria-label", "title", "id", "value", "alt"}) {
    auto it = e.attributes.find(a);
    if (it != e.attributes.end() && it->is_string() && !it->get<std::string>().empty()) {
      out.push_back(normalizeText(it->get<std::string>()));
    }
  }
  for (const auto& a : e.aliases) out.push_back(normalizeText(a));
  return out;
}

// 0 = no match, higher = better.

// A label's decorations do not count for an exact match: "Message:" is "Message", "Email *" is
// "Email".
std::string trimLabel(std::string s) {
  while (!s.empty() && (s.back() == ':' || s.back() == '*' || s.back() == ' ')) s.pop_back();
  return s;
}

// Dots drawn on an opener of a menu ("...", "⋯", "⋮", "•••") all read as the scanner's name for
// an unnamed one, "…" (scanner.js menuTriggerName).
std::string dotsAsEllipsis(std::string s) {
  // (Most texts start with no dot: spared the regex on the hot path.)
  const size_t first = s.find_first_not_of(" \t\n");
  if (first == std::string::npos || (s[first] != '.' && s[first] != '\xE2' && s[first] != '\xC2')) return s;
  static const RE2 kDots(R"(^\s*(?:\.{2,}|…|⋯|⋮|(?:•|·){2,})\s*$)");
  return RE2::FullMatch(s, kDots) ? std::string("…") : s;
}

int textQualityOne(const Element& e, const std::string& value, TextMatch match) {
  std::string want = trimLabel(normalizeText(dotsAsEllipsis(value)));
  std::string text = trimLabel(normalizeText(dotsAsEllipsis(e.text)));
  if (match == TextMatch::kRegex) {
    RE2 re(value, RE2::Quiet);
    if (!re.ok()) return 0;
    if (RE2::PartialMatch(e.text, re)) return 3;
    for (const auto& a : aliases(e)) {
      if (RE2::PartialMatch(a, re)) return 2;
    }
    return 0;
  }
  if (want.empty()) return 0;
  if (text == want) return 4;
  auto al = aliases(e);
  for (const auto& a : al) {
    if (trimLabel(a) == want) return 3;
  }
  if (match == TextMatch::kExact) return 0;
  // Contained as words ("Pro" in "Pro Unlimited projects") beats inside a word ("project").
  if (containsWords(text, want)) return 2;
  // Inside a word only for a text of 4 characters or more: "up" is no part of "updates".
  if (want.size() < 4) return 0;
  if (text.find(want) != std::string::npos) return 1;
  for (const auto& a : al) {
    if (a.find(want) != std::string::npos) return 1;
  }
  return 0;
}

int textQuality(const Element& e, const TargetSpec& t) {
  int q = textQualityOne(e, t.value, t.match);
  for (const auto& alt : t.alternatives) q = std::max(q, textQualityOne(e, alt, t.match));
  return q;
}

// A row or grid item chosen for a part of its text ("Total" in a grid's header row, "Pending" in an
// order's row): a person presses those words, not the row's middle. Where find_text shows the
// words inside it, the resolution aims there: at a control of their own inside the row, else at
// the words' box in the row.
void aimAtWords(Resolution& r, const TargetSpec& t, const ResolverHooks& hooks) {
  const Element* e = r.element;
  // A row or a grid's item; or any box whose text is far longer than the words (a calendar whose
  // one listener hears all its days: vanillajs-datepicker's month, one listed box).
  const bool holds_many = e && e->text.size() >= 20 && e->text.size() >= 3 * t.value.size();
  if (!e || r.extra || !hooks.find_text || (e->type != "row" && e->type != "item" && !holds_many)) return;
  if (t.kind != TargetSpec::Kind::kText && t.kind != TargetSpec::Kind::kWord) return;
  if (t.match == TextMatch::kRegex || textQualityOne(*e, t.value, t.match) >= 3) return;
  auto found = hooks.find_text(t.value, "exact");
  if (!found) return;
  for (const auto& f : *found) {
    const bool through_it = f.element.id == e->id && f.via == "ancestor";
    const bool own = f.element.id != e->id && f.element.rect.within(e->rect, 1) && f.element.frame == e->frame;
    if (!through_it && !own) continue;
    auto extra = std::make_shared<std::vector<Element>>(1, through_it ? *e : f.element);
    if (through_it) extra->front().aim = f.text_rect;
    for (auto& c : r.candidates) {
      if (c == e) c = &extra->front();
    }
    r.extra = extra;
    r.element = &extra->front();
    r.note = (r.note.empty() ? "" : r.note + "; ") + "the words " + quote(f.matched) + (through_it ? " in it" : " inside [" + std::to_string(e->id) + "]");
    return;
  }
}

// Whether a person can reach `e`, given the ids inside the open modal dialogs (none open: all).
bool reachable(const std::vector<int>& modal, const Element& e) {
  return modal.empty() || std::find(modal.begin(), modal.end(), e.id) != modal.end();
}

int rankScore(const Element& e) {
  return (e.visible ? 8 : 0) + (e.enabled ? 4 : 0) +
         (e.hasModifier("primary") || e.role == "primary" ? 2 : 0) + (e.in_viewport ? 1 : 0);
}

struct Scored {
  const Element* e;
  int quality;
  int rank;
  size_t order;
};

// `in_modal` (may be empty): with a modal dialog open, a match inside it that holds the words
// beats any match behind it, however exact: a person sees the dialog ("Pioneer Katherine Johnson"
// in a command menu, not the page's "Pioneer" link under its overlay).
std::vector<Scored> matchText(const TargetSpec& t, const PageScan& scan,
                              const std::function<std::vector<int>()>& in_modal = nullptr) {
  std::vector<Scored> out;
  for (size_t i = 0; i < scan.elements.size(); ++i) {
    int q = textQuality(scan.elements[i], t);
    if (q > 0) out.push_back({&scan.elements[i], q, rankScore(scan.elements[i]), i});
  }
  const bool dialog_open = std::any_of(scan.patterns.begin(), scan.patterns.end(),
                                       [](const Pattern& p) { return p.name == "modal_dialog"; });
  if (in_modal && dialog_open && out.size() > 1) {
    const std::vector<int> modal = in_modal();
    const bool words_inside = !modal.empty() && std::any_of(out.begin(), out.end(), [&](const Scored& s) {
      return s.quality >= 2 && reachable(modal, *s.e);
    });
    if (words_inside) {
      out.erase(std::remove_if(out.begin(), out.end(), [&](const Scored& s) { return !reachable(modal, *s.e); }), out.end());
    }
  }
  // Only the best tier of textual match counts: an exact "Sign in" beats "Sign in with Google".
  int best = 0;
  for (const auto& s : out) best = std::max(best, s.quality);
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const Scored& s) { return s.quality < std::min(best, 3); }),
            out.end());
  return out;
}

std::vector<Scored> matchRole(const TargetSpec& t, const PageScan& scan) {
  std::vector<Scored> out;
  for (size_t i = 0; i < scan.elements.size(); ++i) {
    const Element& e = scan.elements[i];
    bool hit = roleMatches(e, t.value) ||
               (t.value == "submit" && e.type == "button" && e.hasModifier("primary") && e.role == "primary");
    // The reserved roles name what a field is for; an exact role beats a type word's match.
    if (hit) out.push_back({&e, e.role == t.value ? 4 : 3, rankScore(e), i});
  }
  return out;
}

std::vector<Scored> matchPrimary(const TargetSpec& t, const PageScan& scan, const ResolverHooks& hooks,
                                 Status& error) {
  std::vector<Scored> out;
  auto add = [&](const Element* e, int q) {
    size_t order = static_cast<size_t>(e - scan.elements.data());
    out.push_back({e, q, rankScore(*e), order});
  };
  switch (t.kind) {
    case TargetSpec::Kind::kId: {
      if (const Element* e = scan.byId(t.id)) add(e, 4);
      return out;
    }
    case TargetSpec::Kind::kPattern: {
      // "login_form.email": a field (or a list) of a detected pattern; "cookie_banner": all of it.
      std::string name = t.value.substr(0, t.value.find('.'));
      std::string field = t.value.find('.') == std::string::npos ? "" : t.value.substr(t.value.find('.') + 1);
      for (const auto& p : scan.patterns) {
        if (p.name != name) continue;
        if (!field.empty()) {
          auto f = p.fields.find(field);
          if (f != p.fields.end()) {
            if (const Element* e = scan.byId(f->second)) add(e, 4);
          }
          auto l = p.lists.find(field);
          if (l != p.lists.end()) {
            for (int id : l->second) {
              if (const Element* e = scan.byId(id)) add(e, 4);
            }
          }
        } else {
          for (const auto& [n, id] : p.fields) {
            if (const Element* e = scan.byId(id)) add(e, 4);
          }
        }
        if (!out.empty()) break;
      }
      return out;
    }
    case TargetSpec::Kind::kCss:
    case TargetSpec::Kind::kXpath: {
      if (!hooks.select) {
        error = Status(codes::kUnsupported, "selector targets need a page");
        return out;
      }
      auto ids = hooks.select(t.value, t.kind == TargetSpec::Kind::kXpath);
      if (!ids) {
        error = ids.status();
        return out;
      }
      for (int id : *ids) {
        if (const Element* e = scan.byId(id)) add(e, 4);
      }
      return out;
    }
    case TargetSpec::Kind::kRole: {
      out = matchRole(t, scan);
      if (!out.empty()) return out;
      TargetSpec as_text = t;  // no element has the role: the word may be a label
      as_text.kind = TargetSpec::Kind::kWord;
      return matchText(as_text, scan, hooks.in_modal);
    }
    case TargetSpec::Kind::kText:
    case TargetSpec::Kind::kWord: {
      out = matchText(t, scan, hooks.in_modal);
      if (out.empty() && t.alternatives.empty() && t.match != TextMatch::kRegex &&
          (isRoleWord(t.value) || isInputTypeWord(t.value))) {
        // `type "date" ...`: no element shows that text, but the word names a kind of element.
        TargetSpec as_role = t;
        as_role.kind = TargetSpec::Kind::kRole;
        as_role.value = lower(t.value);
        out = matchRole(as_role, scan);
        for (auto& s : out) s.quality = 1;  // weaker than any text match
      }
      return out;
    }
  }
  return out;
}

double distance(const Element& a, const Element& b) {
  return std::hypot(a.rect.cx() - b.rect.cx(), a.rect.cy() - b.rect.cy());
}

// Page order of an element: its index in the scan, else (found outside it) its position.
bool before(const Element& a, size_t a_order, const Element& b, size_t b_order, size_t n) {
  if (a_order < n && b_order < n) return a_order < b_order;
  if (std::abs(a.rect.y - b.rect.y) > 4) return a.rect.y < b.rect.y;
  return a.rect.x < b.rect.x;
}

Result<std::vector<const Element*>> applyRelation(std::vector<Scored> cands, const TargetSpec& t,
                                                  const PageScan& scan, const ResolverHooks& hooks) {
  const TargetSpec& anchor = *t.anchor;
  bool anchor_is_text = anchor.kind == TargetSpec::Kind::kText || anchor.kind == TargetSpec::Kind::kWord;
  std::vector<const Element*> out;
  if ((t.relation == "near" || t.relation == "inside") && anchor_is_text && hooks.find_text) {
    // Every place the text shows (a listed element, or plain text in a row or cell): each
    // candidate's distance is to the nearest of them, box to box (0 when one holds the other).
    std::vector<Rect> anchors;
    for (const auto& s : matchText(anchor, scan)) anchors.push_back(s.e->rect);
    auto found = hooks.find_text(anchor.value, anchor.match == TextMatch::kExact ? "exact" : "contains");
    if (!found) return found.status();
    // `near` measures from the words themselves; `inside` asks for the box they are part of.
    for (const auto& f : *found) anchors.push_back(t.relation == "near" ? f.text_rect : f.element.rect);
    if (!anchors.empty()) {
      auto boxDistance = [](const Rect& a, const Rect& b) { return std::hypot(a.gapX(b), a.gapY(b)); };
      auto within = [](const Rect& r, const Rect& o) { return r.within(o, 1); };
      auto sameLine = [](const Rect& r, const Rect& a) { return r.y < a.y + a.height && a.y < r.y + r.height; };
      // Reading order: a label comes before its controls, so where a control follows the text on
      // its line, one to the text's left (the previous card's) counts as farther. Where none
      // follows it, the one on its left is its own (a table row's checkbox before the name).
      std::vector<bool> follows(anchors.size(), false);
      for (size_t i = 0; i < anchors.size(); ++i) {
        for (const auto& c : cands) {
          if (sameLine(c.e->rect, anchors[i]) && c.e->rect.x + c.e->rect.width > anchors[i].x) follows[i] = true;
        }
      }
      std::vector<std::pair<std::pair<double, double>, const Element*>> ordered;
      for (const auto& c : cands) {
        double best = 1e18, center = 1e18;
        bool inside = false;
        for (size_t i = 0; i < anchors.size(); ++i) {
          const Rect& a = anchors[i];
          const Rect& r = c.e->rect;
          double d = boxDistance(r, a);
          if (follows[i] && sameLine(r, a) && r.x + r.width <= a.x) d = d * 3 + 20;
          best = std::min(best, d);
          center = std::min(center, std::hypot(c.e->rect.cx() - a.cx(), c.e->rect.cy() - a.cy()));
          inside = inside || within(c.e->rect, a);
        }
        if (t.relation == "inside" && !inside) continue;
        ordered.push_back({{best, center}, c.e});
      }
      std::stable_sort(ordered.begin(), ordered.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      for (const auto& [d, e] : ordered) out.push_back(e);
      return out;
    }
  }
  if (t.relation == "near" && anchor_is_text && hooks.near) {
    auto order = hooks.near(anchor.value);
    if (!order) return order.status();
    for (int id : *order) {
      for (const auto& c : cands) {
        if (c.e->id == id) out.push_back(c.e);
      }
    }
    if (!order->empty()) return out;
  }
  if (t.relation == "inside" && anchor.kind == TargetSpec::Kind::kCss && hooks.select) {
    auto inside = hooks.select(":is(" + anchor.value + ") *", false);
    if (!inside) return inside.status();
    for (const auto& c : cands) {
      if (std::find(inside->begin(), inside->end(), c.e->id) != inside->end()) out.push_back(c.e);
    }
    return out;
  }
  // The anchor may be plain text (a row's label): the text fallback finds it too.
  auto anchor_res = resolveTarget(anchor, scan, hooks, false);
  if (!anchor_res) {
    return Status(codes::kTargetNotFound,
                  "the anchor " + anchor.toString() + " of '" + t.relation + "' was not found",
                  anchor_res.status().hint());
  }
  const Element* a = anchor_res->element;
  size_t n = scan.elements.size();
  size_t a_order = a >= scan.elements.data() && a < scan.elements.data() + n
                       ? static_cast<size_t>(a - scan.elements.data())
                       : n;
  std::vector<std::pair<double, const Element*>> ordered;
  for (const auto& c : cands) {
    if (c.e == a || c.e->id == a->id) continue;
    if (t.relation == "after" && !before(*a, a_order, *c.e, c.order, n)) continue;
    if (t.relation == "before" && !before(*c.e, c.order, *a, a_order, n)) continue;
    if (t.relation == "inside") {
      if (!c.e->rect.within(a->rect)) continue;
    }
    ordered.push_back({distance(*c.e, *a), c.e});
  }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [d, e] : ordered) out.push_back(e);
  return out;
}

std::string closestTexts(const TargetSpec& t, const PageScan& scan) {
  std::vector<std::pair<size_t, const Element*>> scored;
  std::string want = normalizeText(t.value);
  for (const auto& e : scan.elements) {
    if (e.text.empty()) continue;
    scored.push_back({editDistance(want, normalizeText(e.text).substr(0, want.size() + 8)), &e});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (size_t i = 0; i < scored.size() && i < 3; ++i) {
    out += (i ? ", " : "") + std::string("[") + std::to_string(scored[i].second->id) + "] " +
           elementLabel(*scored[i].second);
  }
  return out;
}

// The n-th (1-based, -1 = last) of `cands` in page order.
Result<std::vector<const Element*>> pickNth(const std::vector<const Element*>& cands, const TargetSpec& t,
                                            const PageScan& scan) {
  // A person counts what they see: hidden matches count only when nothing matching is shown.
  std::vector<const Element*> ordered;
  for (const Element* e : cands) {
    if (e->visible) ordered.push_back(e);
  }
  if (ordered.empty()) ordered = cands;
  size_t n = scan.elements.size();
  auto orderOf = [&](const Element* e) {
    return e >= scan.elements.data() && e < scan.elements.data() + n ? static_cast<size_t>(e - scan.elements.data()) : n;
  };
  std::stable_sort(ordered.begin(), ordered.end(), [&](const Element* a, const Element* b) {
    return before(*a, orderOf(a), *b, orderOf(b), n);
  });
  size_t count = ordered.size();
  if (count == 0) return ordered;
  if (t.nth > 0 && static_cast<size_t>(t.nth) > count) {
    TargetSpec plain = t;
    plain.nth = 0;
    return Status(codes::kTargetNotFound,
                  "there is no " + ordinalWord(t.nth) + ": " + std::to_string(count) + " element" +
                      (count == 1 ? "" : "s") + " match " + plain.toString(),
                  "last " + plain.toString() + " is the " + ordinalWord(static_cast<int>(count)));
  }
  return std::vector<const Element*>{ordered[t.nth > 0 ? static_cast<size_t>(t.nth) - 1 : count - 1]};
}

}  // namespace

bool roleMatches(const Element& e, const std::string& word) {
  std::string w = lower(word);
  if (w == "phone") w = "tel";
  auto slash = w.find('/');
  if (slash != std::string::npos) {
    // type/role as the observation prints it: input/date, button/submit, input/password.
    std::string type = w.substr(0, slash), rest = w.substr(slash + 1);
    return e.type == type && (e.role == rest || lower(e.attributes.value("type", "")) == rest);
  }
  if (e.role == w || e.type == w) return true;
  std::string aria = lower(e.attributes.value("role", ""));
  if (!aria.empty() && aria == w) return true;
  std::string input_type = lower(e.attributes.value("type", ""));
  // WAI-ARIA names for native controls (html-aam role mappings).
  if (w == "textbox") return isTextInput(e) && e.role != "search";
  if (w == "searchbox") return e.role == "search";
  if (w == "combobox") return e.type == "select" || (e.type == "input" && e.attributes.contains("aria-autocomplete"));
  if (w == "listbox") return e.type == "select";
  if (w == "spinbutton") return e.type == "input" && input_type == "number";
  if (w == "slider") return e.type == "slider" || (e.type == "input" && input_type == "range");
  if (w == "gridcell") return e.type == "cell";
  if (w == "menuitemcheckbox" || w == "menuitemradio") return aria == w;
  if (w == "input") return e.type == "input";
  return e.type == "input" && !input_type.empty() && input_type == w;
}

Result<std::vector<const Element*>> findCandidates(const TargetSpec& target, const PageScan& scan,
                                                   const ResolverHooks& hooks) {
  if (target.match == TextMatch::kRegex) {
    RE2 re(target.value, RE2::Quiet);
    if (!re.ok()) {
      return Status(codes::kParameterInvalid, "invalid regular expression /" + target.value + "/: " + re.error());
    }
  }
  Status error;
  auto cands = matchPrimary(target, scan, hooks, error);
  if (!error) return error;
  std::vector<int> modal;
  if (cands.size() > 1 && hooks.in_modal) modal = hooks.in_modal();
  std::stable_sort(cands.begin(), cands.end(), [&](const Scored& a, const Scored& b) {
    if (a.quality != b.quality) return a.quality > b.quality;
    if (reachable(modal, *a.e) != reachable(modal, *b.e)) return reachable(modal, *a.e);
    return a.rank > b.rank;
  });
  std::vector<const Element*> out;
  if (target.anchor) {
    auto related = applyRelation(cands, target, scan, hooks);
    if (!related) return related.status();
    out = *related;
  } else {
    for (const auto& c : cands) out.push_back(c.e);
  }
  if (target.nth != 0 && !out.empty()) {
    auto picked = pickNth(out, target, scan);
    if (!picked) return picked.status();
    out = *picked;
  }
  if (out.empty() && target.fallback) return findCandidates(*target.fallback, scan, hooks);
  return out;
}

Result<Resolution> resolveTarget(const TargetSpec& target, const PageScan& scan,
                                 const ResolverHooks& hooks, bool strict) {
  if (!target.as_text.empty()) {
    TargetSpec literal;
    literal.kind = TargetSpec::Kind::kWord;
    literal.value = target.as_text;
    auto as_text = resolveTarget(literal, scan, hooks, strict);
    if (as_text || as_text.status().code() == codes::kTargetAmbiguous) return as_text;
  }
  if (target.id_or_text) {
    // A string of digits: the element with that id, or the one whose text it is. Both: ask.
    TargetSpec text;
    text.kind = TargetSpec::Kind::kText;
    text.value = std::to_string(target.id);
    text.match = TextMatch::kExact;
    const Element* by_id = scan.byId(target.id);
    const Element* by_text = nullptr;
    for (const auto& e : scan.elements) {
      if (e.visible && textQuality(e, text) == 4 && (!by_id || e.id != by_id->id)) {
        by_text = &e;
        break;
      }
    }
    if (by_id && by_text) {
      return Status(codes::kTargetAmbiguous,
                    "\"" + text.value + "\" is both the id of [" + text.value + "] " + elementLabel(*by_id) +
                        " and the text of [" + std::to_string(by_text->id) + "] " + elementLabel(*by_text),
                    "pass the id as a number (" + text.value + "), or the text in quotes (\"\\\"" + text.value + "\\\"\")");
    }
    if (!by_id && by_text) return resolveTarget(text, scan, hooks, strict);
  }
  auto cands = findCandidates(target, scan, hooks);
  if (!cands) return cands.status();
  bool textual = target.kind == TargetSpec::Kind::kText || target.kind == TargetSpec::Kind::kWord;
  if (cands->empty() && textual && hooks.find_text) {
    // Playwright's getByText: any visible text, acted on through its nearest actionable ancestor.
    std::string mode = target.match == TextMatch::kRegex   ? "regex"
                       : target.match == TextMatch::kExact ? "exact"
                                                           : "contains";
    std::vector<FoundText> found;
    for (const auto& text : [&] {
           std::vector<std::string> all{target.value};
           all.insert(all.end(), target.alternatives.begin(), target.alternatives.end());
           return all;
         }()) {
      auto f = hooks.find_text(text, mode);
      if (!f) return f.status();
      // As for listed elements (textQualityOne): inside a word only from 4 characters on ("OK"
      // is no part of "Book table"), unless `contains` was asked for. A text cut at 200
      // characters may hold it further on.
      const std::string want = normalizeText(text);
      const bool words_only = target.match == TextMatch::kAuto && want.size() < 4;
      for (auto& m : *f) {
        if (words_only && m.matched.size() < 200 && !containsWords(normalizeText(m.matched), want)) continue;
        found.push_back(std::move(m));
      }
      if (!found.empty()) break;
    }
    if (!found.empty()) {
      auto extra = std::make_shared<std::vector<Element>>();
      std::vector<std::string> via;
      for (auto& f : found) {
        extra->push_back(f.element);
        via.push_back(f.via);
        // A person presses the words, not the middle of the box that hears them (a grid whose
        // body listens for every row's clicks: w2ui's): aim at the text where it lies inside.
        if (f.via == "ancestor" && f.text_rect.width > 0 && f.text_rect.height > 0 &&
            f.text_rect.within(f.element.rect, 1) &&
            f.text_rect.width * f.text_rect.height < 0.5 * f.element.rect.width * f.element.rect.height) {
          extra->back().aim = f.text_rect;
        }
      }
      std::vector<const Element*> list;
      for (const auto& e : *extra) list.push_back(&e);
      if (target.anchor) {
        // Filter the text matches by the relation, as for listed elements.
        std::vector<Scored> scored;
        for (size_t i = 0; i < extra->size(); ++i) {
          const Element& e = (*extra)[i];
          scored.push_back({&e, 2, rankScore(e), scan.elements.size()});
        }
        auto related = applyRelation(scored, target, scan, hooks);
        if (!related) return related.status();
        list = *related;
      }
      if (target.nth != 0 && !list.empty()) {
        auto picked = pickNth(list, target, scan);
        if (!picked) return picked.status();
        list = *picked;
      }
      if (!list.empty()) {
        Resolution r;
        r.extra = extra;
        r.candidates = list;
        r.element = list.front();
        size_t idx = static_cast<size_t>(r.element - extra->data());
        r.note = via[idx] == "ancestor" ? "text " + quote(found[idx].matched) + " is inside it"
                                        : "the text itself: it is no listed element";
        return r;
      }
    }
  }
  if (cands->empty()) {
    if (target.kind == TargetSpec::Kind::kId) {
      return Status(codes::kTargetNotFound, "no element [" + std::to_string(target.id) + "] on this page",
                    "ids change when the page changes; run observe for current ids");
    }
    std::string closest = closestTexts(target, scan);
    return Status(codes::kTargetNotFound, "no element matches " + target.toString(),
                  closest.empty() ? "run observe to see the page's elements" : "closest: " + closest);
  }
  Resolution r;
  r.candidates = *cands;
  r.element = cands->front();
  if (cands->size() > 1 && !target.anchor && target.nth == 0 && target.kind != TargetSpec::Kind::kId) {
    // Equally good: same text quality and same rank as the first.
    auto tq = [&](const Element* e) { return textual ? textQuality(*e, target) : 0; };
    // One in an open dialog is no tie with one behind it (findCandidates put it first).
    std::vector<int> modal = hooks.in_modal ? hooks.in_modal() : std::vector<int>();
    size_t ties = 0;
    std::vector<const Element*> tied;
    for (const Element* e : *cands) {
      if (tq(e) == tq(r.element) && rankScore(*e) == rankScore(*r.element) &&
          reachable(modal, *e) == reachable(modal, *r.element)) {
        ++ties;
        tied.push_back(e);
      }
    }
    if (ties > 1) {
      std::string list;
      size_t shown = 0;
      for (const Element* e : tied) {
        if (shown++ == 5) break;
        list += "\n  [" + std::to_string(e->id) + "] " + elementLabel(*e) + nearContext(*e);
      }
      TargetSpec second = target;
      second.nth = 2;
      if (strict) {
        return Status(codes::kTargetAmbiguous, std::to_string(ties) + " elements match " + target.toString(),
                      "pick one: " + second.toString() + ", an id, or a relation (near/inside/after/before):" + list);
      }
      r.note = "chose [" + std::to_string(r.element->id) + "]" + nearContext(*r.element) + ", first of " +
               std::to_string(ties) + " equal matches; " + second.toString() + " picks another";
    }
  }
  aimAtWords(r, target, hooks);
  return r;
}

}  // namespace lscope
