# yaml-language-server: $schema=../../schemas/pack-v1.json
# The nopCommerce demo store (intent-engine.md §9): search, filter by category and price, add
# to cart. Selectors are nopCommerce's own (small-searchterms, product-box-add-to-cart-button,
# bar-notification), shared by every nopCommerce shop on the default theme.
pack: demo.nopcommerce.com
version: 1.0.0
description: "nopCommerce demo store: search products, filter them, add to cart"
author: lemmascope
license: MIT
domains: [demo.nopcommerce.com]
requires:
  lemmascope: ">=1.0.0"
auto_load:
  - "https://demo.nopcommerce.com/*"
