// The intent loader against the shared corpus: every valid example and shipped intent loads;
// every invalid file is rejected at the JSON pointer its first line declares, the same place
// the JSON Schema (tests/schemas, ajv) rejects it.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/intent_loader.h"

using namespace lscope;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> yamlFiles(const std::string& dir, bool intents_only = true) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(std::string(LSCOPE_SOURCE_DIR) + "/" + dir)) {
    std::string name = e.path().filename().string();
    if (e.path().extension() != ".yaml") continue;
    if (intents_only && (name.find(".pack.") != std::string::npos || name.find(".patterns.") != std::string::npos)) {
      continue;
    }
    out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The shipped core intents and the valid examples, as the loader tests read them.
std::vector<fs::path> shippedAndExamples() {
  std::vector<fs::path> out;
  for (const auto& dir : {"intents/core", "tests/schemas/valid"}) {
    for (const auto& f : yamlFiles(dir)) out.push_back(f);
  }
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// An example that declares `pack: X` is read as an intent of the valid example pack X (its
// custom actions and conditions), as the pack loader reads a pack's intents.
std::map<std::string, PackRuntime> examplePacks() {
  std::map<std::string, PackRuntime> out;
  for (const auto& f : yamlFiles("tests/schemas/valid", false)) {
    if (f.filename().string().find(".pack.yaml") == std::string::npos) continue;
    auto spec = parsePack(slurp(f), f.string());
    // The example with the most custom actions stands for its name (several examples share one).
    if (spec && (!out.count(spec->name) || spec->runtime.actions.size() > out[spec->name].actions.size())) {
      out[spec->name] = spec->runtime;
    }
  }
  return out;
}

LoadOptions optionsFor(const fs::path& f, const std::map<std::string, PackRuntime>& packs) {
  LoadOptions o;
  o.trusted = true;
  std::string text = slurp(f);
  auto pos = text.find("\npack: ");
  if (pos != std::string::npos) {
    std::string name = text.substr(pos + 7, text.find('\n', pos + 7) - pos - 7);
    auto it = packs.find(name);
    if (it != packs.end()) o.pack = &it->second;
  }
  return o;
}

}  // namespace

TEST_CASE("every shipped core intent and every valid example loads") {
  auto packs = examplePacks();
  size_t n = 0;
  for (const auto& f : shippedAndExamples()) {
    auto def = loadIntentFile(f.string(), optionsFor(f, packs));
    INFO(f.string() << ": " << def.status().toString());
    CHECK(def.ok());
    ++n;
  }
  CHECK(n >= 20);
}

TEST_CASE("every invalid definition is rejected where its header says") {
  LoadOptions trusted;
  trusted.trusted = true;
  size_t n = 0;
  for (const auto& f : yamlFiles("tests/schemas/invalid")) {
    std::ifstream in(f);
    std::string header;
    std::getline(in, header);
    REQUIRE(header.rfind("# invalid: ", 0) == 0);
    std::string pointer = header.substr(11, header.find(": ", 11) - 11);
    auto def = loadIntentFile(f.string(), trusted);
    INFO(f.filename().string() << " declares " << pointer << "; loader says: " << def.status().message());
    REQUIRE_FALSE(def.ok());
    CHECK(def.status().code() == "DEFINITION_INVALID");
    CHECK(def.status().message().find(": " + pointer + ": ") != std::string::npos);
    ++n;
  }
  CHECK(n >= 70);
}

TEST_CASE("errors name file, line and column") {
  auto def = parseIntent("intent: x\nversion: 1\nsteps:\n  - action: click\n    target: {txt: Go}\n", "t.yaml", {});
  REQUIRE_FALSE(def.ok());
  CHECK(def.status().message() == "t.yaml:5:14: /steps/0/target/txt: unknown target key \"txt\"");
  auto yaml = parseIntent("intent: x\nsteps: [\n", "bad.yaml", {});
  REQUIRE_FALSE(yaml.ok());
  CHECK(yaml.status().message().rfind("bad.yaml:3:1: not valid YAML", 0) == 0);
}

TEST_CASE("an alias inside its own anchor, deep nesting and multiplying aliases are errors, not a crash") {
  // fuzz_yaml found the first after 7.5 million runs: the cycle overflowed the stack.
  auto cycle = parseIntent("intent: x\nversion: 1.0.0\nsteps:\n  - action: wait\n    condition:\n"
                           "      visible: &a { text_contains: [Sign out], target: *a }\n",
                           "cycle.yaml", {});
  REQUIRE_FALSE(cycle.ok());
  CHECK(cycle.status().message().rfind("cycle.yaml:6:", 0) == 0);
  CHECK(cycle.status().message().find("nested more than 64 levels deep") != std::string::npos);
  CHECK(cycle.status().hint().find("an anchor may not refer to itself") != std::string::npos);

  std::string deep = "intent: x\nversion: 1.0.0\nsteps: " + std::string(100, '[') + std::string(100, ']') + "\n";
  auto nested = parseIntent(deep, "deep.yaml", {});
  REQUIRE_FALSE(nested.ok());
  CHECK(nested.status().message().find("nested more than 64 levels deep") != std::string::npos);

  // Ten aliases of ten aliases ... six levels: a million values from a few lines.
  std::string laughs = "intent: x\nversion: 1.0.0\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 6; ++i) {
    std::string prev = "*a" + std::to_string(i - 1);
    laughs += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) laughs += (j ? ", " : "") + prev;
    laughs += "]\n";
  }
  auto many = parseIntent(laughs, "laughs.yaml", {});
  REQUIRE_FALSE(many.ok());
  CHECK(many.status().message().find("more than 100000 values") != std::string::npos);
  // The same nesting without the cycle still loads (the bound is far above real definitions).
  auto fine = parseIntent("intent: x\nversion: 1.0.0\nsteps:\n  - action: wait\n    condition:\n"
                          "      visible: &a { text_contains: [Sign out] }\n  - action: wait\n    condition:\n"
                          "      visible: *a\n",
                          "fine.yaml", {});
  CHECK(fine.ok());
}

TEST_CASE("execute needs a trusted source") {
  const char* text = "intent: x\nversion: 1\nsteps:\n  - action: execute\n    script: return 1\n";
  auto untrusted = parseIntent(text, "s.yaml", {});
  REQUIRE_FALSE(untrusted.ok());
  CHECK(untrusted.status().message().find("/steps/0/action: execute steps run arbitrary JavaScript") != std::string::npos);
  LoadOptions trusted;
  trusted.trusted = true;
  CHECK(parseIntent(text, "s.yaml", trusted).ok());
}

TEST_CASE("the typed definition") {
  auto def = parseIntent(R"(intent: login_example
version: 1.2.0
description: Sign in
triggers: { patterns: [login_form] }
parameters:
  - { name: username, type: string, required: true }
  - { name: password, type: string, required: true, sensitive: true }
  - { name: remember, type: boolean, default: false }
steps:
  - action: type
    target: { pattern: login_form.email, fallback: { role: email } }
    text: $username
  - branch:
      if: $remember
      then:
        - action: check
          target: { text_contains: [remember, stay signed in] }
  - checkpoint: submitted
  - loop: { over: [a, b], as: item, max: 2, steps: [{ action: observe }] }
success:
  conditions: [{ url_contains: [dashboard, home] }]
options: { timeout: 30s, retry: { max_attempts: 3, delay: 500ms, on: [target_not_found] } }
)", "l.yaml", {});
  REQUIRE(def.ok());
  CHECK(def->name == "login_example");
  CHECK(def->version == "1.2.0");
  CHECK(def->params.size() == 3);
  CHECK(def->param("password")->sensitive);
  CHECK(def->param("remember")->default_value == false);
  REQUIRE(def->steps.size() == 4);
  CHECK(def->steps[0].target->kind == TargetDef::Kind::kPattern);
  CHECK(def->steps[0].target->fallback->kind == TargetDef::Kind::kRole);
  CHECK(def->steps[0].args["text"] == "$username");
  CHECK(def->steps[1].kind == StepDef::Kind::kBranch);
  CHECK(def->steps[1].condition->kind == ConditionDef::Kind::kRef);
  CHECK(def->steps[3].loop_max == 2);
  CHECK(def->checkpoints() == std::vector<std::string>{"submitted"});
  CHECK(def->timeout_ms == 30000);
  CHECK(def->retry.max_attempts == 3);
  CHECK(def->retry.delay_ms == 500);
  CHECK(def->success.size() == 1);
}

TEST_CASE("export: every shipped and example definition written as YAML loads back the same") {
  auto packs = examplePacks();
  size_t n = 0;
  for (const auto& f : shippedAndExamples()) {
    LoadOptions options = optionsFor(f, packs);
    auto def = loadIntentFile(f.string(), options);
    REQUIRE(def.ok());
    std::string yaml = definitionYaml(def->document);
    auto again = parseIntent(yaml, "exported", options);
    INFO(f.string() << " ->\n" << yaml << "\n" << again.status().toString());
    REQUIRE(again.ok());
    CHECK(again->document == def->document);
    CHECK(again->steps.size() == def->steps.size());
    ++n;
  }
  CHECK(n >= 20);
}

TEST_CASE("export: strings a plain scalar would misread stay strings") {
  std::string text = R"({"intent": "tricky", "version": "1", "description": "true",
    "parameters": [{"name": "code", "type": "string", "default": "007"}],
    "steps": [{"action": "type", "target": {"text": "null"}, "text": "$code"},
              {"action": "click", "target": {"text": "a: b # c"}},
              {"action": "click", "target": {"text": "- item"}}]})";
  auto def = parseIntent(text, "tricky", {});
  REQUIRE(def.ok());
  std::string yaml = definitionYaml(def->document);
  auto again = parseIntent(yaml, "exported", {});
  INFO(yaml << "\n" << again.status().toString());
  REQUIRE(again.ok());
  CHECK(again->document == def->document);
  CHECK(again->version == "1");
  CHECK(again->description == "true");
  CHECK(yaml.find('{') == std::string::npos);  // YAML, not the JSON it came from
}

TEST_CASE("every valid pack.yaml and patterns.yaml example loads") {
  size_t n = 0;
  for (const auto& f : yamlFiles("tests/schemas/valid", false)) {
    std::string name = f.filename().string();
    bool pack = name.find(".pack.yaml") != std::string::npos;
    bool patterns = name.find(".patterns.yaml") != std::string::npos;
    if (!pack && !patterns) continue;
    Status st = pack ? parsePack(slurp(f), f.string()).status() : parsePatterns(slurp(f), f.string()).status();
    INFO(name << ": " << st.toString());
    CHECK(st.isOk());
    ++n;
  }
  CHECK(n >= 6);
}

TEST_CASE("every invalid pack.yaml and patterns.yaml is rejected where its header says") {
  size_t n = 0;
  for (const auto& f : yamlFiles("tests/schemas/invalid", false)) {
    std::string name = f.filename().string();
    bool pack = name.find(".pack.yaml") != std::string::npos;
    bool patterns = name.find(".patterns.yaml") != std::string::npos;
    if (!pack && !patterns) continue;
    std::ifstream in(f);
    std::string header;
    std::getline(in, header);
    REQUIRE(header.rfind("# invalid: ", 0) == 0);
    std::string pointer = header.substr(11, header.find(": ", 11) - 11);
    Status st = pack ? parsePack(slurp(f), f.string()).status() : parsePatterns(slurp(f), f.string()).status();
    INFO(name << " declares " << pointer << "; loader says: " << st.message());
    REQUIRE_FALSE(st.isOk());
    CHECK(st.code() == "PACK_LOAD_FAILED");
    CHECK(st.message().find(": " + pointer + ": ") != std::string::npos);
    // file:line:column first
    CHECK(st.message().rfind(f.string() + ":", 0) == 0);
    ++n;
  }
  CHECK(n >= 20);
}

TEST_CASE("a file that is not UTF-8 is refused with its line, never thrown out of the loader") {
  // Found by fuzz/yaml_fuzz.cpp: a value with invalid UTF-8 made an error message's json::dump
  // throw. Now the text is checked first.
  std::string text = "name: greet\ndescription: \"caf\xe9\"\nsteps:\n  - action: observe\n";
  auto def = parseIntent(text, "greet.yaml", LoadOptions{});
  REQUIRE_FALSE(static_cast<bool>(def));
  CHECK(def.status().message().find("greet.yaml:2: not UTF-8 text") != std::string::npos);
  auto pack = parsePack("name: x\xed\xa0\x80\n", "pack.yaml");  // a UTF-16 surrogate, encoded
  REQUIRE_FALSE(static_cast<bool>(pack));
  CHECK(pack.status().message().find("pack.yaml:1: not UTF-8 text") != std::string::npos);
  CHECK(static_cast<bool>(parsePatterns("patterns: []\n# caf\xc3\xa9 \xf0\x9f\x8d\xaa\n", "patterns.yaml")) ==
        static_cast<bool>(parsePatterns("patterns: []\n", "patterns.yaml")));
}
