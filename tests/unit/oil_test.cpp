// OIL parser: the forgiving variants of intent-language.md, and malformed input.
#include <doctest/doctest.h>

#include "engine/oil.h"

using lscope::Command;
using lscope::parseLine;
using lscope::TargetSpec;
using lscope::TextMatch;
using Kind = lscope::TargetSpec::Kind;

namespace {

Command parseOk(const std::string& line) {
  auto r = parseLine(line);
  INFO("line: " << line << " -> " << r.status().toString() << " / " << r.status().hint());
  REQUIRE(r.ok());
  REQUIRE(r->has_value());
  return **r;
}

lscope::Status parseErr(const std::string& line) {
  auto r = parseLine(line);
  INFO("line: " << line);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == "SYNTAX_ERROR");
  return r.status();
}

}  // namespace

TEST_CASE("commands are case-insensitive") {
  for (const char* line : {"click 5", "CLICK 5", "Click 5", "  cLiCk   5  "}) {
    Command c = parseOk(line);
    CHECK(c.name == "click");
    REQUIRE(c.target);
    CHECK(c.target->kind == Kind::kId);
    CHECK(c.target->id == 5);
  }
}

TEST_CASE("text targets take double, single or no quotes") {
  for (const char* line : {"click \"Sign in\"", "click 'Sign in'", "click Sign in"}) {
    Command c = parseOk(line);
    REQUIRE(c.target);
    CHECK(c.target->value == "Sign in");
    CHECK((c.target->kind == Kind::kText || c.target->kind == Kind::kWord));
  }
}

TEST_CASE("roles, selectors and observation ids are targets") {
  CHECK(parseOk("type email \"user@test.com\"").target->kind == Kind::kRole);
  CHECK(parseOk("type email \"user@test.com\"").args["text"] == "user@test.com");
  CHECK(parseOk("type email user@test.com").args["text"] == "user@test.com");
  CHECK(parseOk("click submit").target->value == "submit");
  CHECK(parseOk("type phone 555").target->value == "tel");
  Command css = parseOk("click css(\".btn-primary\")");
  CHECK(css.target->kind == Kind::kCss);
  CHECK(css.target->value == ".btn-primary");
  Command css2 = parseOk("click css(form > button[type=submit])");
  CHECK(css2.target->value == "form > button[type=submit]");
  Command xp = parseOk("click xpath(//button[text()='Go'])");
  CHECK(xp.target->kind == Kind::kXpath);
  CHECK(xp.target->value == "//button[text()='Go']");
  CHECK(parseOk("click [7]").target->id == 7);
}

TEST_CASE("relations: near, inside, after, before") {
  Command c = parseOk("click \"Edit\" near \"Item 1\"");
  REQUIRE(c.target->anchor);
  CHECK(c.target->value == "Edit");
  CHECK(c.target->relation == "near");
  CHECK(c.target->anchor->value == "Item 1");
  CHECK(parseOk("click Delete inside css(.row-3)").target->relation == "inside");
  CHECK(parseOk("click Delete inside css(.row-3)").target->anchor->kind == Kind::kCss);
  CHECK(parseOk("click \"Next\" after 4").target->anchor->id == 4);
  CHECK(parseOk("click 'x' before \"Footer\"").target->relation == "before");
}

TEST_CASE("match modes: exact, contains, regex") {
  CHECK(parseOk("click exact \"Sign in\"").target->match == TextMatch::kExact);
  CHECK(parseOk("click contains Sign").target->match == TextMatch::kContains);
  Command re = parseOk("click /sign.*in/i");
  CHECK(re.target->match == TextMatch::kRegex);
  CHECK(re.target->value == "(?i)sign.*in");
}

TEST_CASE("options, with and without values, anywhere on the line") {
  Command t = parseOk("type 1 \"hello\" --enter");
  CHECK(t.args["enter"] == true);
  CHECK(t.args["text"] == "hello");
  CHECK(parseOk("type --enter 1 hello").args["enter"] == true);
  CHECK(parseOk("click 5 --double").args["double"] == true);
  CHECK(parseOk("click 5 --right").args["right"] == true);
  Command o = parseOk("observe --near \"Login\" --max 20");
  CHECK(o.args["near"] == "Login");
  CHECK(o.args["max"] == 20);
  CHECK(parseOk("wait visible \"Success\" --timeout 5s").args["timeout"] == 5000);
  CHECK(parseOk("wait visible \"Success\" --timeout=500ms").args["timeout"] == 500);
}

TEST_CASE("every command category parses") {
  CHECK(parseOk("goto github.com").args["url"] == "github.com");
  CHECK(parseOk("back").name == "back");
  CHECK(parseOk("forward").name == "forward");
  CHECK(parseOk("reload").name == "refresh");
  CHECK(parseOk("url").name == "url");
  CHECK(parseOk("observe --full").args["full"] == true);
  CHECK(parseOk("text").name == "text");
  CHECK(parseOk("title").name == "title");
  CHECK(parseOk("screenshot").name == "screenshot");
  CHECK(parseOk("clear 1").target->id == 1);
  CHECK(parseOk("press Enter").args["key"] == "Enter");
  CHECK(parseOk("press Control+A").args["key"] == "Control+A");
  Command sel = parseOk("select 3 \"Option 1\"");
  CHECK(sel.target->id == 3);
  CHECK(sel.args["option"] == "Option 1");
  CHECK(parseOk("check 5").name == "check");
  CHECK(parseOk("uncheck \"Remember me\"").target->value == "Remember me");
  CHECK(parseOk("hover 3").name == "hover");
  CHECK(parseOk("focus 1").name == "focus");
  Command sc = parseOk("scroll down 500");
  CHECK(sc.args["direction"] == "down");
  CHECK(sc.args["amount"] == "500");
  CHECK(parseOk("scroll").name == "scroll");
  CHECK(parseOk("wait load").args["condition"] == "load");
  CHECK(parseOk("wait idle").args["condition"] == "idle");
  CHECK(parseOk("wait hidden \"Loading\"").target->value == "Loading");
  CHECK(parseOk("wait url \"/dashboard\"").target->value == "/dashboard");
}

TEST_CASE("drag takes two targets: the second kept as written, with or without `to`") {
  Command d = parseOk("drag \"Fix login\" to \"Done\"");
  CHECK(d.name == "drag");
  CHECK(d.target->value == "Fix login");
  CHECK(d.args["to"] == "\"Done\"");
  Command ids = parseOk("drag 3 5");
  CHECK(ids.target->id == 3);
  CHECK(ids.args["to"] == "5");
  Command rel = parseOk("drag \"Edit\" near \"Row 1\" to \"Archive\" near \"Folders\"");
  CHECK(rel.target->relation == "near");
  CHECK(rel.args["to"] == "\"Archive\" near \"Folders\"");
  auto to = lscope::parseTarget(rel.args["to"].get<std::string>());
  REQUIRE(to.ok());
  CHECK(to->value == "Archive");
  CHECK(to->anchor->value == "Folders");
  CHECK(parseOk("drag 2 --to \"Done\"").args["to"] == "\"Done\"");
  CHECK(parseOk("move \"Naima\" to \"So What\"").name == "drag");
  CHECK(parseErr("drag \"Fix login\"").message().find("drag needs <to>") != std::string::npos);
  CHECK(parseErr("drag \"Fix login\" to").message().find("needs a target") != std::string::npos);
  auto args = lscope::commandFromArgs("drag", {{"target", "Eggs"}, {"to", 7}});
  REQUIRE(args.ok());
  CHECK(args->args["to"] == "[7]");
  Command words = parseOk("drag Fix login to Done column");
  CHECK(words.target->value == "Fix login");
  CHECK(words.args["to"] == "Done column");
  auto bad = lscope::commandFromArgs("drag", {{"target", "Eggs"}, {"to", "css(.x"}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message().find("'to':") == 0);
  auto none = lscope::commandFromArgs("drag", {{"target", "Eggs"}});
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().code() == "PARAMETER_MISSING");
}

TEST_CASE("comments and blank lines are skipped") {
  for (const char* line : {"", "   ", "# a comment", "  # indented comment"}) {
    auto r = parseLine(line);
    REQUIRE(r.ok());
    CHECK_FALSE(r->has_value());
  }
  Command c = parseOk("type email \"user@test.com\"      # By role");
  CHECK(c.args["text"] == "user@test.com");
}

TEST_CASE("quotes keep escapes and inner quotes") {
  CHECK(parseOk("type 1 \"say \\\"hi\\\"\"").args["text"] == "say \"hi\"");
  CHECK(parseOk("type 1 'it''s'").args["text"] == "it s");
  CHECK(parseOk("type 1 \"it's\"").args["text"] == "it's");
}

TEST_CASE("malformed input names the column and suggests a valid form") {
  auto unknown = parseErr("clik 5");
  CHECK(unknown.message().find("unknown command 'clik'") != std::string::npos);
  CHECK(unknown.message().find("column 1") != std::string::npos);
  CHECK(unknown.hint().find("click <target>") != std::string::npos);

  auto quote = parseErr("click \"Sign in");
  CHECK(quote.message().find("unterminated") != std::string::npos);
  CHECK(quote.message().find("column 7") != std::string::npos);
  CHECK(quote.hint() == "did you mean: click \"Sign in\"");

  auto missing = parseErr("type email");
  CHECK(missing.message().find("type needs <text>") != std::string::npos);
  CHECK(missing.hint().find("type <target> <text>") != std::string::npos);

  auto option = parseErr("click 5 --dubble");
  CHECK(option.message().find("unknown option --dubble") != std::string::npos);
  CHECK(option.message().find("column 9") != std::string::npos);
  CHECK(option.hint().find("--double") != std::string::npos);

  auto extra = parseErr("back 5");
  CHECK(extra.message().find("unexpected '5'") != std::string::npos);
  CHECK(extra.message().find("column 6") != std::string::npos);

  auto dir = parseErr("scroll sideways 5");
  CHECK(dir.message().find("column 8") != std::string::npos);
  CHECK(parseErr("wait forever").message().find("condition must be one of") != std::string::npos);
  CHECK(parseErr("observe --max ten").message().find("max must be a number") != std::string::npos);
  CHECK(parseErr("click css(.btn").message().find("missing ')'") != std::string::npos);
  CHECK(parseErr("click \"a\" near").message().find("needs a target") != std::string::npos);
  CHECK(parseErr("\"click\" 5").message().find("starts with a command") != std::string::npos);
  CHECK(parseErr("click --double").message().find("click needs <target>") != std::string::npos);
}

TEST_CASE("MCP arguments go through the same rules") {
  auto c = lscope::commandFromArgs("type", {{"target", "email"}, {"text", "a@b.c"}, {"enter", true}});
  REQUIRE(c.ok());
  CHECK(c->target->kind == Kind::kRole);
  CHECK(c->args["enter"] == true);
  auto id = lscope::commandFromArgs("click", {{"target", 4}});
  REQUIRE(id.ok());
  CHECK(id->target->id == 4);
  auto text = lscope::commandFromArgs("click", {{"target", "Sign in"}});
  REQUIRE(text.ok());
  CHECK(text->target->value == "Sign in");

  auto wrong = lscope::commandFromArgs("click", {{"target", 4}, {"double", "yes"}});
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.status().message() == "'double' must be true or false");
  auto unknown = lscope::commandFromArgs("click", {{"tagret", 4}});
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().message().find("unknown parameter 'tagret'") != std::string::npos);
  auto missing = lscope::commandFromArgs("type", {{"target", 1}});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().code() == "PARAMETER_MISSING");
  auto choice = lscope::commandFromArgs("wait", {{"condition", "forever"}});
  REQUIRE_FALSE(choice.ok());
  CHECK(choice.status().message().find("one of load") != std::string::npos);
}

TEST_CASE("extract: a kind, then the part of the page, with or without 'within'") {
  Command links = parseOk("extract links");
  CHECK(links.name == "extract");
  CHECK(links.args["kind"] == "links");
  CHECK_FALSE(links.target);
  Command within = parseOk("extract links within css(nav.footer)");
  REQUIRE(within.target);
  CHECK(within.target->kind == Kind::kCss);
  CHECK(within.target->value == "nav.footer");
  Command bare = parseOk("extract tables \"Quarterly sales\" --max 5 --offset 10 --table 2");
  REQUIRE(bare.target);
  CHECK(bare.target->value == "Quarterly sales");
  CHECK(bare.args["max"] == 5);
  CHECK(bare.args["offset"] == 10);
  CHECK(bare.args["table"] == 2);
  Command list = parseOk("extract list \"First result\"");
  CHECK(list.args["kind"] == "list");
  CHECK(list.target->value == "First result");
  // "within" is a lead word only where a target follows; a text "within" stays text.
  CHECK(parseOk("extract text within \"within\"").target->value == "within");
  auto dangling = parseErr("extract links within");
  CHECK(dangling.message().find("needs a target") != std::string::npos);
  auto kind = parseErr("extract pictures");
  CHECK(kind.hint().find("extract text|links|tables") != std::string::npos);
}

TEST_CASE("key=value pairs: quotes around a value are not part of it") {
  Command c = parseOk("intent fill_form name=\"John Smith\" email='j@x.com' city=Paris");
  CHECK(c.args["params"]["name"] == "John Smith");
  CHECK(c.args["params"]["email"] == "j@x.com");
  CHECK(c.args["params"]["city"] == "Paris");
}

TEST_CASE("--option=\"a value with spaces\"") {
  CHECK(parseOk("observe --near=\"Sign in page\"").args["near"] == "Sign in page");
  CHECK(parseOk("observe --near \"Sign in page\"").args["near"] == "Sign in page");
}

TEST_CASE("a whole-number option refuses fractions and numbers past 2^53 (fuzz_oil: 3e113 overflowed)") {
  CHECK(parseOk("observe --max 40").args["max"] == 40);
  CHECK(parseOk("observe --max 4e1").args["max"] == 40);
  CHECK(parseErr("observe --max 2.5").message().find("max must be a whole number, got '2.5'") != std::string::npos);
  CHECK(parseErr("observe --max " + std::string(120, '3')).message().find("must be a whole number") != std::string::npos);
  CHECK(parseErr("observe --max inf").message().find("must be a number") != std::string::npos);
}

TEST_CASE("a duration is one number and a unit, at most a day (fuzz_oil: --timeout 2.9e36 overflowed)") {
  CHECK(parseOk("wait visible \"Done\" --timeout 1.5s").args["timeout"] == 1500);
  CHECK(parseOk("wait visible \"Done\" --timeout 2m").args["timeout"] == 120000);
  CHECK(parseOk("wait visible \"Done\" --timeout 86400s").args["timeout"] == 86400000);
  for (const std::string& bad : std::vector<std::string>{"1.2.3s", ".s", "86401s", std::string(40, '2') + "...0", "5h"}) {
    CAPTURE(bad);
    CHECK(parseErr("click \"OK\" --timeout " + bad).message().find("must be a duration like 10s or 500ms, at most a day") !=
          std::string::npos);
  }
}

TEST_CASE("select takes a list of options for a multiple select; other text parameters stay text") {
  Command both = parseOk("select \"Permissions\" [\"Read\", \"Write\"]");
  REQUIRE(both.args["option"].is_array());
  CHECK(both.args["option"] == lscope::json::array({"Read", "Write"}));
  Command one = parseOk("select \"Country\" \"France\"");
  CHECK(one.args["option"] == "France");
  Command typed = parseOk("type \"Notes\" [\"a\"]");
  CHECK(typed.args["text"] == "[\"a\"]");  // typed as written
  auto mcp = lscope::commandFromArgs("select", {{"target", "Permissions"}, {"option", {"Read", "Write"}}});
  REQUIRE(mcp.ok());
  CHECK(mcp->args["option"].size() == 2);
  auto mixed = lscope::commandFromArgs("select", {{"target", "Permissions"}, {"option", {"Read", 2}}});
  REQUIRE_FALSE(mixed.ok());
  CHECK(mixed.status().message().find("a string or a list of strings") != std::string::npos);
  auto text = lscope::commandFromArgs("type", {{"target", "Notes"}, {"text", {"a"}}});
  REQUIRE_FALSE(text.ok());
}
