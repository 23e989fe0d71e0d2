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

namespace {

// Strings an element answers to besides its accessible text.
std::vector<std::string> aliases(const Element& e) {
  std::vector<std::string> out;
  for (const char* a : {"placeholder", "name", "aria-label", "title", "id", "value", "alt"}) {
    auto it = e.attributes.find(a);
    if (it != e.attributes.end() && it->is_string() && !it->get<std::string>().empty()) {
      out.push_back(normalizeText(it->get<std::string>()));
    }
  }
  return out;
}

// 0 = no match, higher = better.
int textQuality(const Element& e, const TargetSpec& t) {
  std::string want = normalizeText(t.value);
  std::string text = normalizeText(e.text);
  if (t.match == TextMatch::kRegex) {
    RE2 re(t.value, RE2::Quiet);
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
    if (a == want) return 3;
  }
  if (t.match == TextMatch::kExact) return 0;
  if (text.find(want) != std::string::npos) return 2;
  for (const auto& a : al) {
    if (a.find(want) != std::string::npos) return 1;
  }
  return 0;
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

std::vector<Scored> matchText(const TargetSpec& t, const PageScan& scan) {
  std::vector<Scored> out;
  for (size_t i = 0; i < scan.elements.size(); ++i) {
    int q = textQuality(scan.elements[i], t);
    if (q > 0) out.push_back({&scan.elements[i], q, rankScore(scan.elements[i]), i});
  }
  // Only the best tier of textual match counts: an exact "Sign in" beats "Sign in with Google".
  int best = 0;
  for (const auto& s : out) best = std::max(best, s.quality);
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const Scored& s) { return s.quality < std::min(best, 3); }),
            out.end());
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
      for (const auto& e : scan.elements) {
        if (e.role == t.value || (t.value == "submit" && e.type == "button" && e.hasModifier("primary") &&
                                  e.role == "primary")) {
          add(&e, 4);
        }
      }
      if (!out.empty()) return out;
      TargetSpec as_text = t;  // no element has the role: the word may be a label
      as_text.kind = TargetSpec::Kind::kWord;
      return matchText(as_text, scan);
    }
    case TargetSpec::Kind::kText:
    case TargetSpec::Kind::kWord:
      return matchText(t, scan);
  }
  return out;
}

double distance(const Element& a, const Element& b) {
  return std::hypot(a.rect.cx() - b.rect.cx(), a.rect.cy() - b.rect.cy());
}

Result<std::vector<const Element*>> applyRelation(std::vector<Scored> cands, const TargetSpec& t,
                                                  const PageScan& scan, const ResolverHooks& hooks) {
  const TargetSpec& anchor = *t.anchor;
  bool anchor_is_text = anchor.kind == TargetSpec::Kind::kText || anchor.kind == TargetSpec::Kind::kWord;
  std::vector<const Element*> out;
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
  auto anchor_res = resolveTarget(anchor, scan, hooks, false);
  if (!anchor_res) {
    return Status(codes::kTargetNotFound,
                  "the anchor " + anchor.toString() + " of '" + t.relation + "' was not found",
                  anchor_res.status().hint());
  }
  const Element* a = anchor_res->element;
  size_t a_order = static_cast<size_t>(a - scan.elements.data());
  std::vector<std::pair<double, const Element*>> ordered;
  for (const auto& c : cands) {
    if (c.e == a) continue;
    if (t.relation == "after" && c.order <= a_order) continue;
    if (t.relation == "before" && c.order >= a_order) continue;
    if (t.relation == "inside") {
      const Rect& o = a->rect;
      const Rect& r = c.e->rect;
      if (!(r.x >= o.x && r.y >= o.y && r.x + r.width <= o.x + o.width && r.y + r.height <= o.y + o.height)) {
        continue;
      }
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

}  // namespace

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
  std::stable_sort(cands.begin(), cands.end(), [](const Scored& a, const Scored& b) {
    if (a.quality != b.quality) return a.quality > b.quality;
    return a.rank > b.rank;
  });
  if (target.anchor) return applyRelation(cands, target, scan, hooks);
  std::vector<const Element*> out;
  for (const auto& c : cands) out.push_back(c.e);
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
  auto cands = findCandidates(target, scan, hooks);
  if (!cands) return cands.status();
  if (cands->empty()) {
    if (target.kind == TargetSpec::Kind::kId) {
      return Status(codes::kTargetNotFound, "no element [" + std::to_string(target.id) + "] on this page",
                    "ids change when the page changes; run observe for current ids");
    }
    std::string closest = closestTexts(target, scan);
    return Status(codes::kTargetNotFound, "no element matches " + target.toString(),
                  closest.empty() ? "run observe to see the page's elements"
                                  : "closest: " + closest);
  }
  Resolution r;
  r.candidates = *cands;
  r.element = cands->front();
  if (cands->size() > 1 && !target.anchor && target.kind != TargetSpec::Kind::kId) {
    // Equally good: same text quality and same rank as the first.
    auto tq = [&](const Element* e) {
      return target.kind == TargetSpec::Kind::kText || target.kind == TargetSpec::Kind::kWord
                 ? textQuality(*e, target)
                 : 0;
    };
    size_t ties = 0;
    for (const Element* e : *cands) {
      if (tq(e) == tq(r.element) && rankScore(*e) == rankScore(*r.element)) ++ties;
    }
    if (ties > 1) {
      std::string list;
      size_t shown = 0;
      for (const Element* e : *cands) {
        if (shown++ == 5) break;
        list += "\n  [" + std::to_string(e->id) + "] " + elementLabel(*e);
      }
      if (strict) {
        return Status(codes::kTargetAmbiguous,
                      std::to_string(ties) + " elements match " + target.toString(),
                      "use an id or a relation (near/inside/after/before):" + list);
      }
      r.note = "chose [" + std::to_string(r.element->id) + "], first of " + std::to_string(ties) +
               " equal matches";
    }
  }
  return r;
}

}  // namespace lscope
