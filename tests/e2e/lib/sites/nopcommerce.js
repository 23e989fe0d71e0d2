// demo.nopcommerce.com: home page, product search (basic and advanced, sorting), AJAX add to
// cart as nopCommerce's AjaxCart does it, and the shopping cart. The cart belongs to the
// visitor's .Nop.Customer cookie (set on the first visit); no sign-in.
import { randomUUID } from 'node:crypto';
import { render, html, json, redirect, cookie, esc } from './common.js';

const HOST = 'demo.nopcommerce.com';

// The demo's category tree: [id, name, parent id].
const categories = [
  [1, 'Computers', 0], [2, 'Desktops', 1], [3, 'Notebooks', 1], [4, 'Software', 1],
  [5, 'Electronics', 0], [6, 'Camera & photo', 5], [7, 'Cell phones', 5], [8, 'Others', 5],
  [9, 'Apparel', 0], [10, 'Shoes', 9], [11, 'Clothing', 9], [12, 'Accessories', 9],
  [13, 'Digital downloads', 0], [14, 'Books', 0], [15, 'Jewelry', 0], [16, 'Gift Cards', 0],
].map(([id, name, parent]) => ({ id, name, parent }));

const products = [
  { id: 4, name: 'Apple MacBook Pro 13-inch', se: 'apple-macbook-pro-13-inch', price: 1800, cat: 3, sku: 'AP_MBP_13', short: 'A groundbreaking Retina display. A new force-touch trackpad. All-flash architecture. Powerful dual-core and quad-core Intel processors.', created: 1 },
  { id: 5, name: 'Asus N551JK-XO076H Laptop', se: 'asus-n551jk-xo076h-laptop', price: 1500, cat: 3, sku: 'AS_551_LP', short: 'Laptop Asus N551JK Intel Core i7-4710HQ 2.5 GHz, RAM 16GB, HDD 1TB, Video NVidia GTX 850M 4GB, BluRay, 15.6, Full HD, Win 8.1', created: 2 },
  { id: 6, name: 'Samsung Series 9 NP900X4C Premium Ultrabook', se: 'samsung-series-9-np900x4c-premium-ultrabook', price: 1590, cat: 3, sku: 'SM_900_PU', short: 'Samsung Series 9 NP900X4C-A06US 15-Inch Ultrabook (1.70 GHz Intel Core i5-3317U Processor, 8GB DDR3, 128GB SSD, Windows 8) Ash Black', created: 3 },
  { id: 7, name: 'HP Spectre XT Pro UltraBook', se: 'hp-spectre-xt-pro-ultrabook', price: 1350, cat: 3, sku: 'HP_SPX_UB', short: 'HP Spectre XT Pro UltraBook / Intel Core i5-2467M / 13.3 / 4GB / 128GB / Windows 7 Professional / Laptop', created: 4 },
  { id: 9, name: 'Lenovo Thinkpad X1 Carbon Laptop', se: 'lenovo-thinkpad-x1-carbon-laptop', price: 1360, cat: 3, sku: 'LE_TX1_CL', short: 'Lenovo Thinkpad X1 Carbon Touch Intel Core i7 14 Ultrabook', created: 5 },
  { id: 14, name: 'Nikon D5500 DSLR', se: 'nikon-d5500-dslr', price: 670, cat: 6, sku: 'N5500DS_0', short: 'Slim, lightweight Nikon D5500 packs a vari-angle touchscreen', created: 6 },
  { id: 16, name: 'Leica T Mirrorless Digital Camera', se: 'leica-t-mirrorless-digital-camera', price: 530, cat: 6, sku: 'LT_MIR_DC', short: 'Leica T (Typ 701) Silver', created: 7 },
  { id: 17, name: 'Apple iCam', se: 'apple-icam', price: 1300, cat: 6, sku: 'APPLE_CAM', short: 'Photography becomes smart', created: 8 },
];

const money = (n) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const sorts = [[0, 'Position'], [5, 'Name: A to Z'], [6, 'Name: Z to A'], [10, 'Price: Low to High'], [11, 'Price: High to Low'], [15, 'Created on']];
const sorters = {
  5: (a, b) => a.name.localeCompare(b.name), 6: (a, b) => b.name.localeCompare(a.name),
  10: (a, b) => a.price - b.price, 11: (a, b) => b.price - a.price, 15: (a, b) => b.created - a.created,
};
const inCategory = (p, cid, sub) => p.cat === cid || (sub && categories.find((c) => c.id === p.cat)?.parent === cid);

export function createNopCommerce() {
  let carts;      // .Nop.Customer guid -> [{itemId, productId, quantity}]
  let wishlists;  // .Nop.Customer guid -> Set of product ids
  let nextItem;
  const reset = () => { carts = new Map(); wishlists = new Map(); nextItem = 11219; };
  reset();

  // The visitor's guid, and a Set-Cookie header when it is new.
  const customer = (ctx) => {
    const existing = ctx.cookies['.Nop.Customer'];
    if (existing) return { guid: existing, headers: {} };
    const guid = randomUUID();
    ctx.cookies['.Nop.Customer'] = guid;
    return { guid, headers: { 'Set-Cookie': cookie('.Nop.Customer', guid, '; Max-Age=31536000') } };
  };
  const cartOf = (guid) => carts.get(guid) || [];
  const cartCount = (guid) => cartOf(guid).reduce((n, i) => n + i.quantity, 0);

  const page = (ctx, status, name, title, vars) => {
    const { guid, headers } = customer(ctx);
    return html(ctx.res, status, render(HOST, name, {
      title: title ? `nopCommerce demo store. ${title}` : 'nopCommerce demo store', cart_qty: `(${cartCount(guid)})`,
      wishlist_qty: `(${wishlists.get(guid)?.size || 0})`, q: '', ...vars,
    }), headers);
  };
  const productBox = (p) => render(HOST, '_product_box.html', { id: String(p.id), name: p.name, se: p.se, short: p.short, price: money(p.price) });
  const grid = (list) => `<div class="product-grid"><div class="item-grid">${list.map((p) => `<div class="item-box">${productBox(p)}</div>`).join('')}</div></div>`;

  function search(ctx) {
    const q = ctx.query.get('q') || '';
    const advs = /^true$/i.test(ctx.query.get('advs') || '');
    const cid = Number(ctx.query.get('cid') || 0);
    const isc = /^true$/i.test(ctx.query.get('isc') || '');
    const sid = /^true$/i.test(ctx.query.get('sid') || '');
    const pf = ctx.query.get('pf') || '';
    const pt = ctx.query.get('pt') || '';
    const orderby = Number(ctx.query.get('orderby') || 0);
    const searched = ctx.query.has('q');
    if (searched) ctx.record({ kind: 'search', q, advs, cid, isc, pf, pt, orderby });
    let list = [];
    let warning = '';
    if (searched && q.trim().length < 3) {
      warning = 'Search term minimum length is 3 characters';
    } else if (searched) {
      const words = q.toLowerCase().split(/\s+/).filter(Boolean);
      list = products.filter((p) => {
        const text = `${p.name} ${p.sku} ${advs && sid ? p.short : ''}`.toLowerCase();
        if (!words.every((w) => text.includes(w))) return false;
        if (advs && cid && !inCategory(p, cid, isc)) return false;
        if (advs && pf !== '' && p.price < Number(pf)) return false;
        if (advs && pt !== '' && p.price > Number(pt)) return false;
        return true;
      });
      if (sorters[orderby]) list = [...list].sort(sorters[orderby]);
    }
    const options = [{ id: 0, label: 'All' }, ...categories.map((c) => ({
      id: c.id, label: c.parent ? `${categories.find((x) => x.id === c.parent).name} >> ${c.name}` : c.name,
    }))].map((o) => `<option value="${o.id}"${o.id === cid ? ' selected="selected"' : ''}>${esc(o.label)}</option>`).join('');
    const sortOptions = sorts.map(([v, label]) => `<option value="${v}"${v === orderby ? ' selected="selected"' : ''}>${esc(label)}</option>`).join('');
    return page(ctx, 200, 'search.html', 'Search', {
      q, pf, pt, category_options: options,
      advs_checked: advs ? 'checked="checked"' : '', isc_checked: isc ? 'checked="checked"' : '', sid_checked: sid ? 'checked="checked"' : '',
      selectors: list.length ? render(HOST, '_selectors.html', { sort_options: sortOptions }) : '',
      warning: warning ? `<div class="warning">${esc(warning)}</div>` : '',
      no_result: searched && !warning && !list.length ? '<div class="no-result">No products were found that matched your criteria.</div>' : '',
      grid: list.length ? grid(list) : '',
    });
  }

  function addToCart(ctx, productId, typeId, quantity) {
    const { guid, headers } = customer(ctx);
    const p = products.find((x) => x.id === productId);
    if (!p) return json(ctx.res, 200, { success: false, message: 'No product found with the specified ID' }, headers);
    if (typeId === 2) {
      const list = wishlists.get(guid) || new Set();
      wishlists.set(guid, list.add(productId));
      ctx.record({ kind: 'add_to_wishlist', productId, name: p.name });
      return json(ctx.res, 200, { success: true, message: 'The product has been added to your <a href="/wishlist">wishlist</a>', updatetopwishlistsectionhtml: `(${list.size})` }, headers);
    }
    const cart = cartOf(guid);
    carts.set(guid, cart);
    const line = cart.find((i) => i.productId === productId);
    if (line) line.quantity += quantity; else cart.push({ itemId: nextItem++, productId, quantity });
    ctx.record({ kind: 'add_to_cart', productId, name: p.name, quantity });
    return json(ctx.res, 200, {
      success: true,
      message: 'The product has been added to your <a href="/cart">shopping cart</a>',
      updatetopcartsectionhtml: `(${cartCount(guid)})`,
      updateflyoutcartsectionhtml: '',
    }, headers);
  }

  function cartPage(ctx) {
    const { guid } = customer(ctx);
    const cart = cartOf(guid);
    let total = 0;
    const rows = cart.map((i) => {
      const p = products.find((x) => x.id === i.productId);
      total += p.price * i.quantity;
      return render(HOST, '_cart_row.html', { item: String(i.itemId), sku: p.sku, se: p.se, name: p.name,
        unit: money(p.price), qty: String(i.quantity), subtotal: money(p.price * i.quantity) });
    }).join('');
    const body = cart.length ? render(HOST, '_cart_table.html', { rows, total: money(total) })
      : '<div class="no-data">Your Shopping Cart is empty!</div>';
    return page(ctx, 200, 'cart.html', 'Shopping Cart', { cart_body: body });
  }

  function updateCart(ctx) {
    const { guid } = customer(ctx);
    if ('continueshopping' in ctx.form) return redirect(ctx.res, '/');
    if ('checkout' in ctx.form) {
      ctx.record({ kind: 'checkout', termsofservice: 'termsofservice' in ctx.form });
      return redirect(ctx.res, '/login/checkoutasguest?returnUrl=%2Fcart');
    }
    const cart = cartOf(guid);
    const removed = [].concat(ctx.form.removefromcart ?? []).map(Number);
    const next = [];
    for (const i of cart) {
      const qty = Number(ctx.form[`itemquantity${i.itemId}`] ?? i.quantity);
      if (removed.includes(i.itemId) || !(qty > 0)) continue;
      next.push({ ...i, quantity: Math.floor(qty) });
    }
    carts.set(guid, next);
    ctx.record({ kind: 'update_cart', items: next.map((i) => ({ productId: i.productId, quantity: i.quantity })) });
    return redirect(ctx.res, '/cart');
  }

  async function handle(ctx) {
    const { method, path } = ctx;
    if (method === 'GET' && path === '/') {
      return page(ctx, 200, 'home.html', '', { grid: grid(products.filter((p) => [4, 5, 14, 17].includes(p.id))) });
    }
    if (method === 'GET' && path === '/search') return search(ctx);
    const add = /^\/addproducttocart\/catalog\/(\d+)\/(\d+)\/(\d+)$/.exec(path);
    if (method === 'POST' && add) return addToCart(ctx, Number(add[1]), Number(add[2]), Math.max(1, Number(add[3])));
    const compare = /^\/compareproducts\/add\/(\d+)$/.exec(path);
    if (method === 'POST' && compare) {
      const p = products.find((x) => x.id === Number(compare[1]));
      if (p) ctx.record({ kind: 'add_to_compare', productId: p.id, name: p.name });
      return json(ctx.res, 200, p ? { success: true, message: 'The product has been added to your <a href="/compareproducts">product comparison</a>' }
        : { success: false, message: 'No product found with the specified ID' });
    }
    if (method === 'GET' && path === '/cart') return cartPage(ctx);
    if (method === 'POST' && path === '/cart') return updateCart(ctx);
    return page(ctx, 404, 'page_not_found.html', 'Page not found', {});
  }

  return { host: HOST, reset, handle };
}
