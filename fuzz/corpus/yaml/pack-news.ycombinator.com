# yaml-language-server: $schema=../../schemas/pack-v1.json
# Hacker News (intent-engine.md §9): log in (the first of the login page's two look-alike
# forms, not "create account"), upvote, open a story's comments, comment. Its `login` replaces
# the built-in one on this site (pack over builtin, §2, §11.1).
pack: news.ycombinator.com
version: 1.0.0
description: "Hacker News: log in, upvote a story, open its comments, add a comment"
author: lemmascope
license: MIT
domains: [news.ycombinator.com]
requires:
  lemmascope: ">=1.0.0"
auto_load:
  - "https://news.ycombinator.com/*"
custom_conditions:
  logged_in:
    description: "The top bar names the user"
    implementation:
      type: pattern_check
      patterns: [hn_user]
