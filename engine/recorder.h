// --record FILE (issue 20): the atomic commands of a session as an intent definition (YAML that
// --intents loads), rewritten after each command so an abrupt end keeps what came before. What
// the agent typed becomes a parameter; a value typed into a sensitive field is never written.
#pragma once

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/oil.h"
#include "engine/response.h"

namespace lscope {

class Recorder {
 public:
  // The intent is named after the file ("login_flow.yaml": login_flow).
  explicit Recorder(std::string file);
  // A command that succeeded: becomes a step when it acts (goto, click, type, select, check,
  // uncheck, press, clear, hover is not kept).
  void add(const Command& command, const Response& response);
  const std::string& name() const { return name_; }

 private:
  void save() const;

  std::string file_;
  std::string name_;
  std::string host_;
  nlohmann::json params_ = nlohmann::json::array();
  nlohmann::json steps_ = nlohmann::json::array();
  std::set<std::string> param_names_;
};

}  // namespace lscope
