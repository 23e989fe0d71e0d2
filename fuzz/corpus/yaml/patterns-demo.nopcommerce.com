# yaml-language-server: $schema=../../schemas/patterns-v1.json
# nopCommerce's default theme (§9.3).
patterns:
  store_search:
    description: "The header's store search"
    detection:
      container: "#small-search-box-form"
    elements:
      query: { selector: "#small-searchterms" }
      submit: { selector: "button.search-box-button" }

  advanced_search:
    description: "The search page's form with advanced search (category, price range)"
    detection:
      container: ".search-page .search-input form"
    elements:
      keyword: { selector: "#q" }
      advanced: { selector: "#advs" }
      category: { selector: "#cid" }
      subcategories: { selector: "#isc" }
      price_from: { selector: "#pf" }
      price_to: { selector: "#pt" }
      submit: { selector: "button.search-button" }

  product_grid:
    description: "A grid of products, each with Add to cart"
    detection:
      container: ".product-grid"
    elements:
      first_add: { selector: "button.product-box-add-to-cart-button" }

  cart_notification:
    description: "The bar that says the product went into the cart"
    detection:
      container: "#bar-notification .bar-notification.success"
    elements:
      close: { selector: "span.close" }
