#include "engine/recorder.h"

#include "engine/page_model.h"

#include <cctype>
#include <filesystem>
#include <fstream>

#include <spdlog/spdlog.h>

#include "engine/intent_loader.h"
#include "engine/packs.h"

namespace lscope {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// "First name" -> first_name; "" -> value.
std::string paramName(const std::string& label) {
  std::string out;
  for (unsigned char c : label) {
    if (std::isalnum(c)) {
      out += static_cast<char>(std::tolower(c));
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
    if (out.size() >= 40) break;
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "value" + (out.empty() ? "" : "_" + out);
  return out;
}

// A stable locator for the step: the element's text as the scan read it (its label for a
// field), else its selector, else the target as the agent wrote it (an id never survives).
json locator(const Command& c, const Response& r) {
  const json& t = r.data.contains("target") ? r.data["target"] : json();
  if (t.is_object()) {
    std::string text = t.value("text", std::string());
    if (!text.empty()) return {{"text", text}};
    std::string selector = t.value("selector", std::string());
    if (!selector.empty()) return {{"selector", selector}};
  }
  if (!c.target) return nullptr;
  switch (c.target->kind) {
    case TargetSpec::Kind::kCss: return {{"selector", c.target->value}};
    case TargetSpec::Kind::kRole: return {{"role", c.target->value}};
    case TargetSpec::Kind::kText:
    case TargetSpec::Kind::kWord: return {{"text", c.target->value}};
    default: return nullptr;
  }
}

// The field the value went into is sensitive as the engine judges it everywhere else (its type,
// name, id, autocomplete or label: Element::isSensitive, spec §13.1), which the action's answer
// carries; the label alone when an older answer does not say. (Its own word list, searched
// in label and selector, took "pin" in "Shipping" and "card" in "Discard".)
bool sensitiveField(const Response& r) {
  const json& t = r.data.contains("target") ? r.data["target"] : json();
  if (!t.is_object()) return false;
  if (t.value("role", std::string()) == "password" || t.value("sensitive", false)) return true;
  return isSensitiveName(t.value("text", std::string()));
}

}  // namespace

Recorder::Recorder(std::string file) : file_(std::move(file)) {
  name_ = paramName(fs::path(file_).stem().string());
  if (name_.rfind("value", 0) == 0) name_ = "recorded_" + name_;
}

void Recorder::add(const Command& c, const Response& r) {
  static const std::set<std::string> kKept = {"goto", "click", "type", "select", "check", "uncheck", "press", "clear"};
  if (!r.ok() || !kKept.count(c.name)) return;
  json step = {{"action", c.name}};
  if (c.name == "goto") {
    std::string url = c.args.value("url", "");
    if (url.empty()) return;
    step["url"] = url;
    if (host_.empty()) host_ = urlHost(url);
  } else if (c.name == "press") {
    step["key"] = c.args.value("key", "");
  } else {
    json where = locator(c, r);
    if (where.is_null()) return;
    step["target"] = where;
  }
  if (c.name == "type") {
    // What the agent typed is a parameter, named after the field; a sensitive one has no
    // default (the value never reaches the file).
    const json& t = r.data.contains("target") ? r.data["target"] : json();
    std::string base = paramName(t.is_object() ? t.value("text", std::string()) : std::string());
    std::string name = base;
    for (int n = 2; param_names_.count(name); ++n) name = base + "_" + std::to_string(n);
    param_names_.insert(name);
    bool secret = sensitiveField(r);
    json p = {{"name", name}, {"type", "string"}, {"description", "typed into " + (t.is_object() ? t.value("text", name) : name)}};
    if (secret) {
      p["required"] = true;
      p["sensitive"] = true;
    } else {
      p["default"] = c.args.value("text", "");
    }
    params_.push_back(p);
    step["text"] = "$" + name;
    if (c.args.value("enter", false)) step["options"] = {{"enter", true}};
  } else if (c.name == "select") {
    const json& v = c.args.contains("option") ? c.args["option"] : c.args.value("value", json());
    if (v.is_null()) return;
    step["value"] = v;
  }
  steps_.push_back(step);
  save();
}

void Recorder::save() const {
  json doc = {{"intent", name_},
              {"version", "1.0.0"},
              {"description", "Recorded from a session" + (host_.empty() ? std::string() : " on " + host_)},
              {"steps", steps_}};
  if (!params_.empty()) doc["parameters"] = params_;
  std::string yaml = "# Recorded by lscope --record; load it with --intents " + fs::path(file_).parent_path().string() +
                     "\n" + definitionYaml(doc);
  // Only what loads back is written.
  LoadOptions o;
  o.tier = "user";
  auto back = parseIntent(yaml, file_, o);
  if (!back) {
    spdlog::warn("record: {} would not load back: {}", file_, back.status().message());
    return;
  }
  std::string tmp = file_ + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << yaml;
    if (!out.good()) {
      spdlog::warn("record: cannot write {}", file_);
      return;
    }
  }
  std::error_code ec;
  fs::rename(tmp, file_, ec);
  if (ec) spdlog::warn("record: cannot write {}: {}", file_, ec.message());
}

}  // namespace lscope
