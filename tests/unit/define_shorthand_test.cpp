// The define shorthand (intent-engine.md §7.1–7.3): every form translates to the full format,
// loads, and exports to YAML that loads back to the same definition.
#include <doctest/doctest.h>

#include "engine/define_shorthand.h"
#include "engine/intent_loader.h"

using namespace lscope;
using json = nlohmann::json;

namespace {

// Expands, loads, exports and loads again; returns the expanded document.
json roundTrip(const std::string& text) {
  REQUIRE(isShorthandDefinition(text));
  auto full = expandShorthand(text);
  INFO(full.status().toString());
  REQUIRE(full.ok());
  auto def = parseIntent(full->dump(), "definition", {});
  INFO(full->dump(2) << "\n" << def.status().toString());
  REQUIRE(def.ok());
  std::string yaml = definitionYaml(def->document);
  CHECK_FALSE(isShorthandDefinition(yaml));
  auto again = parseIntent(yaml, "exported", {});
  INFO(yaml << "\n" << again.status().toString());
  REQUIRE(again.ok());
  CHECK(again->document == def->document);
  return *full;
}

}  // namespace

TEST_CASE("§7.1: fallbacks with or, a wait on a written condition, success as a list") {
  json d = roundTrip(
      "define add_to_wishlist:\n"
      "  description: \"Add current product to wishlist\"\n"
      "  steps:\n"
      "    - click \"Add to Wishlist\" or click \"♡\" or click \"Save for later\"\n"
      "    - wait visible { text_contains: [added, saved, wishlist] }\n"
      "  success:\n"
      "    - text_contains: [added, saved, wishlist]\n");
  CHECK(d["intent"] == "add_to_wishlist");
  CHECK(d["description"] == "Add current product to wishlist");
  const json& first = d["steps"][0];
  CHECK(first["try"]["steps"][0] == json({{"action", "click"}, {"target", {{"text", "Add to Wishlist"}}}}));
  const json& second = first["try"]["catch"][0];
  CHECK(second["try"]["steps"][0]["target"]["text"] == "♡");
  CHECK(second["try"]["catch"][0] == json({{"action", "click"}, {"target", {{"text", "Save for later"}}}}));
  CHECK(d["steps"][1] == json({{"action", "wait"}, {"condition", {{"text_contains", {"added", "saved", "wishlist"}}}}}));
  CHECK(d["success"]["conditions"][0]["text_contains"][1] == "saved");
}

TEST_CASE("§7.2: implicit wait, type and fill shortcuts, target-only alternatives") {
  json d = roundTrip(
      "checkout_quick:\n"
      "  steps:\n"
      "    - wait visible toast\n"
      "    - type email \"user@test.com\"\n"
      "    - fill name=\"John\" email=\"john@test.com\"\n"
      "    - click \"Checkout\" or \"Buy now\"\n"
      "    - select \"Country\" \"France\"\n"
      "    - press Enter\n"
      "    - wait url \"/done\" --timeout 10s\n");
  const json& s = d["steps"];
  CHECK(s[0] == json({{"action", "wait"}, {"condition", {{"visible", {{"text", "toast"}}}}}}));
  CHECK(s[1] == json({{"action", "type"}, {"target", {{"role", "email"}}}, {"text", "user@test.com"}}));
  CHECK(s[2] == json({{"action", "fill_form"}, {"data", {{"name", "John"}, {"email", "john@test.com"}}}}));
  CHECK(s[3]["try"]["catch"][0]["target"]["text"] == "Buy now");
  CHECK(s[4] == json({{"action", "select"}, {"target", {{"text", "Country"}}}, {"value", "France"}}));
  CHECK(s[5] == json({{"action", "press"}, {"key", "Enter"}}));
  CHECK(s[6]["condition"] == json({{"url_contains", "/done"}}));
  CHECK(s[6]["timeout"] == "10000ms");
}

TEST_CASE("§7.3: parameters as `name: type, required` and $references in steps") {
  json d = roundTrip(
      "review_product:\n"
      "  parameters:\n"
      "    - rating: number, required\n"
      "    - text: string, required\n"
      "    - title: string, default Great\n"
      "  steps:\n"
      "    - click \"Write a review\"\n"
      "    - click \"Star $rating\"\n"
      "    - type \"Review\" $text\n"
      "    - click \"Submit\"\n"
      "  success:\n"
      "    - text_contains: \"review submitted\"\n");
  CHECK(d["parameters"][0] == json({{"name", "rating"}, {"type", "number"}, {"required", true}}));
  CHECK(d["parameters"][2]["default"] == "Great");
  CHECK(d["steps"][2]["text"] == "$text");
}

TEST_CASE("full definitions are not shorthand; a bad step names its number, line and column") {
  CHECK_FALSE(isShorthandDefinition("intent: x\nversion: 1\nsteps:\n  - action: click\n"));
  CHECK_FALSE(isShorthandDefinition("{\"intent\": \"x\"}"));
  auto bad = expandShorthand("broken:\n  steps:\n    - click \"Ok\"\n    - clik \"Nope\"\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == "DEFINITION_INVALID");
  INFO(bad.status().message());
  CHECK(bad.status().message().find("definition:4:7: step 2: ") == 0);
  CHECK(bad.status().message().find("unknown command 'clik'") != std::string::npos);
  auto not_a_step = expandShorthand("reader:\n  steps:\n    - text\n");
  REQUIRE_FALSE(not_a_step.ok());
  CHECK(not_a_step.status().message().find("step 1: 'text' is not a step") != std::string::npos);
  // Twenty digits of pixels do not fit an integer: the loader names the amount, nothing throws.
  auto huge = expandShorthand("far:\n  steps:\n    - scroll down 99999999999999999999\n");
  REQUIRE(huge.ok());
  auto def = parseIntent(huge->dump(), "definition", {});
  REQUIRE_FALSE(def.ok());
  CHECK(def.status().message().find("scroll amount \"99999999999999999999\" (pixels or \"page\")") != std::string::npos);
}

TEST_CASE("a full definition that opens with a key of its own is not shorthand") {
  CHECK_FALSE(isShorthandDefinition("steps:\n  - action: click\n    target: { text: Ok }\nintent: x\nversion: 1\n"));
  CHECK(isShorthandDefinition("# a comment first\nmy_intent:\n  steps:\n    - click \"Ok\"\n"));
}
