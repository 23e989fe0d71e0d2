// The choices built-ins make like a person (issue 12 item 4): which search box, which form.
#include <doctest/doctest.h>

#include "engine/builtins/builtins.h"
#include "engine/builtins/choices.h"
#include "tests/unit/scan_builder.h"

using namespace lscope;
using lscope::testing::scanOf;

namespace {
nlohmann::json at(const char* landmark, const char* form = "", int width = 300) {
  return {{"landmark", landmark}, {"form", form}, {"rect", {{"x", 0}, {"y", 0}, {"width", width}, {"height", 30}}}};
}
}  // namespace

TEST_CASE("search: the main content's search beats a sidebar menu filter and a nav box") {
  PageScan p = scanOf("http://x.test/", "T",
                      {{"input", "search", "Search", "#side", {}, "", at("aside", "", 200)},
                       {"input", "search", "Search", "#nav", {}, "", at("nav", "f1", 180)},
                       {"input", "search", "Search invoices", "#main", {}, "", at("", "f2", 600)},
                       {"button", "submit", "Search", "#go", {}, "", at("", "f2", 80)}});
  auto boxes = rankSearchBoxes(p);
  REQUIRE(boxes.size() == 3);
  CHECK(boxes[0]->selector == "#main");
  CHECK(boxes.back()->selector == "#side");
  REQUIRE(searchButtonFor(p, *boxes[0]));
  CHECK(searchButtonFor(p, *boxes[0])->selector == "#go");
  CHECK(searchButtonFor(p, *boxes.back()) == nullptr);  // the sidebar filter has none
}

TEST_CASE("search: a box in <main> beats one in the header") {
  PageScan p = scanOf("http://x.test/", "T",
                      {{"input", "search", "Search", "#h", {}, "", at("header", "f1")},
                       {"input", "search", "Search", "#m", {}, "", at("main", "f2")}});
  CHECK(rankSearchBoxes(p)[0]->selector == "#m");
}

TEST_CASE("submit_form: the form last typed into, else the most filled, else the main one") {
  PageScan p = scanOf("http://x.test/", "T",
                      {{"input", "generic", "Promo code", "#promo", {}, "", at("aside", "promo")},
                       {"button", "submit", "Redeem", "#redeem", {}, "", at("aside", "promo")},
                       {"input", "generic", "First name", "#fn", {}, "Ada", at("main", "billing")},
                       {"input", "generic", "Last name", "#ln", {}, "Lovelace", at("main", "billing")},
                       {"button", "submit", "Continue to checkout", "#go", {}, "", at("main", "billing")}});
  BrowserState::Typed typed{"doc", p.elements[2].key, "billing"};
  FormChoice c = chooseFormToSubmit(p, typed, "doc");
  CHECK(c.group == "form billing");
  CHECK(c.why == "the form last typed into");
  // Typed on another document: the most filled form.
  c = chooseFormToSubmit(p, typed, "other");
  CHECK(c.group == "form billing");
  CHECK(c.why == "the form with the most filled fields");
  // Nothing filled: the main content's form, not the sidebar's.
  PageScan empty = scanOf("http://x.test/", "T",
                          {{"button", "submit", "Redeem", "#redeem", {}, "", at("aside", "promo")},
                           {"button", "submit", "Send", "#send", {}, "", at("main", "contact")}});
  c = chooseFormToSubmit(empty, {}, "doc");
  CHECK(c.group == "form contact");
}

TEST_CASE("the built-in registry: one row each, with a readiness rule") {
  const auto& table = builtinTable();
  std::vector<std::string> names;
  for (const auto& b : table) {
    names.push_back(b.def.name);
    CHECK((b.run != nullptr));
    CHECK((b.ready != nullptr));
    CHECK(b.def.tier == "builtin");
    CHECK(findBuiltin(b.def.name) == &b);
  }
  CHECK(names == std::vector<std::string>{"login", "logout", "search", "accept_cookies", "dismiss_popups", "fill_form",
                                          "submit_form", "scroll_to"});
  CHECK(findBuiltin("fly") == nullptr);
  PageScan login = scanOf("http://x.test/", "T", {{"input", "password", "Password", "#pw"}});
  CHECK(findBuiltin("login")->ready(login));
  CHECK_FALSE(findBuiltin("search")->ready(login));
  PageScan banner = scanOf("http://x.test/", "T", {{"button", "generic", "Accept", "#a"}},
                           {{{"name", "cookie_banner"}, {"container", "#cb"}, {"accept", 1}}});
  CHECK(findBuiltin("accept_cookies")->ready(banner));
  const BuiltinIntent* l = findBuiltin("login");
  bool has_remember = false;
  for (const auto& p : l->def.params) has_remember = has_remember || p.name == "remember";
  CHECK(has_remember);
}
