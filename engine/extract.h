// extract (issue 13): the scanner's content data (scanner/README.md "extract") as a response.
// The text is compact (a table aligned, links one a line); structuredContent carries the data
// (tables as row objects keyed by their header cells, links as {text, href}, meta as
// name -> content). Both stop at a character budget and say how to read the rest.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/response.h"

namespace lscope {

using json = nlohmann::json;

struct ExtractFormat {
  std::string again;         // the command that read this page of results, without --offset
  std::string page_url;      // links and images on this origin are shown by their path
  size_t budget_chars = 8000;  // text of the items listed (about 2,000 o200k tokens)
};

// `data`: the scanner's extract answer. Sensitive form values are masked (intent-engine.md §13.1).
Response extractResponse(const json& data, const ExtractFormat& f);

// The display width of UTF-8 text in code points (for aligned tables).
size_t displayWidth(const std::string& utf8);

}  // namespace lscope
