// recognize(): repeated sequences in a domain's history become proposed intents (§8.2, §8.3).
//
// Each command is reduced to features (action; the target's words, stemmed; its role, type,
// selector, name attribute and pattern membership; for goto the path with numbers as '#').
// Two commands are the same step when their actions agree and enough of the rest does: the
// same pattern field, selector or name attribute, shared words ("Write a review" and "Leave a
// Review" share "review"), or the same specific role ("Submit" and "Post review" are both the
// form's submit). The current session's last commands are aligned with every other session's
// (local alignment: noise commands are gaps); each alignment of two or more steps is a
// candidate, counted in every session; what varies between occurrences becomes a parameter.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "engine/do_parser.h"
#include "engine/learner.h"

namespace lscope {

namespace {

constexpr double kMatch = 0.5;   // a step's features agree at least this much
constexpr double kGap = 0.7;     // cost of a noise command inside a sequence
constexpr size_t kWindow = 40;   // the current session's last commands looked at
constexpr size_t kMaxGap = 3;    // noise commands allowed between two steps of an occurrence

const std::set<std::string> kStop = {"a", "an", "the", "to", "of", "and", "or", "for", "on", "in", "at", "your",
                                     "my", "our", "this", "that", "with", "by", "it", "is", "be", "me"};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A text's first 25 words, lower-cased (do's word splitting).
std::vector<std::string> tokens(const std::string& text) {
  std::vector<std::string> out = splitWords(text);
  if (out.size() > 25) out.resize(25);
  for (auto& w : out) w = lower(w);
  return out;
}

bool isNumber(const std::string& w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char c) { return std::isdigit(c) || c == '.'; }) &&
         std::isdigit(static_cast<unsigned char>(w[0]));
}

struct Feat {
  std::string action, type, role, selector, field, member, path, key;
  std::vector<std::string> words;  // stemmed, sorted, unique; no numbers, no stop words
  std::string number;              // the first number of the text ("5 stars": 5)
  bool echo = false;               // the text repeats what the session typed just before
  int id = -1;                     // interned within one recognize() call (-1: not interned)
};

std::vector<std::string> stems(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& w : tokens(text)) {
    if (isNumber(w) || kStop.count(w)) continue;
    out.push_back(stemWord(w));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string normalizePath(const std::string& path) {
  std::string out;
  bool digits = false;
  for (char c : path) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (!digits) out += '#';
      digits = true;
    } else {
      out += c;
      digits = false;
    }
  }
  return out;
}

Feat featuresOf(const Observed& o) {
  Feat f;
  f.action = o.action;
  f.type = o.type;
  f.role = o.role;
  f.selector = o.selector;
  f.field = o.field;
  f.member = o.member;
  if (o.action == "goto") f.path = normalizePath(o.path.substr(0, o.path.find_first_of("?#")));
  if (o.action == "press") f.key = lower(o.value);
  f.words = stems(o.text);
  for (const auto& w : tokens(o.text)) {
    if (isNumber(w)) {
      f.number = w;
      break;
    }
  }
  return f;
}

double overlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.empty() || b.empty()) return 0;
  size_t common = 0;
  for (const auto& w : a) common += std::binary_search(b.begin(), b.end(), w) ? 1 : 0;
  return static_cast<double>(common) / static_cast<double>(std::min(a.size(), b.size()));
}

bool specificRole(const std::string& r) { return !r.empty() && r != "generic" && r != "primary"; }

double sim(const Feat& a, const Feat& b) {
  if (a.action != b.action) return 0;
  if (a.action == "goto") return a.path == b.path ? 1.0 : 0.0;
  if (a.action == "press") return a.key == b.key ? 1.0 : 0.0;
  double s = 0;
  if (!a.member.empty() && a.member == b.member) s = 1;
  if (!a.selector.empty() && a.selector == b.selector) s = std::max(s, 0.9);
  if (!a.field.empty() && a.field == b.field) s = std::max(s, 0.9);
  s = std::max(s, overlap(a.words, b.words));
  if (a.role == b.role && specificRole(a.role)) s = std::max(s, 0.6);
  if (a.echo && b.echo) s = std::max(s, 0.7);
  if (!a.type.empty() && !b.type.empty() && a.type != b.type) s *= 0.5;
  return s;
}

// recognize() compares the same few distinct commands many times: features are interned and
// their similarities cached for the call.
// Similarities of the first 1,024 distinct commands are cached (4 MB); the rest are computed.
constexpr size_t kMaxCached = 1024;

struct SimCache {
  std::unordered_map<std::string, int> ids;
  std::vector<float> values;  // cap x cap, by interned id; negative: not computed yet
  size_t cap = 0;

  int intern(const std::string& key) {
    int id = ids.emplace(key, static_cast<int>(ids.size())).first->second;
    if (ids.size() > cap && cap < kMaxCached) {
      // Grow the square (ids are dense) and keep what was computed.
      size_t grown = std::min(kMaxCached, std::max<size_t>(64, cap * 2));
      std::vector<float> next(grown * grown, -1.0f);
      for (size_t a = 0; a < cap; ++a) {
        std::copy(values.begin() + static_cast<long>(a * cap), values.begin() + static_cast<long>((a + 1) * cap),
                  next.begin() + static_cast<long>(a * grown));
      }
      values.swap(next);
      cap = grown;
    }
    return id;
  }
};
thread_local SimCache* g_cache = nullptr;

double simc(const Feat& a, const Feat& b) {
  if (!g_cache || a.id < 0 || b.id < 0 || static_cast<size_t>(a.id) >= g_cache->cap ||
      static_cast<size_t>(b.id) >= g_cache->cap) {
    return sim(a, b);
  }
  float& v = g_cache->values[static_cast<size_t>(a.id) * g_cache->cap + static_cast<size_t>(b.id)];
  if (v < 0) v = static_cast<float>(sim(a, b));
  return v;
}

std::string internKey(const Feat& f) {
  std::string k = f.action + '\x1f' + f.type + '\x1f' + f.role + '\x1f' + f.selector + '\x1f' + f.field + '\x1f' + f.member +
                  '\x1f' + f.path + '\x1f' + f.key + '\x1f' + (f.echo ? "e" : "") + '\x1f';
  for (const auto& w : f.words) k += w + ' ';
  return k;
}

json featJson(const Feat& f) {
  json j = {{"action", f.action}};
  auto put = [&](const char* k, const std::string& v) {
    if (!v.empty()) j[k] = v;
  };
  put("type", f.type);
  put("role", f.role);
  put("selector", f.selector);
  put("field", f.field);
  put("member", f.member);
  put("path", f.path);
  put("key", f.key);
  if (!f.words.empty()) j["words"] = f.words;
  if (f.echo) j["echo"] = true;
  return j;
}

Feat featFromJson(const json& j) {
  Feat f;
  if (!j.is_object()) return f;
  f.action = j.value("action", "");
  f.type = j.value("type", "");
  f.role = j.value("role", "");
  f.selector = j.value("selector", "");
  f.field = j.value("field", "");
  f.member = j.value("member", "");
  f.path = j.value("path", "");
  f.key = j.value("key", "");
  if (j.contains("words") && j["words"].is_array()) {
    for (const auto& w : j["words"]) {
      if (w.is_string()) f.words.push_back(w.get<std::string>());
    }
  }
  f.echo = j.value("echo", false);
  return f;
}

struct Seq {
  int64_t session = 0;
  std::vector<Observed> cmds;
  std::vector<Feat> feats;
};

// Whether the session's last command is a click whose text repeats words typed in the four
// commands before it (a search result opened after typing its query).
bool echoes(const Seq& s) {
  size_t i = s.cmds.size() - 1;
  const auto& a = s.cmds[i].action;
  if (a != "click" && a != "check") return false;
  for (size_t back = 1; back <= 4 && back <= i; ++back) {
    const Observed& t = s.cmds[i - back];
    if (t.action != "type" || t.sensitive || t.value.empty()) continue;
    return overlap(stems(t.value), s.feats[i].words) > 0;
  }
  return false;
}

struct Occurrence {
  int64_t session = 0;
  std::vector<size_t> idx;  // positions in the session's sequence
  double score = 0;         // mean step similarity
};

std::vector<Occurrence> occurrencesIn(const std::vector<Feat>& tmpl, const Seq& s) {
  std::vector<Occurrence> out;
  size_t pos = 0;
  while (pos < s.feats.size()) {
    size_t start = pos;
    while (start < s.feats.size() && simc(tmpl[0], s.feats[start]) < kMatch) ++start;
    if (start >= s.feats.size()) break;
    Occurrence occ;
    occ.session = s.session;
    occ.idx.push_back(start);
    double total = simc(tmpl[0], s.feats[start]);
    size_t cur = start;
    bool whole = true;
    for (size_t k = 1; k < tmpl.size() && whole; ++k) {
      whole = false;
      for (size_t j = cur + 1; j < s.feats.size() && j <= cur + 1 + kMaxGap; ++j) {
        double v = simc(tmpl[k], s.feats[j]);
        if (v >= kMatch) {
          occ.idx.push_back(j);
          total += v;
          cur = j;
          whole = true;
          break;
        }
      }
    }
    if (whole) {
      occ.score = total / static_cast<double>(tmpl.size());
      out.push_back(occ);
      pos = cur + 1;
    } else {
      pos = start + 1;
    }
  }
  return out;
}

// Local alignment of a (the current session's window, ending at its last command) with b: the
// matched positions of a and b.
std::vector<std::pair<size_t, size_t>> align(const std::vector<Feat>& a, const std::vector<Feat>& b) {
  size_t n = a.size(), m = b.size();
  std::vector<double> h((n + 1) * (m + 1), 0.0);
  std::vector<char> from((n + 1) * (m + 1), 0);  // 1 diagonal (a match), 2 up, 3 left
  auto at = [&](size_t i, size_t j) { return i * (m + 1) + j; };
  double best = 0;
  size_t bi = 0, bj = 0;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      double v = 0;
      char f = 0;
      double s = simc(a[i - 1], b[j - 1]);
      if (s >= kMatch && h[at(i - 1, j - 1)] + 1 + s > v) {
        v = h[at(i - 1, j - 1)] + 1 + s;
        f = 1;
      }
      if (h[at(i - 1, j)] - kGap > v) {
        v = h[at(i - 1, j)] - kGap;
        f = 2;
      }
      if (h[at(i, j - 1)] - kGap > v) {
        v = h[at(i, j - 1)] - kGap;
        f = 3;
      }
      h[at(i, j)] = v;
      from[at(i, j)] = f;
      // Only alignments that end with the window's last command: what this command completes.
      if (i == n && v > best) {
        best = v;
        bi = i;
        bj = j;
      }
    }
  }
  std::vector<std::pair<size_t, size_t>> pairs;
  size_t i = bi, j = bj;
  while (i > 0 && j > 0 && h[at(i, j)] > 0) {
    char f = from[at(i, j)];
    if (f == 1) {
      pairs.emplace_back(i - 1, j - 1);
      --i;
      --j;
    } else if (f == 2) {
      --i;
    } else if (f == 3) {
      --j;
    } else {
      break;
    }
  }
  std::reverse(pairs.begin(), pairs.end());
  return pairs;
}

std::string snake(const std::vector<std::string>& words, size_t max_words) {
  std::string out;
  size_t n = 0;
  for (const auto& w : words) {
    if (n == max_words) break;
    std::string clean;
    for (unsigned char c : w) {
      if (std::isalnum(c)) clean += static_cast<char>(std::tolower(c));
    }
    if (clean.empty() || kStop.count(clean)) continue;
    out += (out.empty() ? "" : "_") + clean;
    ++n;
  }
  if (!out.empty() && std::isdigit(static_cast<unsigned char>(out[0]))) out = "n_" + out;
  return out.substr(0, 40);
}

std::string mostCommon(const std::vector<std::string>& values) {
  std::map<std::string, int> count;
  std::string best;
  int best_n = 0;
  for (const auto& v : values) {
    int n = ++count[v];
    if (n > best_n) {
      best_n = n;
      best = v;
    }
  }
  return best;
}

std::vector<std::string> distinct(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

std::string seen(const std::vector<std::string>& values) {
  std::string out;
  size_t n = 0;
  for (const auto& v : values) {
    if (n++ == 5) {
      out += ", …";
      break;
    }
    std::string s = v.size() > 24 ? v.substr(0, 24) + "…" : v;
    out += (out.empty() ? "" : ", ") + s;
  }
  return out;
}

// The steps' locator: the text as the scan read it (every variant seen, in fallbacks), then
// the pattern field, then the selector.
json locatorFor(const std::vector<const Observed*>& column) {
  std::vector<std::string> texts;
  for (const auto* o : column) {
    if (!o->text.empty()) texts.push_back(o->text);
  }
  std::vector<json> chain;
  if (!texts.empty()) {
    std::string first = mostCommon(texts);
    chain.push_back({{"text", first}});
    for (const auto& t : distinct(texts)) {
      if (t != first && chain.size() < 4) chain.push_back({{"text", t}});
    }
  }
  if (!column[0]->member.empty()) chain.push_back({{"pattern", column[0]->member}});
  std::vector<std::string> sels;
  for (const auto* o : column) {
    if (!o->selector.empty()) sels.push_back(o->selector);
  }
  if (!sels.empty() && distinct(sels).size() == 1) chain.push_back({{"selector", sels[0]}});
  if (chain.empty()) return nullptr;
  json t = chain.back();
  for (size_t i = chain.size() - 1; i-- > 0;) {
    json outer = chain[i];
    outer["fallback"] = t;
    t = outer;
  }
  return t;
}

struct Built {
  json definition;
  std::string name;
};

Built generalize(const std::vector<Feat>& tmpl, const std::vector<Occurrence>& occs, const std::vector<Seq>& seqs,
                 const std::string& domain, const std::function<bool(const std::string&)>& taken) {
  std::map<int64_t, const Seq*> by_session;
  for (const auto& s : seqs) by_session[s.session] = &s;
  auto column = [&](size_t k) {
    std::vector<const Observed*> out;
    for (const auto& o : occs) out.push_back(&by_session[o.session]->cmds[o.idx[k]]);
    return out;
  };
  auto columnFeats = [&](size_t k) {
    std::vector<const Feat*> out;
    for (const auto& o : occs) out.push_back(&by_session[o.session]->feats[o.idx[k]]);
    return out;
  };
  json steps = json::array(), params = json::array();
  std::set<std::string> names;
  std::map<size_t, std::string> typed_param;  // template position of a type step -> its parameter
  auto addParam = [&](std::string base, json p) {
    if (base.empty()) base = "value";
    std::string name = base;
    for (int n = 2; names.count(name); ++n) name = base + "_" + std::to_string(n);
    names.insert(name);
    p["name"] = name;
    params.push_back(p);
    return name;
  };
  std::string intent_words;
  for (size_t k = 0; k < tmpl.size(); ++k) {
    auto col = column(k);
    const std::string& action = tmpl[k].action;
    json step = {{"action", action}};
    std::vector<std::string> values, texts;
    for (const auto* o : col) {
      values.push_back(o->value);
      texts.push_back(o->text);
    }
    if (action == "goto") {
      auto urls = distinct(values);
      if (urls.size() == 1) {
        step["url"] = urls[0];
      } else {
        std::vector<std::string> paths;
        for (const auto& u : urls) {
          auto scheme = u.find("://");
          auto slash = u.find('/', scheme == std::string::npos ? 0 : scheme + 3);
          paths.push_back(slash == std::string::npos ? u : u.substr(slash));
        }
        step["url"] = "$" + addParam("url", {{"type", "string"}, {"required", true}, {"description", "page to start on; seen: " + seen(paths)}});
      }
      steps.push_back(step);
      continue;
    }
    if (action == "press") {
      step["key"] = mostCommon(values);
      steps.push_back(step);
      continue;
    }
    json target = locatorFor(col);
    if (target.is_null()) return {};
    std::string label = mostCommon(texts);
    bool sensitive = std::any_of(col.begin(), col.end(), [](const Observed* o) { return o->sensitive; });
    if (action == "type" || action == "select") {
      auto vals = distinct(values);
      // A search field's value is the query, whatever its label says.
      bool search = col[0]->role == "search" || col[0]->member.rfind("search_form.", 0) == 0;
      std::string base = search && action == "type" ? "query" : snake(tokens(label), 3);
      if (action == "type" && sensitive) {
        std::string n = addParam(base.empty() ? "secret" : base, {{"type", "string"}, {"required", true}, {"sensitive", true},
                                                                 {"description", "typed into " + label}});
        step["text"] = "$" + n;
        typed_param[k] = n;
      } else if (vals.size() == 1) {
        step[action == "type" ? "text" : "value"] = vals[0];
      } else if (action == "select") {
        step["value"] = "$" + addParam(base, {{"type", "string"}, {"required", true}, {"enum", vals},
                                               {"description", "chosen in " + label}});
      } else {
        bool numbers = std::all_of(vals.begin(), vals.end(), [](const std::string& v) { return isNumber(v); });
        json p = {{"type", numbers ? "number" : "string"}, {"required", true}, {"description", "typed into " + label + "; seen: " + seen(vals)}};
        std::string n = addParam(base, p);
        step["text"] = "$" + n;
        typed_param[k] = n;
      }
      if (intent_words.empty()) intent_words = label;
      step["target"] = target;
      if (action == "type" && std::all_of(col.begin(), col.end(), [](const Observed* o) { return o->enter; })) {
        step["options"] = {{"enter", true}};
      }
      steps.push_back(step);
      continue;
    }
    // click, check, uncheck, clear: the same control, or a choice among several.
    auto variants = distinct(texts);
    bool numbers_only = variants.size() > 1;
    std::vector<std::string> nums;
    for (const Feat* f : columnFeats(k)) {
      if (f->number.empty() || f->words != tmpl[k].words) numbers_only = false;
      nums.push_back(f->number);
    }
    bool same_field = !col[0]->field.empty() && std::all_of(col.begin(), col.end(), [&](const Observed* o) { return o->field == col[0]->field; });
    // A result opened by what was typed before it: its text is that parameter.
    std::string echoed;
    if (variants.size() > 1 && tmpl[k].echo) {
      for (size_t back = k; back-- > 0;) {
        if (typed_param.count(back)) {
          echoed = typed_param[back];
          break;
        }
      }
    }
    if (variants.size() <= 1) {
      step["target"] = target;
      if (intent_words.empty()) intent_words = label;
    } else if (numbers_only) {
      // Named after the control's group ("rating"), else its words without the number.
      std::vector<std::string> words;
      for (const auto& w : tokens(label)) {
        if (!isNumber(w)) words.push_back(w);
      }
      std::string base = same_field ? snake(tokens(col[0]->field), 2) : snake(words, 2);
      std::vector<double> ns;
      for (const auto& n : distinct(nums)) ns.push_back(std::atof(n.c_str()));
      std::string n = addParam(base.empty() ? "number" : base,
                               {{"type", "number"}, {"required", true}, {"description", "the number in \"" + label + "\"; seen: " + seen(distinct(nums))}});
      step["target"] = {{"text", "$" + n}};
    } else if (!echoed.empty()) {
      step["target"] = {{"text", "$" + echoed}};
    } else if (same_field) {
      std::string n = addParam(snake(tokens(col[0]->field), 2), {{"type", "string"}, {"required", true}, {"enum", variants},
                                                                {"description", "which of " + seen(variants)}});
      step["target"] = {{"text", "$" + n}, {"match", "exact"}};
    } else {
      step["target"] = target;  // one control with several texts: each is a fallback
      if (intent_words.empty()) intent_words = label;
    }
    steps.push_back(step);
  }
  // Its name: the words of its first fixed step ("Write a review": write_review).
  std::string base = snake(tokens(intent_words), 3);
  if (base.empty()) base = "flow";
  std::string host_word;
  for (const auto& w : tokens(domain)) {
    if (w != "www" && !isNumber(w)) {
      host_word = w;
      break;
    }
  }
  std::string name = base;
  if (taken(name) && !host_word.empty()) name = base + "_" + host_word;
  for (int n = 2; taken(name); ++n) name = base + "_" + std::to_string(n);
  // What it does, in the words of its steps: "click Write a review, click $rating, type Your review".
  std::string what;
  for (const auto& s : steps) {
    std::string a = s.value("action", "");
    if (a == "goto") continue;
    std::string on;
    if (s.contains("target") && s["target"].is_object()) {
      const json& t = s["target"];
      const json& v = t.contains("text") ? t["text"] : t.contains("pattern") ? t["pattern"] : t.value("selector", json());
      on = v.is_string() ? v.get<std::string>() : v.dump();
    }
    std::string part = a + (on.empty() ? "" : " " + on);
    if (what.size() + part.size() > 110) {
      what += ", …";
      break;
    }
    what += (what.empty() ? "" : ", ") + part;
  }
  json doc = {{"intent", name},
              {"version", "1.0.0"},
              {"description", "Learned on " + domain + ": " + what},
              {"tags", {"learned"}},
              {"steps", steps}};
  if (!params.empty()) doc["parameters"] = params;
  return {doc, name};
}

}  // namespace

bool sameTemplate(const json& a, const json& b) {
  if (!a.is_array() || !b.is_array() || a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (sim(featFromJson(a[i]), featFromJson(b[i])) < kMatch) return false;
  }
  return true;
}

bool containsTemplate(const json& big, const json& small) {
  if (!big.is_array() || !small.is_array() || small.size() > big.size()) return false;
  size_t k = 0;
  for (size_t i = 0; i < big.size() && k < small.size(); ++i) {
    if (sim(featFromJson(big[i]), featFromJson(small[k])) >= kMatch) ++k;
  }
  return k == small.size();
}

struct LearnerIndex::Impl {
  std::string domain;
  std::vector<Seq> seqs;
  std::map<int64_t, size_t> where;
  SimCache cache;  // kept across calls: the same commands recur

  void add(const Observed& o) {
    if (domain.empty()) domain = o.domain;
    auto it = where.find(o.session);
    if (it == where.end()) {
      it = where.emplace(o.session, seqs.size()).first;
      seqs.push_back(Seq{o.session, {}, {}});
    }
    Seq& s = seqs[it->second];
    s.cmds.push_back(o);
    s.feats.push_back(featuresOf(o));
    Feat& f = s.feats.back();
    f.echo = echoes(s);
    f.id = cache.intern(internKey(f));
  }
};

LearnerIndex::LearnerIndex() : impl_(std::make_unique<Impl>()) {}
LearnerIndex::~LearnerIndex() = default;

void LearnerIndex::reset(const std::vector<Observed>& history) {
  impl_ = std::make_unique<Impl>();
  for (const auto& o : history) impl_->add(o);
}

void LearnerIndex::add(const Observed& o) { impl_->add(o); }

const std::string& LearnerIndex::domain() const { return impl_->domain; }

size_t LearnerIndex::commands(int64_t session) const {
  auto it = impl_->where.find(session);
  return it == impl_->where.end() ? 0 : impl_->seqs[it->second].cmds.size();
}

std::vector<Proposal> recognize(const std::vector<Observed>& history, int64_t current_session,
                                const LearnerConfig& config, const std::function<bool(const std::string&)>& taken) {
  LearnerIndex index;
  index.reset(history);
  return index.recognize(current_session, config, taken);
}

std::vector<Proposal> LearnerIndex::recognize(int64_t current_session, const LearnerConfig& config,
                                              const std::function<bool(const std::string&)>& taken) const {
  const std::vector<Seq>& seqs = impl_->seqs;
  const std::map<int64_t, size_t>& where = impl_->where;
  struct Scope {
    explicit Scope(SimCache* c) { g_cache = c; }
    ~Scope() { g_cache = nullptr; }
  } scope(&impl_->cache);
  auto cur_it = where.find(current_session);
  if (cur_it == where.end() || seqs.size() < 2) return {};
  const Seq& cur = seqs[cur_it->second];
  size_t from = cur.feats.size() > kWindow ? cur.feats.size() - kWindow : 0;
  std::vector<Feat> window(cur.feats.begin() + static_cast<long>(from), cur.feats.end());
  const std::string& domain = impl_->domain;

  struct Candidate {
    std::vector<Feat> tmpl;
    std::vector<Occurrence> occs;
    double consistency = 0;
    double rank = 0;
  };
  std::vector<Candidate> found;
  for (const auto& other : seqs) {
    if (other.session == current_session) continue;
    // An alignment must end with a match of this command: a session without one has none.
    if (std::none_of(other.feats.begin(), other.feats.end(), [&](const Feat& f) { return simc(window.back(), f) >= kMatch; })) continue;
    auto pairs = align(window, other.feats);
    if (pairs.size() < 2) continue;
    std::vector<Feat> tmpl;
    for (const auto& [i, j] : pairs) tmpl.push_back(window[i]);
    // A sequence is two actions on a page or more (a goto and one click is not worth an intent).
    auto acting = std::count_if(tmpl.begin(), tmpl.end(), [](const Feat& f) { return f.action != "goto"; });
    bool acts = std::any_of(tmpl.begin(), tmpl.end(), [](const Feat& f) { return f.action != "goto" && f.action != "press"; });
    if (acting < 2 || !acts) continue;
    bool dup = std::any_of(found.begin(), found.end(), [&](const Candidate& c) {
      if (c.tmpl.size() != tmpl.size()) return false;
      for (size_t k = 0; k < tmpl.size(); ++k) {
        if (simc(c.tmpl[k], tmpl[k]) < 0.99) return false;
      }
      return true;
    });
    if (dup) continue;
    Candidate c;
    c.tmpl = tmpl;
    std::set<int64_t> sessions;
    double total = 0;
    for (const auto& s : seqs) {
      for (auto& occ : occurrencesIn(tmpl, s)) {
        sessions.insert(occ.session);
        total += occ.score;
        c.occs.push_back(std::move(occ));
      }
    }
    int obs = static_cast<int>(c.occs.size());
    if (obs < config.min_observations || sessions.size() < 2 || !sessions.count(current_session)) continue;
    // Not chance: commands this common, in this order within the gaps allowed, would occur
    // `expected` times in a history of this size; a flow occurs far more often than that.
    double expected = 0;
    {
      size_t n = 0;
      std::vector<double> freq(tmpl.size(), 0);
      for (const auto& s : seqs) {
        n += s.feats.size();
        for (const auto& f : s.feats) {
          for (size_t k = 0; k < tmpl.size(); ++k) freq[k] += simc(tmpl[k], f) >= kMatch ? 1 : 0;
        }
      }
      // The window a step was found in: one place, plus the gaps the occurrences left on average.
      double gaps = 0;
      for (const auto& occ : c.occs) gaps += static_cast<double>(occ.idx.back() - occ.idx.front() + 1 - occ.idx.size());
      double window = 1 + std::ceil(gaps / static_cast<double>(c.occs.size()) / static_cast<double>(tmpl.size() - 1));
      // Each time the first step occurs, the chance that the next steps follow it by accident
      // within the window, from how common each is in the history.
      double chance = freq[0];
      for (size_t k = 1; k < tmpl.size(); ++k) {
        double pk = freq[k] / static_cast<double>(n);
        chance *= 1.0 - std::pow(1.0 - pk, window);
      }
      expected = chance;
    }
    // Poisson: the chance of seeing it this often by accident must be below 1 in 1,000.
    double tail = 0, term = std::exp(-expected);
    for (int k = 0; k < obs; ++k) {
      tail += term;
      term *= expected / (k + 1);
    }
    if (1.0 - tail >= 0.001) continue;
    c.consistency = total / obs;
    c.rank = obs * static_cast<double>(tmpl.size()) * c.consistency;
    found.push_back(std::move(c));
  }
  std::sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) { return a.rank > b.rank; });

  std::vector<Proposal> out;
  std::set<std::pair<int64_t, size_t>> claimed;
  std::set<std::string> names_here;
  auto name_taken = [&](const std::string& n) { return names_here.count(n) > 0 || (taken && taken(n)); };
  for (const auto& c : found) {
    size_t mine = 0, already = 0;
    for (const auto& occ : c.occs) {
      for (size_t i : occ.idx) {
        ++mine;
        already += claimed.count({occ.session, i});
      }
    }
    if (already * 2 > mine) continue;
    int obs = static_cast<int>(c.occs.size());
    double confidence = 0.5 * (1.0 - std::pow(0.5, obs - 1)) + 0.5 * c.consistency;
    confidence = std::round(confidence * 100) / 100;
    if (confidence < config.min_confidence) continue;
    // Do most other occurrences go on with one common step? Then this one is likely not done.
    std::vector<const Feat*> nexts;
    int others = 0;
    for (const auto& occ : c.occs) {
      if (occ.session == current_session) continue;
      ++others;
      const Seq& s = seqs[where.at(occ.session)];
      size_t after = occ.idx.back() + 1;
      if (after < s.feats.size()) nexts.push_back(&s.feats[after]);
    }
    int agree = 0;
    for (const Feat* a : nexts) {
      int n = 0;
      for (const Feat* b : nexts) n += simc(*a, *b) >= kMatch ? 1 : 0;
      agree = std::max(agree, n);
    }
    bool continues = agree >= 2 && agree * 2 >= others;
    Built b = generalize(c.tmpl, c.occs, seqs, domain, name_taken);
    if (b.name.empty()) continue;
    for (const auto& occ : c.occs) {
      for (size_t i : occ.idx) claimed.insert({occ.session, i});
    }
    names_here.insert(b.name);
    Proposal p;
    p.row.name = b.name;
    p.row.domain = domain;
    p.row.status = "proposed";
    p.row.confidence = confidence;
    p.row.observations = obs;
    p.row.definition = b.definition;
    p.row.tmpl = json::array();
    for (const auto& f : c.tmpl) p.row.tmpl.push_back(featJson(f));
    p.continues = continues;
    out.push_back(std::move(p));
  }
  return out;
}

namespace {

// Any JSON value as text (a definition from the store may hold anything a user wrote there).
std::string asText(const json& v) { return v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump(); }

std::string targetText(const json& t) {
  if (!t.is_object()) return asText(t);
  std::string s;
  if (t.contains("text")) {
    std::string text = asText(t["text"]);
    s = text.rfind('$', 0) == 0 ? text : "\"" + text + "\"";
  } else if (t.contains("pattern")) {
    s = asText(t["pattern"]);
  } else if (t.contains("selector")) {
    s = "css(" + asText(t["selector"]) + ")";
  } else if (t.contains("role")) {
    s = asText(t["role"]);
  }
  if (t.contains("fallback") && t["fallback"].is_object() && t["fallback"].contains("text")) {
    s += " or " + targetText(t["fallback"]);
  }
  return s;
}

}  // namespace

std::vector<std::string> describeProposal(const ProposalRow& p) {
  std::vector<std::string> lines;
  char conf[16];
  std::snprintf(conf, sizeof conf, "%.2f", p.confidence);
  lines.push_back(p.name + ": seen " + std::to_string(p.observations) + " times on " + p.domain + ", confidence " + conf);
  const json& d = p.definition;
  if (!d.is_object()) return lines;
  auto field = [](const json& o, const char* k) { return o.is_object() && o.contains(k) ? asText(o[k]) : std::string(); };
  if (d.contains("parameters") && d["parameters"].is_array() && !d["parameters"].empty()) {
    std::string ps;
    for (const auto& q : d["parameters"]) {
      ps += (ps.empty() ? "" : "; ") + field(q, "name") + ": " + field(q, "type");
      if (q.is_object() && q.value("sensitive", json(false)) == json(true)) {
        ps += " (sensitive)";
      } else if (q.is_object() && q.contains("enum") && q["enum"].is_array()) {
        std::vector<std::string> vs;
        for (const auto& v : q["enum"]) vs.push_back(asText(v));
        ps += " (" + seen(vs) + ")";
      } else {
        std::string desc = field(q, "description");
        auto at = desc.find("seen: ");
        if (at != std::string::npos) ps += " (" + desc.substr(at + 6) + ")";
      }
    }
    lines.push_back("parameters: " + ps);
  }
  int n = 0;
  const json steps = d.contains("steps") && d["steps"].is_array() ? d["steps"] : json::array();
  for (const auto& s : steps) {
    std::string line = std::to_string(++n) + " " + field(s, "action");
    if (!field(s, "url").empty()) line += " " + field(s, "url");
    if (!field(s, "key").empty()) line += " " + field(s, "key");
    if (s.is_object() && s.contains("target")) line += " " + targetText(s["target"]);
    for (const char* k : {"text", "value"}) {
      std::string t = field(s, k);
      if (!t.empty()) line += " " + (t.rfind('$', 0) == 0 ? t : "\"" + t + "\"");
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace lscope
