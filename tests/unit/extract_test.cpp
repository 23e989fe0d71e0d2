// extract's formatting (engine/extract.cpp): aligned tables, links one a line, the budget and the
// way to the next page, masked sensitive values.
#include <doctest/doctest.h>

#include "engine/extract.h"

using namespace lscope;

TEST_CASE("a table is aligned text and row objects keyed by its header") {
  json data = json::parse(R"({"kind":"tables","scope":"the page","total":1,"offset":0,"tables":[
    {"index":1,"name":"Sales","columns":["Region","Q1"],"total_rows":3,"offset":0,
     "rows":[{"Region":"North","Q1":"1200"},{"Region":"South-east","Q1":"80"},{"Region":"West","Q1":"7"}]}]})");
  ExtractFormat f;
  f.again = "extract tables";
  Response r = extractResponse(data, f);
  std::string text = formatResponse(r);
  CHECK(text ==
        "ok extract 1 table in the page\n"
        "\n"
        "# table 1 \"Sales\" (2 columns, 3 rows)\n"
        "Region     | Q1\n"
        "North      | 1200\n"
        "South-east | 80\n"
        "West       | 7\n");
  CHECK(r.data["tables"][0]["rows"][1]["Region"] == "South-east");
  CHECK(r.data["tables"][0]["more"] == 0);
}

TEST_CASE("past the budget the rest is counted and the next page named") {
  json rows = json::array();
  for (int i = 0; i < 50; ++i) rows.push_back({{"n", std::to_string(i)}, {"word", std::string(30, 'x')}});
  json data = {{"kind", "tables"}, {"scope", "table#big"}, {"total", 1},
               {"tables", json::array({{{"index", 1}, {"name", ""}, {"columns", {"n", "word"}},
                                        {"total_rows", 10000}, {"offset", 100}, {"rows", rows}}})}};
  ExtractFormat f;
  f.again = "extract tables";
  f.budget_chars = 400;
  Response r = extractResponse(data, f);
  auto shown = r.data["tables"][0]["rows"].size();
  CHECK(shown > 0);
  CHECK(shown < 50);
  std::string text = formatResponse(r);
  CHECK(text.size() < 700);
  std::string next = "extract tables --table 1 --offset " + std::to_string(100 + shown);
  CHECK(text.find(next) != std::string::npos);
  CHECK(r.data["tables"][0]["more"] == 10000 - 100 - static_cast<long long>(shown));
}

TEST_CASE("links one a line, same-origin ones by their path; paging says what follows") {
  json data = json::parse(R"({"kind":"links","scope":"nav","total":3,"offset":0,"items":[
    {"text":"Docs","href":"http://127.0.0.1:8080/docs"},{"text":"Elsewhere","href":"https://example.org/a"}]})");
  ExtractFormat f;
  f.again = "extract links within css(nav) --max 2";
  f.page_url = "http://127.0.0.1:8080/index.html";
  Response r = extractResponse(data, f);
  CHECK(formatResponse(r) ==
        "ok extract 3 links in nav (1–2)\n"
        "\n"
        "Docs → /docs\n"
        "Elsewhere → https://example.org/a\n"
        "\n"
        "# more\n"
        "1 more: extract links within css(nav) --max 2 --offset 2\n");
  CHECK(r.data["items"][0]["href"] == "http://127.0.0.1:8080/docs");
  CHECK(r.data["next"] == "extract links within css(nav) --max 2 --offset 2");
}

TEST_CASE("meta is name -> content; sensitive form values are masked") {
  json meta = json::parse(R"({"kind":"meta","scope":"the document","total":2,"offset":0,"items":[
    {"name":"title","content":"Home"},{"name":"description","content":"A page"}]})");
  Response m = extractResponse(meta, {});
  CHECK(m.data["meta"]["description"] == "A page");
  json forms = json::parse(R"({"kind":"forms","scope":"the page","total":1,"offset":0,"items":[
    {"name":"Pay","action":"http://h/pay","method":"post","buttons":["Pay now"],"fields":[
      {"label":"Card number","type":"input/text","name":"cc","value":"4111111111111111"},
      {"label":"Name on card","type":"input/text","name":"holder","value":"Ada"}]}]})");
  Response r = extractResponse(forms, {});
  std::string text = formatResponse(r);
  CHECK(text.find("4111") == std::string::npos);
  CHECK(r.data.dump().find("4111") == std::string::npos);
  CHECK(text.find("Name on card (input/text) = \"Ada\"") != std::string::npos);
  CHECK(text.find("buttons: \"Pay now\"") != std::string::npos);
}

TEST_CASE("secrets are masked in section titles, and in every log line once any session saw them") {
  const std::string mask = "••••••••";
  Response r = okResponse("extract");
  r.add("form 1 \"billing\" get /a?password=hunter22&k=x", "Card (input) = \"\"");
  scrubSecrets(r, {"hunter22"});
  CHECK(formatResponse(r).find("hunter22") == std::string::npos);
  CHECK(formatResponse(r).find("password=" + mask) != std::string::npos);

  CHECK(scrubLog("cog: <http://h/?pw=s3cr%2Fet%26> Loading") == "cog: <http://h/?pw=s3cr%2Fet%26> Loading");
  addLogSecret("s3cr/et&");
  addLogSecret("ab");  // too short to mask anywhere
  CHECK(scrubLog("cog: <http://h/?pw=s3cr%2Fet%26> Loading") == "cog: <http://h/?pw=" + mask + "> Loading");
  CHECK(scrubLog("raw s3cr/et& and ab") == "raw " + mask + " and ab");
}

TEST_CASE("a short secret is masked where it stands alone, not inside a longer number") {
  const std::string mask = "••••••••";
  // A card's CVC: masked as the field's value, not in a phone number typed after it.
  CHECK(scrubText("CVC = \"123\"", {"123"}) == "CVC = \"" + mask + "\"");
  CHECK(scrubText("Phone = \"2015550123\"", {"123"}) == "Phone = \"2015550123\"");
  CHECK(scrubText("pin:123;", {"123"}) == "pin:" + mask + ";");
  // Beside letters it is still masked; inside a word of its own kind it is not.
  CHECK(scrubText("cvc123", {"123"}) == "cvc" + mask);
  CHECK(scrubText("PIN ab12x", {"ab1"}) == "PIN ab12x");
  // Longer secrets are masked anywhere (a password inside a URL or a sentence).
  CHECK(scrubText("x=hunter22y", {"hunter22"}) == "x=" + mask + "y");
}
