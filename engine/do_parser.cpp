#include "engine/do_parser.h"

#include <libstemmer.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "engine/commands.h"
#include "engine/json_bounded.h"
#include "engine/page_model.h"  // kMask


namespace lscope {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Words that say nothing about which intent is meant, on both sides of the match. "in", "out"
// and "up" stay: they tell "log in" from "log out" and "sign up".
const std::set<std::string> kStop = {
    "a", "an", "the", "please", "me", "my", "to", "of", "this", "that", "it", "and", "with", "for",
    "as", "at", "by", "from", "i", "want", "would", "like", "could", "you", "can", "just", "now",
    "then", "some", "be", "is", "are", "so", "let", "us", "our", "your", "via", "into", "onto",
    "kindly", "also", "here", "there", "on", "its", "using", "is", "=", ":"};

// Snowball's English stemmer (Debian's libstemmer): "cookies" and "cookie", "searching" and
// "search", "popups" and "popup" meet. One stemmer per thread (it keeps state per call).
std::string stem(const std::string& word) {
  struct Stemmer {
    sb_stemmer* s = sb_stemmer_new("english", "UTF_8");
    ~Stemmer() {
      if (s) sb_stemmer_delete(s);
    }
  };
  thread_local Stemmer stemmer;
  std::string w = lower(word);
  if (!stemmer.s || w.size() > 64) return w;
  const sb_symbol* out = sb_stemmer_stem(stemmer.s, reinterpret_cast<const sb_symbol*>(w.data()), static_cast<int>(w.size()));
  if (!out) return w;
  return std::string(reinterpret_cast<const char*>(out), static_cast<size_t>(sb_stemmer_length(stemmer.s)));
}

// The same word, or the same word mistyped: one edit from words of three letters or more (same
// first letter: "put" is not "out"), two from words of eight or more.
bool sameWord(const std::string& a, const std::string& b) {
  if (a == b) return true;
  size_t shorter = std::min(a.size(), b.size());
  if (shorter < 3 || a[0] != b[0] || a.size() > 64 || b.size() > 64) return false;
  size_t allowed = shorter >= 8 ? 2 : 1;
  if (editDistance(a, b) > allowed) return false;
  // Three letters: a letter missing or two swapped ("nxt", "lgo"), not another letter ("red"
  // is not "rid").
  if (shorter == 3 && a.size() == b.size()) {
    std::string x = a;
    std::string y = b;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    return x == y;
  }
  return true;
}

// Splits on anything but letters and digits: "log-in" is two words, "e-mail" too.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c >= 0x80) {
      cur += static_cast<char>(c);
    } else if (!cur.empty()) {
      out.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::vector<std::string> contentStems(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& w : words(text)) {
    std::string l = lower(w);
    if (!kStop.count(l)) out.push_back(stem(l));
  }
  return out;
}

// What a parameter is called in a sentence besides its name ("with password x", "as ada").
const std::map<std::string, std::vector<std::string>> kCues = {
    {"username", {"user", "username", "as", "account", "email", "login", "handle"}},
    {"user", {"user", "username", "as", "account"}},
    {"email", {"email", "mail", "as", "address"}},
    {"password", {"password", "pass", "passwd", "pw", "pwd", "passcode", "passphrase"}},
    {"query", {"for", "query", "term", "terms"}},
    {"url", {"url", "to", "at", "link", "address"}},
    {"text", {"text", "saying", "message", "write"}},
    {"target", {"target", "to", "element"}},
    {"data", {"data", "with", "values"}},
};

// A parameter whose value is free text of several words (a query, a message), not one token.
bool textual(const ParamDef& p) {
  static const std::set<std::string> kText = {"query", "q", "text", "message", "term", "terms", "keywords",
                                              "title", "body", "comment", "search", "target", "name", "subject"};
  return p.type == "string" && kText.count(lower(p.name));
}

bool sensitiveParam(const ParamDef& p) {
  if (p.sensitive) return true;
  std::string n = lower(p.name);
  for (const char* s : {"pass", "secret", "token", "otp", "pin", "cvv", "cvc"}) {
    if (n.find(s) != std::string::npos) return true;
  }
  return false;
}

bool accountParam(const ParamDef& p) {
  std::string n = lower(p.name);
  return n == "username" || n == "user" || n == "email" || n == "login" || n == "account" || n == "user_name";
}

std::set<std::string> cuesOf(const ParamDef& p) {
  std::set<std::string> out;
  std::string n = lower(p.name);
  out.insert(n);
  for (const auto& w : words(n)) out.insert(w);
  auto it = kCues.find(n);
  if (it != kCues.end()) out.insert(it->second.begin(), it->second.end());
  if (sensitiveParam(p)) {
    const auto& pw = kCues.at("password");
    out.insert(pw.begin(), pw.end());
  }
  return out;
}

// --- the sentence, taken apart -----------------------------------------------------------------

struct Value {
  std::string kind;  // quoted, json, email, url, number, pair
  std::string text;  // as written (the pair's first half)
  std::string second;  // the pair's second half
  json parsed;         // json objects, numbers
  std::string cue;     // the word before it ("password", "as", "for"), lowercased
  bool absorbed = false;  // part of a pair now
};

struct Token {
  bool is_value = false;
  size_t value = 0;   // index into values
  std::string raw;    // a word as written
  std::string low;    // lowercased
  std::string stem;   // stemmed ("" for stop words)
};

struct Sentence {
  std::vector<Value> values;
  std::vector<Token> tokens;
};

const char kMark = '\x01';

// The end of a JSON object starting at `i` ('{'), strings and nesting respected; npos if none.
size_t objectEnd(const std::string& s, size_t i) {
  int depth = 0;
  bool in_string = false;
  for (size_t k = i; k < s.size(); ++k) {
    char c = s[k];
    if (in_string) {
      if (c == '\\') ++k;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{') ++depth;
    else if (c == '}' && --depth == 0) return k;
  }
  return std::string::npos;
}

std::string placeholder(size_t n) { return std::string(" ") + kMark + std::to_string(n) + kMark + " "; }

bool isEmail(const std::string& t) {
  auto at = t.find('@');
  if (at == std::string::npos || at == 0 || t.find('@', at + 1) != std::string::npos) return false;
  auto dot = t.find('.', at);
  return dot != std::string::npos && dot > at + 1 && dot + 2 <= t.size() && t.find(' ') == std::string::npos;
}

bool isUrl(const std::string& t) {
  std::string l = lower(t);
  return l.rfind("http://", 0) == 0 || l.rfind("https://", 0) == 0 || (l.rfind("www.", 0) == 0 && l.size() > 5);
}

bool isNumber(const std::string& t) {
  if (t.empty() || t.size() > 15) return false;
  int dots = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '.') {
      if (++dots > 1 || i == 0 || i + 1 == t.size()) return false;
    } else if (!std::isdigit(static_cast<unsigned char>(t[i])) && !(i == 0 && t[i] == '-' && t.size() > 1)) {
      return false;
    }
  }
  return true;
}

std::string trimPunct(const std::string& t, bool leading) {
  size_t b = 0;
  size_t e = t.size();
  auto punct = [](char c) { return c == ',' || c == '.' || c == ';' || c == '!' || c == '?' || c == ')' || c == '('; };
  if (leading) {
    while (b < e && punct(t[b])) ++b;
  }
  while (e > b && (punct(t[e - 1]) || t[e - 1] == ':')) --e;
  return t.substr(b, e - b);
}

Sentence takeApart(const std::string& input) {
  Sentence s;
  // 1. JSON objects and quoted text, which may hold spaces: replaced by placeholders.
  std::string work;
  for (size_t i = 0; i < input.size();) {
    char c = input[i];
    if (c == '{') {
      size_t end = objectEnd(input, i);
      if (end != std::string::npos) {
        json parsed = parseJsonBounded(input.substr(i, end - i + 1));
        if (!parsed.is_discarded() && parsed.is_object()) {
          s.values.push_back({"json", input.substr(i, end - i + 1), "", parsed, ""});
          work += placeholder(s.values.size() - 1);
          i = end + 1;
          continue;
        }
      }
    }
    // "…", “…” and '…' (an apostrophe inside a word is not a quote).
    std::string open;
    std::string close;
    if (c == '"') open = close = "\"";
    else if (input.compare(i, 3, "\xe2\x80\x9c") == 0) open = "\xe2\x80\x9c", close = "\xe2\x80\x9d";
    else if (c == '\'' && (i == 0 || std::isspace(static_cast<unsigned char>(input[i - 1])))) open = close = "'";
    if (!open.empty()) {
      size_t end = input.find(close, i + open.size());
      if (end != std::string::npos && end > i + open.size()) {
        s.values.push_back({"quoted", input.substr(i + open.size(), end - i - open.size()), "", nullptr, ""});
        work += placeholder(s.values.size() - 1);
        i = end + close.size();
        continue;
      }
    }
    work += (c == kMark ? ' ' : c);
    ++i;
  }
  // 2. Whitespace tokens: placeholders, emails, URLs, numbers, "/" between a pair, words.
  std::vector<std::string> raw;
  std::string cur;
  for (char c : work) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) raw.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) raw.push_back(cur);
  for (size_t i = 0; i < raw.size(); ++i) {
    std::string t = raw[i];
    Token tok;
    if (t.size() > 2 && t.front() == kMark && t.back() == kMark) {
      tok.is_value = true;
      tok.value = std::strtoul(t.substr(1, t.size() - 2).c_str(), nullptr, 10);
      if (tok.value >= s.values.size()) continue;
      s.tokens.push_back(tok);
      continue;
    }
    std::string core = trimPunct(t, true);
    if (core.empty()) continue;
    if (isEmail(core) || isUrl(core) || isNumber(core)) {
      Value v{isEmail(core) ? "email" : isUrl(core) ? "url" : "number", core, "", nullptr, ""};
      if (v.kind == "number") v.parsed = json::parse(core, nullptr, false);
      s.values.push_back(v);
      tok.is_value = true;
      tok.value = s.values.size() - 1;
      s.tokens.push_back(tok);
      continue;
    }
    for (const auto& w : words(core)) {
      Token word;
      word.raw = w;
      word.low = lower(w);
      word.stem = kStop.count(word.low) ? "" : stem(word.low);
      s.tokens.push_back(word);
    }
    if (core == "/") {
      Token slash;
      slash.raw = slash.low = "/";
      s.tokens.push_back(slash);
    }
  }
  // "user / pass": the tokens either side of a lone slash become one pair value.
  for (size_t i = 1; i + 1 < s.tokens.size(); ++i) {
    if (s.tokens[i].raw != "/" || s.tokens[i].is_value) continue;
    auto text = [&](const Token& t) {
      if (!t.is_value) return t.raw;
      s.values[t.value].absorbed = true;
      return s.values[t.value].text;
    };
    std::string first = text(s.tokens[i - 1]);
    Value pair{"pair", first, text(s.tokens[i + 1]), nullptr, ""};
    s.values.push_back(pair);
    Token tok;
    tok.is_value = true;
    tok.value = s.values.size() - 1;
    s.tokens.erase(s.tokens.begin() + static_cast<long>(i - 1), s.tokens.begin() + static_cast<long>(i + 2));
    s.tokens.insert(s.tokens.begin() + static_cast<long>(i - 1), tok);
  }
  // Each value's cue: the word just before it.
  for (size_t i = 1; i < s.tokens.size(); ++i) {
    if (!s.tokens[i].is_value) continue;
    size_t k = i;
    while (k > 0) {
      --k;
      const Token& p = s.tokens[k];
      if (p.is_value) break;
      if (p.low == "is" || p.low == "=" || p.low == "of") continue;
      s.values[s.tokens[i].value].cue = p.low;
      break;
    }
  }
  return s;
}

// --- one intent against the sentence -----------------------------------------------------------

struct Phrase {
  std::string text;
  std::vector<std::string> stems;
  double weight = 1.0;  // trigger keywords are broader than phrases: they count less
};

std::vector<Phrase> phrasesOf(const IntentDef& def) {
  std::vector<Phrase> out;
  auto add = [&](const std::string& t, double weight) {
    auto st = contentStems(t);
    if (!st.empty()) out.push_back({t, st, weight});
  };
  for (const auto& p : def.phrases) add(p, 1.0);
  std::string spaced = def.name;
  std::replace(spaced.begin(), spaced.end(), '_', ' ');
  add(spaced, 1.0);
  for (const auto& k : def.trigger_keywords) add(k, 0.8);
  return out;
}

json typed(const ParamDef& p, const std::string& text) {
  if (p.type == "number" || p.type == "integer") {
    json n = json::parse(text, nullptr, false);
    if (!n.is_discarded() && n.is_number()) return n;
  }
  if (p.type == "boolean") {
    std::string l = lower(text);
    if (l == "true" || l == "yes") return true;
    if (l == "false" || l == "no") return false;
  }
  return text;
}

DoCandidate match(const Sentence& s, const DoIntent& in) {
  const IntentDef& def = *in.def;
  DoCandidate c;
  c.intent = def.name;
  std::vector<bool> used(s.tokens.size(), false);
  std::vector<bool> value_used(s.values.size(), false);
  for (size_t v = 0; v < s.values.size(); ++v) value_used[v] = s.values[v].absorbed;
  std::vector<std::string> how;

  // The phrase that covers most of itself (ties: the longer one).
  const Phrase* best = nullptr;
  double recall = 0;
  size_t matched_words = 0;
  std::set<size_t> phrase_tokens;
  const std::vector<Phrase> phrases = phrasesOf(def);
  for (const auto& ph : phrases) {
    std::set<size_t> hit;
    size_t found = 0;
    for (const auto& st : ph.stems) {
      bool any = false;
      for (size_t i = 0; i < s.tokens.size(); ++i) {
        if (!s.tokens[i].is_value && !s.tokens[i].stem.empty() && sameWord(s.tokens[i].stem, st)) {
          hit.insert(i);
          any = true;
        }
      }
      found += any ? 1 : 0;
    }
    double r = ph.weight * static_cast<double>(found) / static_cast<double>(ph.stems.size());
    if (r > recall || (r == recall && best && r > 0 && ph.stems.size() > best->stems.size())) {
      recall = r;
      best = &ph;
      phrase_tokens = hit;
      matched_words = found;
    }
  }
  if (recall == 0) return c;
  const bool whole_phrase = recall >= 1.0;
  for (size_t i : phrase_tokens) used[i] = true;
  how.push_back("\"" + best->text + "\"");

  auto assign = [&](const ParamDef& p, json v, const std::string& from) {
    c.params[p.name] = std::move(v);
    how.push_back(p.name + " " + from);
  };
  auto filled = [&](const ParamDef& p) { return c.params.contains(p.name); };

  // 1. Values after a parameter's cue ("with password 'x'", "as ada@example.com").
  for (const auto& p : def.params) {
    auto cues = cuesOf(p);
    for (size_t v = 0; v < s.values.size() && !filled(p); ++v) {
      const Value& val = s.values[v];
      if (value_used[v] || val.kind == "pair" || val.cue.empty() || !cues.count(val.cue)) continue;
      if ((p.type == "object") != (val.kind == "json")) continue;
      if (val.kind == "email" && !accountParam(p) && p.type == "string" && !textual(p) && lower(p.name) != "to") continue;
      value_used[v] = true;
      assign(p, val.kind == "json" ? val.parsed : typed(p, val.text), "after \"" + val.cue + "\"");
      for (size_t i = 0; i < s.tokens.size(); ++i) {
        if (s.tokens[i].is_value && s.tokens[i].value == v && i > 0 && !s.tokens[i - 1].is_value) used[i - 1] = true;
      }
    }
  }
  // 2. Values by kind: a pair for an account and a secret, emails, URLs, objects, numbers.
  const ParamDef* account = nullptr;
  const ParamDef* secret = nullptr;
  for (const auto& p : def.params) {
    if (!account && accountParam(p)) account = &p;
    if (!secret && sensitiveParam(p)) secret = &p;
  }
  for (size_t v = 0; v < s.values.size(); ++v) {
    const Value& val = s.values[v];
    if (value_used[v]) continue;
    if (val.kind == "pair" && account && secret && !filled(*account) && !filled(*secret)) {
      value_used[v] = true;
      assign(*account, val.text, "before \"/\"");
      assign(*secret, val.second, "after \"/\"");
      continue;
    }
    for (const auto& p : def.params) {
      if (filled(p)) continue;
      std::string n = lower(p.name);
      bool fits = (val.kind == "email" && accountParam(p)) ||
                  (val.kind == "url" && (n == "url" || n == "link" || n == "href" || n == "page")) ||
                  (val.kind == "json" && p.type == "object") ||
                  (val.kind == "number" && (p.type == "number" || p.type == "integer"));
      if (!fits) continue;
      value_used[v] = true;
      assign(p, val.kind == "json" ? val.parsed : typed(p, val.text), "from the " + val.kind);
      break;
    }
  }
  // 3. A word after an explicit cue ("password hunter2", "as ada"); free text after a textual
  //    parameter's cue runs to the next value or the end ("for wireless headphones").
  for (const auto& p : def.params) {
    if (filled(p) || p.type == "object" || p.type == "array") continue;
    auto cues = cuesOf(p);
    for (size_t i = 0; i + 1 < s.tokens.size() && !filled(p); ++i) {
      const Token& t = s.tokens[i];
      if (t.is_value || used[i] || !cues.count(t.low)) continue;
      size_t j = i + 1;
      if (s.tokens[j].is_value || used[j] || s.tokens[j].raw == "/") continue;
      if (!textual(p)) {
        if (kStop.count(s.tokens[j].low)) continue;
        used[i] = used[j] = true;
        assign(p, typed(p, s.tokens[j].raw), "after \"" + t.low + "\"");
        break;
      }
      std::string text;
      size_t k = j;
      while (k < s.tokens.size() && !s.tokens[k].is_value && !used[k] && kStop.count(s.tokens[k].low)) ++k;  // "the"
      size_t end = k;
      while (end < s.tokens.size() && !s.tokens[end].is_value && !used[end]) ++end;
      while (end > k && kStop.count(s.tokens[end - 1].low)) --end;  // "for kettles and | open"
      for (; k < end; ++k) text += (text.empty() ? "" : " ") + s.tokens[k].raw;
      if (text.empty()) continue;
      used[i] = true;
      for (size_t m = j; m < k; ++m) used[m] = true;
      assign(p, text, "after \"" + t.low + "\"");
    }
  }
  // 4. Quoted text left: the first unfilled required string parameter (not a secret).
  for (size_t v = 0; v < s.values.size(); ++v) {
    if (value_used[v] || s.values[v].kind != "quoted") continue;
    for (const auto& p : def.params) {
      if (filled(p) || !p.required || p.type != "string" || sensitiveParam(p)) continue;
      value_used[v] = true;
      assign(p, s.values[v].text, "from the quotes");
      break;
    }
  }
  // 5. Words the phrase left, after it: the free text of the first unfilled textual parameter.
  for (const auto& p : def.params) {
    if (!whole_phrase || filled(p) || !textual(p) || !p.required) continue;
    size_t last_phrase = 0;
    for (size_t i : phrase_tokens) last_phrase = std::max(last_phrase, i);
    std::string text;
    std::vector<size_t> took;
    for (size_t i = last_phrase + 1; i < s.tokens.size(); ++i) {
      if (s.tokens[i].is_value || used[i]) {
        if (!text.empty()) break;
        continue;
      }
      if (text.empty() && kStop.count(s.tokens[i].low)) continue;  // "for", "the" before the text
      text += (text.empty() ? "" : " ") + s.tokens[i].raw;
      took.push_back(i);
    }
    if (text.empty()) continue;
    for (size_t i : took) used[i] = true;
    assign(p, text, "from the words after the phrase");
    break;
  }
  // An optional boolean named in the sentence ("reject the cookies", "remember me").
  for (const auto& p : def.params) {
    if (filled(p) || p.type != "boolean" || p.required) continue;
    for (size_t i = 0; i < s.tokens.size(); ++i) {
      if (!s.tokens[i].is_value && !s.tokens[i].stem.empty() && sameWord(s.tokens[i].stem, stem(p.name))) {
        used[i] = true;
        assign(p, true, "named");
        break;
      }
    }
  }

  // Precision: the share of the sentence's meaningful words and values this reading explains.
  size_t meaningful = 0;
  size_t explained = 0;
  for (size_t i = 0; i < s.tokens.size(); ++i) {
    const Token& t = s.tokens[i];
    if (t.is_value) {
      ++meaningful;
      explained += value_used[t.value] ? 1 : 0;
    } else if (!t.stem.empty() && t.raw != "/") {
      ++meaningful;
      explained += used[i] ? 1 : 0;
    }
  }
  double precision = meaningful ? static_cast<double>(explained) / static_cast<double>(meaningful) : 1.0;
  double f = 2 * precision * recall / (precision + recall);
  size_t required = 0;
  size_t have = 0;
  for (const auto& p : def.params) {
    if (!p.required) continue;
    ++required;
    if (filled(p)) ++have;
    else c.missing.push_back(p.name);
  }
  double fill = required ? static_cast<double>(have) / static_cast<double>(required) : 1.0;
  // The description breaks near ties: the share of the sentence's words it uses.
  std::set<std::string> described;
  for (const auto& st : contentStems(def.description)) described.insert(st);
  size_t in_description = 0;
  size_t worded = 0;
  for (const auto& t : s.tokens) {
    if (t.is_value || t.stem.empty()) continue;
    ++worded;
    in_description += described.count(t.stem);
  }
  double desc = worded ? static_cast<double>(in_description) / static_cast<double>(worded) : 0.0;
  // A longer phrase matched is stronger evidence ("find and open" over "find").
  double specific = 0.02 * static_cast<double>(std::min<size_t>(3, matched_words > 0 ? matched_words - 1 : 0));
  c.confidence = std::min(1.0, 0.75 * f + 0.15 * fill + (in.ready ? 0.1 : 0.0) + 0.02 * desc + specific);
  c.confidence = std::round(c.confidence * 100) / 100;
  c.recall = recall;
  c.words = matched_words;
  std::string reason = "phrase " + how.front();
  for (size_t i = 1; i < how.size(); ++i) reason += (i == 1 ? "; " : ", ") + how[i];
  if (!c.missing.empty()) {
    reason += "; no value for";
    for (const auto& m : c.missing) reason += " " + m;
  }
  if (in.ready) reason += "; ready here";
  c.reason = reason;
  return c;
}

}  // namespace

// `a` says more of its phrase than `b`: all of it where `b` says part, or more words of it.
bool saysMore(const DoCandidate& a, const DoCandidate& b) {
  if (a.recall >= 1.0 && b.recall < 1.0) return true;
  return a.recall >= 1.0 && b.recall >= 1.0 && a.words > b.words;
}

std::vector<DoCandidate> parseDo(const std::string& sentence, const std::vector<DoIntent>& intents, size_t max) {
  Sentence s = takeApart(sentence);
  std::vector<DoCandidate> out;
  for (const auto& in : intents) {
    if (!in.def) continue;
    DoCandidate c = match(s, in);
    if (c.confidence > 0) out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(), [](const DoCandidate& a, const DoCandidate& b) { return a.confidence > b.confidence; });
  // Within 0.05 of each other, the reading that says more of its phrase goes first.
  for (size_t pass = 0; pass < out.size(); ++pass) {
    bool swapped = false;
    for (size_t i = 0; i + 1 < out.size(); ++i) {
      if (out[i].confidence - out[i + 1].confidence <= 0.05 && saysMore(out[i + 1], out[i])) {
        std::swap(out[i], out[i + 1]);
        swapped = true;
      }
    }
    if (!swapped) break;
  }
  if (out.size() > max) out.resize(max);
  return out;
}

bool doSure(const std::vector<DoCandidate>& found, double threshold) {
  constexpr double kLead = 0.1;     // ahead of the next by this much
  constexpr double kSaid = 0.75;    // of its phrase said
  if (found.empty() || !found[0].missing.empty() || found[0].confidence < threshold || found[0].recall < kSaid) return false;
  return found.size() < 2 || found[0].confidence - found[1].confidence >= kLead || saysMore(found[0], found[1]);
}

json maskedParams(const IntentDef& def, const json& params) {
  json out = params;
  for (const auto& p : def.params) {
    if (out.contains(p.name) && sensitiveParam(p)) out[p.name] = kMask;
  }
  return out;
}

std::string examplePhrase(const IntentDef& def) {
  if (!def.phrases.empty()) return def.phrases.front();
  std::string spaced = def.name;
  std::replace(spaced.begin(), spaced.end(), '_', ' ');
  return spaced;
}

std::string stemWord(const std::string& word) { return stem(word); }

std::vector<std::string> splitWords(const std::string& text) { return words(text); }

}  // namespace lscope
