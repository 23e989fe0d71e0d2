// A recursive-descent evaluator for intent expressions. Grammar:
//   or := and ('||' and)*      and := not ('&&' not)*      not := '!' not | cmp
//   cmp := value (('=='|'!='|'<'|'<='|'>'|'>=') value)?
//   value := number | 'string' | "string" | true | false | null | $ref | '(' or ')'
#include "engine/expression.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace lscope {

using json = nlohmann::json;

bool truthy(const json& v) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_null()) return false;
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_string()) return !v.get<std::string>().empty();
  return !v.empty();
}

json lookupReference(const std::string& ref, const json& vars) {
  std::string r = !ref.empty() && ref[0] == '$' ? ref.substr(1) : ref;
  json cur = vars;
  size_t start = 0;
  while (start <= r.size()) {
    size_t dot = r.find('.', start);
    std::string part = r.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part == "length" && (cur.is_array() || cur.is_object() || cur.is_string())) {
      cur = cur.is_string() ? json(cur.get<std::string>().size()) : json(cur.size());
    } else if (cur.is_object() && cur.contains(part)) {
      cur = cur[part];
    } else if (cur.is_array() && !part.empty() && part.size() <= 9 && std::all_of(part.begin(), part.end(), ::isdigit) &&
               std::stoul(part) < cur.size()) {
      cur = cur[std::stoul(part)];
    } else {
      return nullptr;
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return cur;
}

namespace {

class Parser {
 public:
  Parser(const std::string& s, const json& vars) : s_(s), vars_(vars) {}

  Result<json> parse() {
    auto v = parseOr();
    if (!v) return v;
    skip();
    if (i_ < s_.size()) return error("unexpected '" + s_.substr(i_, 1) + "'");
    return v;
  }

 private:
  Status error(const std::string& what) {
    return Status(codes::kParameterInvalid, "expression \"" + s_ + "\": " + what + " at position " + std::to_string(i_ + 1));
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const std::string& tok) {
    skip();
    if (s_.compare(i_, tok.size(), tok) == 0) {
      i_ += tok.size();
      return true;
    }
    return false;
  }

  Result<json> parseOr() {
    auto l = parseAnd();
    if (!l) return l;
    json v = *l;
    while (eat("||")) {
      auto r = parseAnd();
      if (!r) return r;
      v = truthy(v) || truthy(*r);
    }
    return v;
  }
  Result<json> parseAnd() {
    auto l = parseNot();
    if (!l) return l;
    json v = *l;
    while (eat("&&")) {
      auto r = parseNot();
      if (!r) return r;
      v = truthy(v) && truthy(*r);
    }
    return v;
  }
  Result<json> parseNot() {
    skip();
    if (i_ < s_.size() && s_[i_] == '!' && (i_ + 1 >= s_.size() || s_[i_ + 1] != '=')) {
      ++i_;
      auto v = parseNot();
      if (!v) return v;
      return json(!truthy(*v));
    }
    return parseCmp();
  }
  Result<json> parseCmp() {
    auto l = parseValue();
    if (!l) return l;
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (!eat(op)) continue;
      auto r = parseValue();
      if (!r) return r;
      const json& a = *l;
      const json& b = *r;
      std::string o = op;
      if (o == "==") return json(a == b || (a.is_number() && b.is_number() && a.get<double>() == b.get<double>()));
      if (o == "!=") return json(!(a == b || (a.is_number() && b.is_number() && a.get<double>() == b.get<double>())));
      if (a.is_number() && b.is_number()) {
        double x = a.get<double>(), y = b.get<double>();
        return json(o == "<" ? x < y : o == "<=" ? x <= y : o == ">" ? x > y : x >= y);
      }
      if (a.is_string() && b.is_string()) {
        const std::string& x = a.get_ref<const std::string&>();
        const std::string& y = b.get_ref<const std::string&>();
        return json(o == "<" ? x < y : o == "<=" ? x <= y : o == ">" ? x > y : x >= y);
      }
      return error("cannot compare " + std::string(a.type_name()) + " with " + b.type_name());
    }
    return l;
  }
  Result<json> parseValue() {
    skip();
    if (i_ >= s_.size()) return error("missing value");
    char c = s_[i_];
    if (c == '(') {
      ++i_;
      auto v = parseOr();
      if (!v) return v;
      if (!eat(")")) return error("missing ')'");
      return v;
    }
    if (c == '\'' || c == '"') {
      size_t end = s_.find(c, i_ + 1);
      if (end == std::string::npos) return error("unterminated string");
      std::string str = s_.substr(i_ + 1, end - i_ - 1);
      i_ = end + 1;
      return json(str);
    }
    if (c == '$') {
      size_t start = i_++;
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '.')) ++i_;
      return lookupReference(s_.substr(start, i_ - start), vars_);
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-') {
      size_t used = 0;
      try {
        double d = std::stod(s_.substr(i_), &used);
        i_ += used;
        return json(d);
      } catch (...) {
        return error("bad number");
      }
    }
    for (const auto& [word, value] : {std::pair<const char*, json>{"true", true}, {"false", false}, {"null", nullptr}}) {
      if (s_.compare(i_, std::strlen(word), word) == 0) {
        i_ += std::strlen(word);
        return value;
      }
    }
    return error("unexpected '" + std::string(1, c) + "'");
  }

  const std::string& s_;
  const json& vars_;
  size_t i_ = 0;
};

}  // namespace

Result<json> evaluateExpression(const std::string& expr, const json& vars) { return Parser(expr, vars).parse(); }

}  // namespace lscope
