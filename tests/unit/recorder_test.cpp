// --record (engine/recorder.h): a value typed into a sensitive field never reaches the file,
// judged as the engine judges sensitive fields everywhere else; other values become defaults.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <yaml-cpp/yaml.h>

#include "engine/recorder.h"

namespace {

using lscope::Command;
using lscope::Recorder;
using lscope::Response;
using nlohmann::json;

Response typed(json target) {
  Response r = lscope::okResponse("type", "[1]");
  r.data["target"] = std::move(target);
  return r;
}

Command type(const std::string& text) {
  Command c;
  c.name = "type";
  c.args = {{"text", text}};
  return c;
}

}  // namespace

TEST_CASE("recorder: sensitive fields by the engine's judgement, not by a word inside a label") {
  namespace fs = std::filesystem;
  fs::path file = fs::temp_directory_path() / ("lscope-recorder-" + std::to_string(::getpid()) + ".yaml");
  {
    Recorder rec(file.string());
    Command go;
    go.name = "goto";
    go.args = {{"url", "https://shop.example/checkout"}};
    rec.add(go, lscope::okResponse("goto"));
    rec.add(type("12 Elm Street"), typed({{"id", 1}, {"type", "input"}, {"role", "textbox"}, {"text", "Shipping address"}}));
    rec.add(type("Ada Lovelace"), typed({{"id", 2}, {"type", "input"}, {"role", "textbox"}, {"text", "Card holder"}}));
    rec.add(type("4111111111111111"), typed({{"id", 3}, {"type", "input"}, {"role", "textbox"}, {"text", "Number"}, {"sensitive", true}}));
    rec.add(type("hunter22"), typed({{"id", 4}, {"type", "input"}, {"role", "password"}, {"text", "Password"}}));
    rec.add(type("123"), typed({{"id", 5}, {"type", "input"}, {"role", "textbox"}, {"text", "CVV"}}));
  }
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(file);
  const std::string yaml = text.str();
  for (const char* secret : {"4111111111111111", "hunter22", "123\n"}) CHECK(yaml.find(secret) == std::string::npos);
  YAML::Node doc = YAML::Load(yaml);
  std::map<std::string, YAML::Node> params;
  for (const auto& it : doc["parameters"]) {
    YAML::Node p = it;
    params[p["name"].as<std::string>()] = p;
  }
  REQUIRE(params.size() == 5);
  CHECK(params["shipping_address"]["default"].as<std::string>() == "12 Elm Street");
  CHECK(!params["shipping_address"]["sensitive"]);
  CHECK(params["card_holder"]["default"].as<std::string>() == "Ada Lovelace");
  for (const char* name : {"number", "password", "cvv"}) {
    INFO(name);
    CHECK(params[name]["sensitive"].as<bool>());
    CHECK(!params[name]["default"]);
  }
}
