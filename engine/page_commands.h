// The atomic commands that work on the page (intent-language.md "Command Categories"): a table
// of free functions, one per command, each a thin front end to the Page (engine/page.h).
#pragma once

#include <functional>
#include <string>

#include "engine/oil.h"
#include "engine/page.h"
#include "engine/response.h"

namespace lscope {

// What a page command may use besides the page.
struct CommandEnv {
  Page& page;
  size_t observe_max = 150;  // elements an observation lists
  // `# available intents` and `# suggested` for an observation (§6); may be unset.
  std::function<void(const PageScan&, Response&)> availability;
};

using PageCommandFn = Response (*)(CommandEnv& env, const Command& c);

// The handler of a page command by its canonical name; nullptr for commands that are not about
// the page (intents, define, config ...).
PageCommandFn findPageCommand(const std::string& name);

}  // namespace lscope
