// The observation text of intent-language.md, exactly.
#include <doctest/doctest.h>

#include "engine/observation.h"
#include "tests/unit/scan_builder.h"

using namespace lscope;
using lscope::testing::El;
using lscope::testing::scanOf;

TEST_CASE("a login page observes as in the spec") {
  PageScan page = scanOf(
      "https://example.com/login", "Sign In",
      {{"input", "email", "Email", "#email", {"required"}},
       {"input", "password", "Password", "#pw", {"required"}},
       {"button", "submit", "Sign In", "#go", {"primary"}},
       {"checkbox", "generic", "Remember me", "#rm", {"unchecked"}},
       {"link", "generic", "Forgot password?", "a.forgot"}},
      {{{"name", "login_form"}, {"container", "form#login"}, {"email", 1}, {"password", 2}, {"submit", 3},
        {"remember", 4}}});
  CHECK(formatObservation(page, {}) ==
        "@ example.com/login \"Sign In\"\n"
        "\n"
        "[1] input/email \"Email\" {required}\n"
        "[2] input/password \"Password\" {required}\n"
        "[3] button/submit \"Sign In\" {primary}\n"
        "[4] checkbox \"Remember me\"\n"
        "[5] link \"Forgot password?\"\n");
  auto patterns = patternLines(page);
  REQUIRE(patterns.size() == 1);
  CHECK(patterns[0] == "- login_form: email=[1] password=[2] remember=[4] submit=[3]");
}

TEST_CASE("values, checked state, frames and --full") {
  PageScan page = scanOf("http://127.0.0.1:8080/form?x=1#top", "Form",
                         {{"input", "generic", "Name", "#n", {}, "Ada"},
                          {"checkbox", "generic", "Terms", "#t", {"checked"}},
                          {"input", "password", "PIN", "#p", {}, "••••", {{"frame", "iframe#pay"}}}});
  std::string text = formatObservation(page, {});
  CHECK(text.find("@ 127.0.0.1:8080/form?x=1 \"Form\"\n") == 0);
  CHECK(text.find("[1] input \"Name\" = \"Ada\"\n") != std::string::npos);
  CHECK(text.find("[2] checkbox \"Terms\" {checked}\n") != std::string::npos);
  CHECK(text.find("[3] input/password \"PIN\" = \"••••\" (in iframe#pay)\n") != std::string::npos);
  ObserveFormat full;
  full.full = true;
  CHECK(formatObservation(page, full).find("[1] input \"Name\" = \"Ada\" css(#n) @10,20 100x18") !=
        std::string::npos);
}

TEST_CASE("long pages are capped with a visible more-line") {
  std::vector<El> els;
  for (int i = 0; i < 30; ++i) els.push_back({"link", "generic", "Item " + std::to_string(i), "#i" + std::to_string(i)});
  PageScan page = scanOf("https://www.example.com/", "List", els);
  ObserveFormat f;
  f.max = 10;
  std::string text = formatObservation(page, f);
  CHECK(text.find("@ example.com \"List\"") == 0);
  CHECK(text.find("[10] link \"Item 9\"\n") != std::string::npos);
  CHECK(text.find("[11]") == std::string::npos);
  CHECK(text.find("… 20 more (observe --near/--within)\n") != std::string::npos);
}

TEST_CASE("controls that read the same say the row they are on, as near takes it") {
  PageScan page = scanOf("https://example.com/cart", "Cart",
                         {{"button", "generic", "Remove", "#r1", {}, "", {{"context", "Trail Runner \"GTX\""}}},
                          {"input", "generic", "", "#q1", {}, "2", {{"context", "Trail Runner \"GTX\""}, {"frame", "iframe#c"}}},
                          {"button", "generic", "Checkout", "#go"}});
  std::string text = formatObservation(page, {});
  CHECK(text.find("[1] button \"Remove\" near \"Trail Runner \\\"GTX\\\"\"\n") != std::string::npos);
  CHECK(text.find("[2] input = \"2\" near \"Trail Runner \\\"GTX\\\"\" (in iframe#c)\n") != std::string::npos);
  CHECK(text.find("[3] button \"Checkout\"\n") != std::string::npos);
}

TEST_CASE("text is quoted, clipped and kept on one line") {
  Element e;
  e.id = 9;
  e.type = "button";
  e.text = "Say \"hi\"\nnow";
  CHECK(elementLine(e) == "[9] button \"Say \\\"hi\\\" now\"");
  e.text = std::string(200, 'x');
  CHECK(elementLine(e).size() < 110);
  CHECK(elementLine(e).find("…\"") != std::string::npos);
}

TEST_CASE("urls are shortened the way the spec shows them") {
  CHECK(shortUrl("https://github.com/login") == "github.com/login");
  CHECK(shortUrl("https://www.github.com/") == "github.com");
  CHECK(shortUrl("http://localhost:3000/a/b?q=1#frag") == "localhost:3000/a/b?q=1");
  CHECK(shortUrl("about:blank") == "about:blank");
  CHECK(urlPath("https://github.com/login?x=1") == "/login?x=1");
  CHECK(urlPath("https://github.com") == "/");
}
