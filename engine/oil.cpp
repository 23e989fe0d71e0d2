// OIL tokenizer and parser: forgiving (any case, any quotes, no quotes for single words),
// strict about what it cannot understand (column + nearest valid form).
#include "engine/oil.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <sstream>

#include "engine/commands.h"
#include "engine/json_bounded.h"

namespace lscope {
namespace {

enum class Tok { kWord, kQuoted, kCss, kXpath, kOption, kJson };

struct Token {
  Tok kind;
  std::string text;  // content (quotes and css(...) wrappers removed; option without --)
  size_t col;        // 1-based column of the token start
  std::string raw;   // the token as written
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Status syntaxError(size_t col, const std::string& message, const std::string& suggestion = {}) {
  std::string hint = suggestion.empty() ? "" : "did you mean: " + suggestion;
  return Status(codes::kSyntaxError, message + " (column " + std::to_string(col) + ")", hint);
}

// Reads a quoted string starting at s[i] (the quote); handles \" \' \\ \n \t escapes.
Result<std::string> readQuoted(const std::string& s, size_t& i) {
  char q = s[i];
  size_t start = i++;
  std::string out;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\\' && i + 1 < s.size()) {
      char n = s[i + 1];
      out += n == 'n' ? '\n' : n == 't' ? '\t' : n;
      i += 2;
      continue;
    }
    if (c == q) {
      ++i;
      return out;
    }
    out += c;
    ++i;
  }
  std::string fixed = s + q;
  return syntaxError(start + 1, std::string("unterminated ") + (q == '"' ? "double" : "single") + " quote",
                     fixed);
}

// Reads balanced (...) or {...} starting at s[i] (the opener), honouring quotes inside.
Result<std::string> readBalanced(const std::string& s, size_t& i, char open, char close) {
  size_t start = i;
  int depth = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '"' || c == '\'') {
      auto q = readQuoted(s, i);
      if (!q) return q.status();
      continue;
    }
    if (c == open) ++depth;
    if (c == close && --depth == 0) {
      ++i;
      return s.substr(start + 1, i - start - 2);
    }
    ++i;
  }
  return syntaxError(start + 1, std::string("missing '") + close + "'", s + close);
}

std::string stripQuotes(std::string s) {
  auto b = s.find_first_not_of(" \t");
  auto e = s.find_last_not_of(" \t");
  s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    s = s.substr(1, s.size() - 2);
  }
  return s;
}

bool startsWithCi(const std::string& s, size_t i, const char* prefix) {
  for (size_t k = 0; prefix[k]; ++k) {
    if (i + k >= s.size() || std::tolower(static_cast<unsigned char>(s[i + k])) != prefix[k]) return false;
  }
  return true;
}

Result<std::vector<Token>> tokenize(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    size_t start = i;
    // A comment: '#' at the start or after a space, followed by a space or the end.
    if (c == '#' && (i + 1 >= s.size() || std::isspace(static_cast<unsigned char>(s[i + 1])) ||
                     out.empty())) {
      break;
    }
    if (c == '"' || c == '\'') {
      auto q = readQuoted(s, i);
      if (!q) return q.status();
      out.push_back({Tok::kQuoted, *q, start + 1, s.substr(start, i - start)});
      continue;
    }
    // A JSON list of texts (select's options: ["Read", "Write"]); [5], an id as observations
    // print it, stays a word.
    const size_t text_at = s.find_first_not_of(" \t", i + 1);
    if (c == '[' && text_at != std::string::npos && (s[text_at] == '"' || s[text_at] == '\'')) {
      auto b = readBalanced(s, i, '[', ']');
      if (!b) return b.status();
      out.push_back({Tok::kJson, s.substr(start, i - start), start + 1, s.substr(start, i - start)});
      continue;
    }
    if (c == '{') {
      auto b = readBalanced(s, i, '{', '}');
      if (!b) return b.status();
      out.push_back({Tok::kJson, s.substr(start, i - start), start + 1, s.substr(start, i - start)});
      continue;
    }
    bool css = startsWithCi(s, i, "css(");
    bool xpath = startsWithCi(s, i, "xpath(");
    if (css || xpath) {
      i += css ? 3 : 5;
      auto b = readBalanced(s, i, '(', ')');
      if (!b) return b.status();
      std::string inner = stripQuotes(*b);
      if (inner.empty()) return syntaxError(start + 1, std::string(css ? "css()" : "xpath()") + " is empty");
      out.push_back({css ? Tok::kCss : Tok::kXpath, inner, start + 1, s.substr(start, i - start)});
      continue;
    }
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) {
      // key="a value with spaces": the quoted value stays in the word (pairs, --option="x y").
      if ((s[i] == '"' || s[i] == '\'') && i > start && s[i - 1] == '=') {
        size_t close = s.find(s[i], i + 1);
        if (close != std::string::npos) {
          i = close + 1;
          continue;
        }
      }
      ++i;
    }
    std::string word = s.substr(start, i - start);
    if (word.size() > 2 && word[0] == '-' && word[1] == '-') {
      out.push_back({Tok::kOption, word.substr(2), start + 1, word});
    } else {
      out.push_back({Tok::kWord, word, start + 1, word});
    }
  }
  return out;
}

bool isNumber(const std::string& s) {
  return !s.empty() && s.size() < 10 && std::all_of(s.begin(), s.end(), ::isdigit);
}

bool isRelation(const Token& t) {
  if (t.kind != Tok::kWord) return false;
  std::string w = lower(t.text);
  return w == "near" || w == "inside" || w == "after" || w == "before";
}

// Regex written as /pattern/flags.
bool isRegexWord(const std::string& w) {
  if (w.size() < 3 || w[0] != '/') return false;
  size_t end = w.rfind('/');
  if (end == 0) return false;
  return std::all_of(w.begin() + static_cast<long>(end) + 1, w.end(), [](char c) { return c == 'i'; });
}

// Parses one primary target starting at tokens[i]; `greedy` lets an unquoted target take
// several words (it is the command's last positional parameter).
Result<TargetSpec> parsePrimary(const std::vector<Token>& toks, size_t& i, bool greedy) {
  const Token& t = toks[i];
  TargetSpec spec;
  switch (t.kind) {
    case Tok::kQuoted:
      spec.kind = TargetSpec::Kind::kText;
      spec.value = t.text;
      ++i;
      return spec;
    case Tok::kCss:
      spec.kind = TargetSpec::Kind::kCss;
      spec.value = t.text;
      ++i;
      return spec;
    case Tok::kXpath:
      spec.kind = TargetSpec::Kind::kXpath;
      spec.value = t.text;
      ++i;
      return spec;
    case Tok::kOption:
    case Tok::kJson:
      return syntaxError(t.col, "expected a target, found '" + t.raw + "'",
                         "5, \"Sign in\", email, css(.btn)");
    case Tok::kWord:
      break;
  }
  std::string w = lower(t.text);
  // An ordinal picks the n-th match in page order: 2nd "Edit", last "Delete", 3rd input.
  if (int n = parseOrdinal(w); n != 0 && i + 1 < toks.size()) {
    const Token& next = toks[i + 1];
    bool targetish = next.kind == Tok::kQuoted || next.kind == Tok::kCss || next.kind == Tok::kXpath ||
                     (next.kind == Tok::kWord && (isRoleWord(next.text) || isRegexWord(next.text) ||
                                                  lower(next.text) == "exact" || lower(next.text) == "contains"));
    if (targetish) {
      size_t j = i + 1;
      auto inner = parsePrimary(toks, j, greedy);
      if (!inner) return inner;
      TargetSpec spec2 = *inner;
      spec2.nth = n;
      // "last button" may also be a button's text: tried first, as for relations.
      if (next.kind == Tok::kWord && spec2.kind == TargetSpec::Kind::kRole) spec2.as_text = t.text + " " + next.text;
      i = j;
      return spec2;
    }
  }
  if ((w == "exact" || w == "contains" || w == "regex") && i + 1 < toks.size() &&
      (toks[i + 1].kind == Tok::kQuoted || toks[i + 1].kind == Tok::kWord)) {
    spec.kind = TargetSpec::Kind::kText;
    spec.match = w == "exact" ? TextMatch::kExact : w == "contains" ? TextMatch::kContains : TextMatch::kRegex;
    spec.value = toks[i + 1].text;
    i += 2;
    return spec;
  }
  if (isNumber(t.text)) {
    spec.kind = TargetSpec::Kind::kId;
    spec.id = std::stoi(t.text);
    spec.value = t.text;
    ++i;
    return spec;
  }
  if (t.text.size() > 2 && t.text.front() == '[' && t.text.back() == ']' &&
      isNumber(t.text.substr(1, t.text.size() - 2))) {  // [5] as printed in observations
    spec.kind = TargetSpec::Kind::kId;
    spec.id = std::stoi(t.text.substr(1, t.text.size() - 2));
    spec.value = t.text;
    ++i;
    return spec;
  }
  if (isRegexWord(t.text)) {
    size_t end = t.text.rfind('/');
    spec.kind = TargetSpec::Kind::kText;
    spec.match = TextMatch::kRegex;
    spec.value = t.text.substr(1, end - 1);
    if (t.text.size() > end + 1) spec.value = "(?i)" + spec.value;
    ++i;
    return spec;
  }
  // Bare words: one, or all up to an option or relation when greedy.
  std::string words = t.text;
  ++i;
  while (greedy && i < toks.size() && toks[i].kind == Tok::kWord && !isRelation(toks[i])) {
    words += " " + toks[i].text;
    ++i;
  }
  if (words.find(' ') == std::string::npos && isRoleWord(words)) {
    spec.kind = TargetSpec::Kind::kRole;
    spec.value = lower(words);
    if (spec.value == "phone") spec.value = "tel";
  } else {
    spec.kind = TargetSpec::Kind::kWord;
    spec.value = words;
  }
  return spec;
}

Result<TargetSpec> parseTargetTokens(const std::vector<Token>& toks, size_t& i, bool greedy) {
  auto primary = parsePrimary(toks, i, greedy);
  if (!primary) return primary;
  TargetSpec spec = *primary;
  if (i < toks.size() && isRelation(toks[i])) {
    const Token& rel = toks[i];
    if (i + 1 >= toks.size() || toks[i + 1].kind == Tok::kOption) {
      return syntaxError(rel.col, "'" + rel.text + "' needs a target after it",
                         spec.toString() + " " + lower(rel.text) + " \"Some text\"");
    }
    ++i;
    auto anchor = parseTargetTokens(toks, i, greedy);
    if (!anchor) return anchor;
    spec.relation = lower(rel.text);
    spec.anchor = std::make_shared<TargetSpec>(*anchor);
    bool unquoted = (spec.kind == TargetSpec::Kind::kWord || spec.kind == TargetSpec::Kind::kRole) &&
                    (anchor->kind == TargetSpec::Kind::kWord || anchor->kind == TargetSpec::Kind::kRole);
    if (unquoted) spec.as_text = spec.value + " " + rel.text + " " + (anchor->as_text.empty() ? anchor->value : anchor->as_text);
  }
  return spec;
}

std::string optionSuggestions(const CommandSpec& spec) {
  std::string out;
  for (const auto& p : spec.params) {
    if (p.positional) continue;
    out += (out.empty() ? "--" : ", --") + p.name;
  }
  return out;
}

std::string normalizeOption(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return lower(name);
}

// A non-empty JSON list of texts (select's options of a multiple select); numbers count as texts
// where `numbers` (an OIL line writes 2 for "2").
bool isTextList(const json& v, bool numbers) {
  return v.is_array() && !v.empty() &&
         std::all_of(v.begin(), v.end(), [&](const json& x) { return x.is_string() || (numbers && x.is_number()); });
}

// Converts one token to a typed JSON value for `p`, or an error naming the column.
Result<json> typedValue(const ParamSpec& p, const Token& t, const CommandSpec& spec) {
  switch (p.type) {
    case ParamType::kInteger:
    case ParamType::kNumber: {
      try {
        size_t used = 0;
        double v = std::stod(t.text, &used);
        if (used != t.text.size() || !std::isfinite(v)) throw std::invalid_argument("not a number");
        if (p.type == ParamType::kInteger) {
          // A whole number a double holds exactly (casting 1e300 to long long is undefined:
          // found by fuzz_oil).
          if (v != std::floor(v) || std::fabs(v) > 9007199254740992.0) {
            return syntaxError(t.col, p.name + " must be a whole number, got '" + t.text + "'", spec.usage);
          }
          return json(static_cast<long long>(v));
        }
        return json(v);
      } catch (...) {
        return syntaxError(t.col, p.name + " must be a number, got '" + t.text + "'", spec.usage);
      }
    }
    case ParamType::kDuration: {
      auto ms = parseDurationMs(t.text);
      if (!ms) return syntaxError(t.col, p.name + " must be a duration like 10s or 500ms, at most a day", spec.usage);
      return json(*ms);
    }
    case ParamType::kObject: {
      json obj = parseJsonBounded(t.text);
      if (obj.is_discarded() || !obj.is_object()) {
        return syntaxError(t.col, p.name + " must be a JSON object", "{\"name\": \"value\"}");
      }
      return obj;
    }
    case ParamType::kArray: {
      json arr = parseJsonBounded(t.text);
      if (arr.is_array()) return arr;
      arr = json::array();  // comma-separated words
      std::string item;
      std::stringstream ss(t.text);
      while (std::getline(ss, item, ',')) {
        if (!item.empty()) arr.push_back(item);
      }
      return arr;
    }
    case ParamType::kBoolean: {
      std::string v = lower(t.text);
      if (v == "true" || v == "yes" || v == "1") return json(true);
      if (v == "false" || v == "no" || v == "0") return json(false);
      return syntaxError(t.col, p.name + " must be true or false", spec.usage);
    }
    default:
      break;
  }
  if (p.list_ok && t.kind == Tok::kJson) {
    // ["Read", "Write"]: the options of a multiple select, picked each in turn.
    json list = parseJsonBounded(t.text);
    if (isTextList(list, true)) {
      for (auto& v : list) if (v.is_number()) v = v.dump();
      return list;
    }
  }
  if (!p.choices.empty()) {
    // Case does not matter; the value is the choice as spelled (an intent's enum: "High").
    std::string v = lower(t.text);
    auto it = std::find_if(p.choices.begin(), p.choices.end(), [&](const std::string& c) { return lower(c) == v; });
    if (it == p.choices.end()) {
      std::string all;
      for (const auto& c : p.choices) all += (all.empty() ? "" : "|") + c;
      return syntaxError(t.col, p.name + " must be one of " + all + ", got '" + t.text + "'", spec.usage);
    }
    return json(*it);
  }
  return json(t.text);
}

// key=value pairs (fill name="John" email=j@x.com) as an object.
bool readPairs(const std::vector<Token>& toks, size_t& i, json& out) {
  size_t k = i;
  json obj = json::object();
  while (k < toks.size() && toks[k].kind == Tok::kWord) {
    auto eq = toks[k].text.find('=');
    if (eq == std::string::npos || eq == 0) break;
    std::string key = toks[k].text.substr(0, eq);
    std::string val = toks[k].text.substr(eq + 1);
    ++k;
    if (val.empty() && k < toks.size() && toks[k].kind == Tok::kQuoted) {
      val = toks[k].text;
      ++k;
    } else if (val.size() >= 2 && (val[0] == '"' || val[0] == '\'') && val.back() == val[0]) {
      val = val.substr(1, val.size() - 2);  // name="John" is one word token: its quotes are not the value
    }
    obj[key] = val;
  }
  if (obj.empty()) return false;
  out = obj;
  i = k;
  return true;
}

// Whether the command has a value for `p` (the target lives apart from the other arguments).
bool given(const Command& cmd, const ParamSpec& p) {
  return p.type == ParamType::kTarget && p.name == "target" ? cmd.target.has_value() : cmd.args.contains(p.name);
}

Result<Command> parseArguments(const CommandSpec& spec, const std::vector<Token>& toks, size_t i,
                               const std::string& line) {
  Command cmd;
  cmd.name = spec.name;
  std::vector<const ParamSpec*> positional;
  for (const auto& p : spec.params) {
    if (p.positional) positional.push_back(&p);
  }
  // Options first (anywhere on the line), then positionals in order.
  std::vector<Token> rest;
  for (size_t k = i; k < toks.size(); ++k) {
    const Token& t = toks[k];
    if (t.kind != Tok::kOption) {
      rest.push_back(t);
      continue;
    }
    std::string name = t.text, value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
      if (value.size() >= 2 && (value[0] == '"' || value[0] == '\'') && value.back() == value[0]) {
        value = value.substr(1, value.size() - 2);  // --near="Sign in page"
      }
    }
    name = normalizeOption(name);
    const ParamSpec* p = spec.param(name);
    if (!p) {
      std::string known = optionSuggestions(spec);
      return syntaxError(t.col, "unknown option --" + t.text + " for " + spec.name,
                         known.empty() ? spec.usage : spec.usage + "   (options: " + known + ")");
    }
    if (p->type == ParamType::kBoolean) {
      cmd.args[p->name] = has_value ? (lower(value) != "false" && value != "0") : true;
      continue;
    }
    Token vt{Tok::kWord, value, t.col, value};
    if (!has_value) {
      if (k + 1 >= toks.size() || toks[k + 1].kind == Tok::kOption) {
        return syntaxError(t.col, "--" + p->name + " needs a value", spec.usage);
      }
      vt = toks[++k];
    }
    if (p->type == ParamType::kTarget) {
      std::vector<Token> one{vt};
      size_t j = 0;
      auto target = parseTargetTokens(one, j, true);
      if (!target) return target.status();
      if (p->name == "target") cmd.target = *target;
      else cmd.args[p->name] = vt.raw;  // a second target (drag's `to`): its text, parsed when used
      continue;
    }
    auto v = typedValue(*p, vt, spec);
    if (!v) return v.status();
    cmd.args[p->name] = *v;
  }

  size_t k = 0;
  for (size_t pi = 0; pi < positional.size() && k < rest.size(); ++pi) {
    const ParamSpec& p = *positional[pi];
    bool last = pi + 1 == positional.size();
    if (p.type == ParamType::kTarget) {
      const bool main = p.name == "target";
      if (given(cmd, p)) continue;  // given as an option
      if (!p.lead.empty() && rest[k].kind == Tok::kWord && lower(rest[k].text) == p.lead) {
        if (k + 1 >= rest.size()) return syntaxError(rest[k].col, "'" + rest[k].text + "' needs a target after it", spec.usage);
        ++k;
      }
      const size_t from = k;
      // A word that leads the next positional (drag's "to") ends this target: unquoted words
      // before it are all this target's (drag Fix login to Done).
      size_t end = rest.size();
      if (pi + 1 < positional.size() && !positional[pi + 1]->lead.empty()) {
        for (size_t j = k + 1; j < rest.size() && end == rest.size(); ++j) {
          if (rest[j].kind == Tok::kWord && lower(rest[j].text) == positional[pi + 1]->lead) end = j;
        }
      }
      const bool bounded = end < rest.size();
      std::vector<Token> part(rest.begin() + static_cast<std::ptrdiff_t>(k), rest.begin() + static_cast<std::ptrdiff_t>(end));
      size_t m = 0;
      auto target = parseTargetTokens(part, m, bounded || last);
      if (!target) return target.status();
      if (bounded && m < part.size()) return syntaxError(part[m].col, "unexpected '" + part[m].raw + "' in target", spec.usage);
      k += m;
      if (main) {
        cmd.target = *target;
      } else {
        // A second target (drag's `to`): the words as written, parsed again where it is used.
        std::string written;
        for (size_t w = from; w < k; ++w) written += (w == from ? "" : " ") + rest[w].raw;
        cmd.args[p.name] = written;
      }
      continue;
    }
    if (p.type == ParamType::kObject) {
      json obj;
      if (rest[k].kind != Tok::kJson && readPairs(rest, k, obj)) {
        cmd.args[p.name] = obj;
        continue;
      }
    }
    if (p.rest) {
      std::string joined;
      size_t begin = k;
      while (k < rest.size()) {
        joined += (k == begin ? "" : " ") + rest[k].text;
        ++k;
      }
      Token jt{rest[begin].kind, joined, rest[begin].col, joined};
      auto v = typedValue(p, jt, spec);
      if (!v) return v.status();
      cmd.args[p.name] = *v;
      continue;
    }
    // An optional positional with choices (scroll's direction) is skipped when a number
    // stands in its place, so `scroll 500` means an amount.
    if (!p.required && !p.choices.empty() && !last && isNumber(rest[k].text)) continue;
    auto v = typedValue(p, rest[k], spec);
    if (!v) return v.status();
    cmd.args[p.name] = *v;
    ++k;
  }
  if (k < rest.size()) {
    return syntaxError(rest[k].col, "unexpected '" + rest[k].raw + "' after " + spec.name, spec.usage);
  }
  for (const auto& p : spec.params) {
    if (p.required && !given(cmd, p)) {
      return syntaxError(line.size() + 1, spec.name + " needs <" + p.name + ">", spec.usage);
    }
  }
  return cmd;
}

}  // namespace

bool isRoleWord(const std::string& word) {
  static const char* kRoles[] = {
      // reserved roles (intent-language.md "Reserved Words", scanner-protocol.md §4.2)
      "email", "password", "search", "submit", "username", "phone", "tel", "url", "primary",
      // type words an observation prints (scanner-protocol.md §4.1 and the scanner's additions)
      "input", "textarea", "select", "checkbox", "radio", "button", "link", "option", "row", "item",
      "tab", "menuitem", "cell", "treeitem", "switch", "slider",
      // ARIA role names (WAI-ARIA 1.2 widget roles)
      "textbox", "combobox", "searchbox", "listbox", "spinbutton", "gridcell", "menuitemcheckbox",
      "menuitemradio"};
  std::string w = lower(word);
  auto slash = w.find('/');
  if (slash != std::string::npos && slash > 0 && slash + 1 < w.size()) {
    // The observation's type/role form: input/date, button/submit, input/password.
    std::string type = w.substr(0, slash);
    std::string rest = w.substr(slash + 1);
    return isRoleWord(type) && std::all_of(rest.begin(), rest.end(), [](char c) {
             return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
           });
  }
  for (const char* r : kRoles) {
    if (w == r) return true;
  }
  return false;
}

int parseOrdinal(const std::string& word) {
  static const char* kWords[] = {"first", "second", "third", "fourth", "fifth",
                                 "sixth", "seventh", "eighth", "ninth", "tenth"};
  std::string w = lower(word);
  if (w == "last") return -1;
  for (int i = 0; i < 10; ++i) {
    if (w == kWords[i]) return i + 1;
  }
  size_t digits = 0;
  while (digits < w.size() && std::isdigit(static_cast<unsigned char>(w[digits]))) ++digits;
  if (digits == 0 || digits > 4 || w.size() != digits + 2) return 0;
  std::string suffix = w.substr(digits);
  int n = std::stoi(w.substr(0, digits));
  if (n <= 0) return 0;
  int tens = n % 100, ones = n % 10;
  const char* want = (tens >= 11 && tens <= 13) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
  return suffix == want ? n : 0;
}

std::string ordinalWord(int n) {
  if (n < 0) return "last";
  int tens = n % 100, ones = n % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string TargetSpec::toString() const {
  std::string s;
  switch (kind) {
    case Kind::kId: s = std::to_string(id); break;
    case Kind::kText:
      if (match == TextMatch::kRegex) s = "/" + value + "/";
      else s = (match == TextMatch::kExact ? "exact \"" : match == TextMatch::kContains ? "contains \"" : "\"") + value + "\"";
      break;
    case Kind::kRole: s = value; break;
    case Kind::kWord: s = value; break;
    case Kind::kCss: s = "css(" + value + ")"; break;
    case Kind::kXpath: s = "xpath(" + value + ")"; break;
    case Kind::kPattern: s = "pattern " + value; break;
  }
  for (const auto& a : alternatives) s += " or \"" + a + "\"";
  if (nth != 0) s = ordinalWord(nth) + " " + (kind == Kind::kWord ? "\"" + s + "\"" : s);
  if (anchor) s += " " + relation + " " + anchor->toString();
  if (fallback) s += " or " + fallback->toString();
  return s;
}

Result<std::optional<Command>> parseLine(const std::string& line, const CommandLookup& lookup) {
  auto find = [&](const std::string& n) -> const CommandSpec* {
    if (const CommandSpec* s = findCommand(n)) return s;
    if (!lookup) return nullptr;
    std::string l = lower(n);
    return lookup(l);
  };
  auto toks = tokenize(line);
  if (!toks) return toks.status();
  if (toks->empty()) return std::optional<Command>();
  const Token& first = (*toks)[0];
  if (first.kind != Tok::kWord) {
    return syntaxError(first.col, "a line starts with a command, found '" + first.raw + "'",
                       "click " + first.raw);
  }
  size_t i = 1;
  const CommandSpec* spec = nullptr;
  // Two-word forms: "accept cookies", "dismiss popups", "scroll to" (intent-language.md Level 3).
  if (toks->size() > 1 && (*toks)[1].kind == Tok::kWord) {
    spec = find(first.text + "_" + (*toks)[1].text);
    if (spec) i = 2;
  }
  if (!spec) spec = find(first.text);
  if (!spec) {
    auto near = nearestCommands(first.text);
    std::string suggestion;
    if (!near.empty()) suggestion = findCommand(near[0])->usage;
    return syntaxError(first.col, "unknown command '" + first.text + "'", suggestion);
  }
  auto cmd = parseArguments(*spec, *toks, i, line);
  if (!cmd) return cmd.status();
  cmd->source = line;
  return std::optional<Command>(std::move(cmd.value()));
}

Result<TargetSpec> parseTarget(const std::string& text) {
  auto toks = tokenize(text);
  if (!toks) return toks.status();
  if (toks->empty()) return syntaxError(1, "empty target", "5, \"Sign in\", email, css(.btn)");
  size_t i = 0;
  auto spec = parseTargetTokens(*toks, i, true);
  if (!spec) return spec;
  if (i < toks->size()) {
    // Whatever is left is part of an unquoted text ("Sign in" written without quotes).
    return syntaxError((*toks)[i].col, "unexpected '" + (*toks)[i].raw + "' in target",
                       "\"" + text + "\"");
  }
  return spec;
}

Result<Command> commandFromArgs(const std::string& name, const json& args, const CommandLookup& lookup) {
  const CommandSpec* spec = findCommand(name);
  if (!spec && lookup) spec = lookup(name);
  if (!spec) return Status(codes::kUnknownCommand, "unknown command " + name);
  if (!args.is_null() && !args.is_object()) {
    return Status(codes::kParameterInvalid, "arguments must be an object");
  }
  Command cmd;
  cmd.name = spec->name;
  cmd.source = spec->name;
  for (auto it = args.begin(); args.is_object() && it != args.end(); ++it) {
    const ParamSpec* p = spec->param(it.key());
    if (!p) {
      return Status(codes::kParameterInvalid, "unknown parameter '" + it.key() + "' for " + spec->name,
                    spec->usage);
    }
    const json& v = *it;
    if (v.is_null()) continue;
    auto bad = [&](const std::string& want) {
      return Status(codes::kParameterInvalid, "'" + p->name + "' must be " + want, spec->usage);
    };
    switch (p->type) {
      case ParamType::kTarget: {
        if (p->name != "target") {
          // A second target (drag's `to`): checked here, kept as written, parsed where it is used.
          if (v.is_number_integer()) {
            cmd.args[p->name] = "[" + std::to_string(v.get<long long>()) + "]";  // an id, as observations print it
          } else if (v.is_string()) {
            auto t = parseTarget(v.get<std::string>());
            if (!t) return Status(codes::kParameterInvalid, "'" + p->name + "': " + t.status().message(), t.status().hint());
            cmd.args[p->name] = v;
          } else {
            return bad("an element id or a target string");
          }
          break;
        }
        if (v.is_number_integer()) {
          TargetSpec t;
          t.kind = TargetSpec::Kind::kId;
          t.id = v.get<int>();
          t.value = std::to_string(t.id);
          cmd.target = t;
        } else if (v.is_string()) {
          auto t = parseTarget(v.get<std::string>());
          if (!t) return Status(codes::kParameterInvalid, "'target': " + t.status().message(), t.status().hint());
          // Ids have the integer type: "18" may be the text a person reads (a day, a page).
          t->id_or_text = t->kind == TargetSpec::Kind::kId && !t->anchor && t->nth == 0;
          cmd.target = *t;
        } else {
          return bad("an element id or a target string");
        }
        break;
      }
      case ParamType::kBoolean:
        if (!v.is_boolean()) return bad("true or false");
        cmd.args[p->name] = v;
        break;
      case ParamType::kInteger:
        if (!v.is_number_integer()) return bad("an integer");
        cmd.args[p->name] = v;
        break;
      case ParamType::kNumber:
        if (!v.is_number()) return bad("a number");
        cmd.args[p->name] = v;
        break;
      case ParamType::kDuration: {
        if (v.is_number()) {
          cmd.args[p->name] = v.get<long long>();
        } else if (v.is_string() && parseDurationMs(v.get<std::string>())) {
          cmd.args[p->name] = *parseDurationMs(v.get<std::string>());
        } else {
          return bad("a duration like \"10s\" or a number of milliseconds");
        }
        break;
      }
      case ParamType::kObject:
        if (!v.is_object()) return bad("an object");
        cmd.args[p->name] = v;
        break;
      case ParamType::kArray:
        if (!v.is_array()) return bad("an array");
        cmd.args[p->name] = v;
        break;
      case ParamType::kString: {
        if (p->list_ok && isTextList(v, false)) {
          cmd.args[p->name] = v;
          break;
        }
        if (!v.is_string() && !v.is_number()) return bad(p->list_ok ? "a string or a list of strings" : "a string");
        std::string s = v.is_string() ? v.get<std::string>() : v.dump();
        if (!p->choices.empty()) {
          std::string l = lower(s);
          if (std::find(p->choices.begin(), p->choices.end(), l) == p->choices.end()) {
            std::string all;
            for (const auto& c : p->choices) all += (all.empty() ? "" : ", ") + c;
            return bad("one of " + all);
          }
          s = l;
        }
        cmd.args[p->name] = s;
        break;
      }
    }
  }
  for (const auto& p : spec->params) {
    if (p.required && !given(cmd, p)) {
      return Status(codes::kParameterMissing, spec->name + " needs '" + p.name + "'", spec->usage);
    }
  }
  return cmd;
}

}  // namespace lscope
