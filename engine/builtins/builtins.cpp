// The registry of built-in intents: one row per built-in (its file has the rest).
#include "engine/builtins/builtins.h"

namespace lscope {

const std::vector<BuiltinIntent>& builtinTable() {
  static const std::vector<BuiltinIntent> kTable = {
      loginIntent(),          // login.cpp
      logoutIntent(),         // logout.cpp
      searchIntent(),         // search.cpp
      acceptCookiesIntent(),  // accept_cookies.cpp
      dismissPopupsIntent(),  // dismiss_popups.cpp
      fillFormIntent(),       // fill_form.cpp
      submitFormIntent(),     // submit_form.cpp
      scrollToIntent(),       // scroll_to.cpp
  };
  return kTable;
}

const BuiltinIntent* findBuiltin(const std::string& name) {
  for (const auto& b : builtinTable()) {
    if (b.def.name == name) return &b;
  }
  return nullptr;
}

std::vector<IntentDef> builtinIntents() {
  std::vector<IntentDef> out;
  for (const auto& b : builtinTable()) out.push_back(b.def);
  return out;
}

}  // namespace lscope
