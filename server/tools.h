// The MCP tool catalog: one readable table generated from the engine's command table, plus
// the `run` tool (several OIL lines in one call). Names, titles, schemas, annotations.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/commands.h"
#include "engine/intents.h"
#include "engine/status.h"

namespace lscope::mcp {

using json = nlohmann::json;

struct ToolDef {
  std::string name;
  std::string title;
  std::string description;
  json input_schema;
  json output_schema;
  json annotations;     // only the hints that differ from MCP's defaults
  std::string command;  // engine command it runs; empty for `run`
  bool in_default_profile = true;
};

// The tools a server offers. Immutable once built; shared between sessions.
class ToolCatalog {
 public:
  // profile: "default" (the commands agents use most, the built-in, user and session
  // intents; the rest stay reachable through `run` and `intent`), "all", or a comma-separated
  // list of tool names. `intents` are the intents the session can run.
  static Result<std::shared_ptr<const ToolCatalog>> build(
      const std::string& profile = "default",
      const std::vector<std::shared_ptr<const IntentEntry>>& intents = {});

  const std::vector<ToolDef>& listed() const { return listed_; }
  // Any tool of the full catalog, listed or not (a client may call what it knows of).
  const ToolDef* find(const std::string& name) const;

 private:
  std::vector<ToolDef> all_;
  std::vector<ToolDef> listed_;
};

// The tool as a tools/list entry for the negotiated protocol version (title, annotations and
// outputSchema appear only in versions that define them).
json toolJson(const ToolDef& tool, const std::string& protocol_version);

// The JSON Schema (2020-12) of a command's parameters.
json inputSchemaFor(const CommandSpec& spec);

}  // namespace lscope::mcp
