// Tool catalog generation. Descriptions stay terse: every token of tools/list is paid by the
// client's model on every turn.
#include "server/tools.h"

namespace lscope::mcp {
namespace {

json paramSchema(const ParamSpec& p) {
  json s;
  switch (p.type) {
    case ParamType::kString: s = {{"type", "string"}}; break;
    case ParamType::kInteger: s = {{"type", "integer"}}; break;
    case ParamType::kNumber: s = {{"type", "number"}}; break;
    case ParamType::kBoolean: s = {{"type", "boolean"}}; break;
    case ParamType::kTarget: s = {{"type", {"integer", "string"}}}; break;
    case ParamType::kDuration: s = {{"type", {"string", "integer"}}}; break;
    case ParamType::kObject: s = {{"type", "object"}}; break;
  }
  if (!p.choices.empty()) s["enum"] = p.choices;
  if (!p.description.empty()) s["description"] = p.description;
  return s;
}

// Every tool returns the same result shape; fields beyond `ok` depend on the command.
json outputSchema() {
  return {{"type", "object"},
          {"properties",
           {{"ok", {{"type", "boolean"}}},
            {"code", {{"type", "string"}}},
            {"url", {{"type", "string"}}},
            {"title", {{"type", "string"}}},
            {"text", {{"type", "string"}}},
            {"changes", {{"type", "object"}}},
            {"target", {{"type", "object"}}},
            {"elements", {{"type", {"array", "integer"}}}},
            {"results", {{"type", "array"}}}}},
          {"required", {"ok"}}};
}

std::vector<ToolDef> build() {
  std::vector<ToolDef> tools;
  for (const auto& c : commandTable()) {
    ToolDef t;
    t.name = c.name;
    t.title = c.title;
    t.description = c.summary;
    t.input_schema = inputSchemaFor(c);
    t.output_schema = outputSchema();
    t.annotations = {{"title", c.title},
                     {"readOnlyHint", c.read_only},
                     {"destructiveHint", c.destructive},
                     {"idempotentHint", c.idempotent},
                     {"openWorldHint", c.open_world}};
    t.command = c.name;
    tools.push_back(std::move(t));
  }
  ToolDef run;
  run.name = "run";
  run.title = "Run OIL script";
  run.description =
      "Run several OIL commands, one per line (e.g. goto x.com / type email a@b.c / click \"Sign in\"); "
      "stops at the first error. Cheapest way to do many steps.";
  run.input_schema = {{"type", "object"},
                      {"properties", {{"script", {{"type", "string"}, {"description", "OIL lines"}}}}},
                      {"required", {"script"}},
                      {"additionalProperties", false}};
  run.output_schema = outputSchema();
  run.annotations = {{"title", run.title},
                     {"readOnlyHint", false},
                     {"destructiveHint", true},
                     {"idempotentHint", false},
                     {"openWorldHint", true}};
  tools.push_back(std::move(run));
  return tools;
}

}  // namespace

json inputSchemaFor(const CommandSpec& spec) {
  json props = json::object();
  json required = json::array();
  for (const auto& p : spec.params) {
    props[p.name] = paramSchema(p);
    if (p.required) required.push_back(p.name);
  }
  json s = {{"type", "object"}, {"additionalProperties", false}};
  if (!props.empty()) s["properties"] = props;
  if (!required.empty()) s["required"] = required;
  return s;
}

const std::vector<ToolDef>& toolCatalog() {
  static const std::vector<ToolDef> kTools = build();
  return kTools;
}

const ToolDef* findTool(const std::string& name) {
  for (const auto& t : toolCatalog()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

json toolJson(const ToolDef& tool, const std::string& protocol_version) {
  json j = {{"name", tool.name}, {"description", tool.description}, {"inputSchema", tool.input_schema}};
  // Dates compare as strings: title/outputSchema arrived in 2025-06-18, annotations in 2025-03-26.
  if (protocol_version >= "2025-06-18") {
    j["title"] = tool.title;
    j["outputSchema"] = tool.output_schema;
  }
  if (protocol_version >= "2025-03-26") j["annotations"] = tool.annotations;
  return j;
}

}  // namespace lscope::mcp
