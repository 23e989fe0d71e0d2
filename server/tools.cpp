// Tool catalog generation. Every token of tools/list is paid by the client's model on every
// turn: descriptions are one line, annotations carry only non-default hints, and the default
// profile lists the commands agents use most (the others run through `run`).
#include "server/tools.h"

#include <algorithm>
#include <sstream>

namespace lscope::mcp {
namespace {

// Commands listed as tools by default (chosen so tools/list stays near 2,000 tokens). The
// rest (back, forward, refresh, url, title, clear, check, uncheck, hover, focus, screenshot,
// tabs, upload ...) are one `run` line away, or listed with --tools all.
const char* kDefaultProfile[] = {"goto", "observe", "click", "type", "select", "press",
                                 "scroll", "wait", "text", "intent", "do", "capabilities"};
// Built-in intents listed by default; logout and scroll_to are an `intent` call away.
const char* kDefaultIntents[] = {"login", "search", "accept_cookies", "dismiss_popups", "fill_form", "submit_form"};

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
    case ParamType::kArray: s = {{"type", "array"}}; break;
  }
  if (p.list_ok) s = {{"type", {"string", "array"}}, {"items", {{"type", "string"}}}};
  if (!p.choices.empty()) s["enum"] = p.choices;
  if (!p.description.empty()) s["description"] = p.description;
  return s;
}

// Every tool answers with the same envelope: ok, and on failure the error code; the other
// fields depend on the command (url, changes, target ...).
json outputSchema() {
  return {{"type", "object"}, {"properties", {{"ok", {{"type", "boolean"}}}}}, {"required", {"ok"}}};
}

// MCP ToolAnnotations defaults: readOnly false, destructive true, idempotent false,
// openWorld true. Only differences are sent.
json annotationsFor(bool read_only, bool destructive, bool idempotent, bool open_world) {
  json a = json::object();
  if (read_only) a["readOnlyHint"] = true;
  if (!read_only && !destructive) a["destructiveHint"] = false;
  if (!read_only && idempotent) a["idempotentHint"] = true;
  if (!open_world) a["openWorldHint"] = false;
  return a;
}

ToolDef toolFor(const CommandSpec& c, bool in_default) {
  ToolDef t;
  t.name = c.name;
  t.title = c.title;
  t.description = c.summary;
  t.input_schema = inputSchemaFor(c);
  t.output_schema = outputSchema();
  t.annotations = annotationsFor(c.read_only, c.destructive, c.idempotent, c.open_world);
  t.command = c.name;
  t.in_default_profile = in_default;
  return t;
}

std::vector<ToolDef> buildAll(const std::vector<std::shared_ptr<const IntentEntry>>& intents) {
  std::vector<ToolDef> tools;
  // Intents first: they do the most per call. Core (shipped YAML) intents are reached through
  // `intent` by default; built-in, user, pack and session intents are tools of their own.
  for (const auto& e : intents) {
    if (findCommand(e->def->name)) continue;  // a command of the same name wins
    // A site pack's intents are listed while the pack is loaded (on its site, §9.6).
    bool listed = e->def->tier == "user" || e->def->tier == "session" || e->def->tier == "pack" ||
                  e->def->tier == "discovered" ||
                  std::find_if(std::begin(kDefaultIntents), std::end(kDefaultIntents),
                               [&](const char* n) { return e->def->name == n; }) != std::end(kDefaultIntents);
    tools.push_back(toolFor(e->spec, listed));
  }
  for (const auto& c : commandTable()) {
    bool in_default = std::find_if(std::begin(kDefaultProfile), std::end(kDefaultProfile),
                                   [&](const char* n) { return c.name == n; }) != std::end(kDefaultProfile);
    tools.push_back(toolFor(c, in_default));
  }
  ToolDef run;
  run.name = "run";
  run.title = "Run OIL lines";
  run.description =
      "OIL lines, one command each, stop at first error: any tool (goto x.com / type email a@b.c / "
      "click \"Sign in\") and back, refresh, url, title, check, hover, screenshot, tabs, upload, intents.";
  run.input_schema = {{"type", "object"},
                      {"properties", {{"script", {{"type", "string"}}}}},
                      {"required", {"script"}},
                      {"additionalProperties", false}};
  run.output_schema = outputSchema();
  run.annotations = json::object();  // may do anything: destructive, open world
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

Result<std::shared_ptr<const ToolCatalog>> ToolCatalog::build(
    const std::string& profile, const std::vector<std::shared_ptr<const IntentEntry>>& intents) {
  auto catalog = std::make_shared<ToolCatalog>();
  catalog->all_ = buildAll(intents);
  if (profile == "all") {
    catalog->listed_ = catalog->all_;
  } else if (profile.empty() || profile == "default") {
    for (const auto& t : catalog->all_) {
      if (t.in_default_profile || t.name == "run") catalog->listed_.push_back(t);
    }
  } else {
    std::stringstream ss(profile);
    for (std::string name; std::getline(ss, name, ',');) {
      if (name.empty()) continue;
      const ToolDef* t = catalog->find(name);
      if (!t) {
        return Status(codes::kParameterInvalid, "--tools: no tool named " + name,
                      "use default, all, or names from lscope tools --tools all");
      }
      catalog->listed_.push_back(*t);
    }
  }
  return std::shared_ptr<const ToolCatalog>(std::move(catalog));
}

const ToolDef* ToolCatalog::find(const std::string& name) const {
  for (const auto& t : all_) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

json toolJson(const ToolDef& tool, const std::string& protocol_version) {
  json j = {{"name", tool.name}, {"description", tool.description}, {"inputSchema", tool.input_schema}};
  // Dates compare as strings: title and outputSchema arrived in 2025-06-18, annotations in 2025-03-26.
  if (protocol_version >= "2025-06-18") {
    j["title"] = tool.title;
    j["outputSchema"] = tool.output_schema;
  }
  if (protocol_version >= "2025-03-26" && !tool.annotations.empty()) j["annotations"] = tool.annotations;
  return j;
}

}  // namespace lscope::mcp
