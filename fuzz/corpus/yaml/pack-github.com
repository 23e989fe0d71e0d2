# yaml-language-server: $schema=../../schemas/pack-v1.json
# GitHub (intent-engine.md §9): sign in, search repositories, open the new-issue form, file an
# issue. Selectors are GitHub's own ids and names (login_field, issue_title, the Issues tab).
pack: github.com
version: 1.0.0
description: "GitHub: sign in, search repositories, open an issue form, create an issue"
author: lemmascope
license: MIT
domains: [github.com, www.github.com]
requires:
  lemmascope: ">=1.0.0"
patterns: [patterns.yaml]
intents: ["intents/*.yaml"]
auto_load:
  - "https://github.com/*"
  - "https://www.github.com/*"
custom_conditions:
  signed_in:
    description: "The header shows the user menu: someone is signed in"
    implementation:
      type: pattern_check
      patterns: [user_menu]
hooks:
  before_intent:
    - action: dismiss_popups
      condition: { pattern_exists: modal_dialog }
