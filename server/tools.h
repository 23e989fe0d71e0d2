// The MCP tool catalog: one readable table generated from the engine's command table, plus
// the `run` tool (several OIL lines in one call). Names, titles, schemas, annotations.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/commands.h"

namespace lscope::mcp {

using json = nlohmann::json;

struct ToolDef {
  std::string name;
  std::string title;
  std::string description;
  json input_schema;
  json output_schema;
  json annotations;
  std::string command;  // engine command it runs; empty for `run`
};

// Every tool, in catalog order.
const std::vector<ToolDef>& toolCatalog();
const ToolDef* findTool(const std::string& name);

// The tool as a tools/list entry for the negotiated protocol version (title, annotations and
// outputSchema appear only in versions that define them).
json toolJson(const ToolDef& tool, const std::string& protocol_version);

// The JSON Schema (2020-12) of a command's parameters.
json inputSchemaFor(const CommandSpec& spec);

}  // namespace lscope::mcp
