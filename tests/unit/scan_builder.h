// Builds PageScans from compact element lists, as the scanner would report them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/page_model.h"

namespace lscope::testing {

struct El {
  std::string type, role, text, selector;
  std::vector<std::string> modifiers = {};
  std::string value = "";
  nlohmann::json extra = nlohmann::json::object();  // merged into the element JSON
};

inline nlohmann::json scanJson(const std::string& url, const std::string& title, const std::vector<El>& els,
                               nlohmann::json patterns = nlohmann::json::array(),
                               nlohmann::json messages = nlohmann::json::array()) {
  nlohmann::json elements = nlohmann::json::array();
  int id = 0;
  for (const auto& e : els) {
    nlohmann::json j = {{"id", ++id},
                        {"type", e.type},
                        {"role", e.role},
                        {"tag", e.type == "link" ? "a" : e.type == "button" ? "button" : "input"},
                        {"text", e.text},
                        {"selector", e.selector},
                        {"key", e.type + ":" + e.role + ":" + e.selector + ":" + e.text},
                        {"rect", {{"x", 10}, {"y", 20 * id}, {"width", 100}, {"height", 18}}},
                        {"state", {{"visible", true}, {"enabled", true}}},
                        {"modifiers", e.modifiers}};
    if (!e.value.empty()) j["state"]["value"] = e.value;
    for (auto it = e.extra.begin(); it != e.extra.end(); ++it) j[it.key()] = *it;
    elements.push_back(j);
  }
  return {{"page", {{"url", url}, {"title", title}}},
          {"elements", elements},
          {"patterns", patterns},
          {"messages", messages},
          {"stats", {{"interactive", static_cast<int>(els.size())}, {"visible", static_cast<int>(els.size())}}}};
}

inline PageScan scanOf(const std::string& url, const std::string& title, const std::vector<El>& els,
                       nlohmann::json patterns = nlohmann::json::array(),
                       nlohmann::json messages = nlohmann::json::array()) {
  auto r = parseScan(scanJson(url, title, els, std::move(patterns), std::move(messages)));
  return r.value();
}

}  // namespace lscope::testing
