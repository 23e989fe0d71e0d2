// A by-hand check that the site copies (site_server.js) work in the real browser: starts the
// server and headless Chromium with the host rules, drives each site's flow over the DevTools
// protocol with real mouse clicks and typing, and checks the pages and the records.
//
//   node --experimental-websocket tests/e2e/lib/site_check.mjs [github|wikipedia|nopcommerce|hackernews ...]
//
// SHOTS=<dir> saves a PNG at each site's key steps; SHOW_RECORDS=1 prints the records.
// Not a test file (node --test does not pick it up); exits 1 when a check fails.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSiteServer } from './site_server.js';

if (typeof WebSocket === 'undefined') {
  console.error('Node 20 has no global WebSocket: run with node --experimental-websocket');
  process.exit(2);
}

const chromiumBin = process.env.CHROMIUM || '/usr/bin/chromium';

async function launchChromium(hostRules) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lemmascope-site-check-'));
  const child = spawn(chromiumBin, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${profile}`, '--ignore-certificate-errors', `--host-resolver-rules=${hostRules}`,
    '--remote-debugging-port=0', '--window-size=1280,900', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  child.stderr.resume();
  const portFile = path.join(profile, 'DevToolsActivePort');
  for (let i = 0; i < 200 && !fs.existsSync(portFile); i++) await sleep(50);
  const [port, wsPath] = fs.readFileSync(portFile, 'utf8').trim().split('\n');
  return {
    wsUrl: `ws://127.0.0.1:${port}${wsPath}`,
    close: async () => {
      // Chromium's helper processes share its process group (detached above): end them too.
      const exited = new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      try { process.kill(-child.pid, 'SIGTERM'); } catch { child.kill('SIGTERM'); }
      await exited;
      await sleep(200);
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

// A minimal CDP client on the browser endpoint, with flat sessions.
async function connect(wsUrl) {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
  let nextId = 1;
  const pending = new Map();
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(`${msg.error.message} (${msg.error.code})`)); else resolve(msg.result);
    }
  };
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  });
  return { send, close: () => ws.close() };
}

// One tab, with what a person does on a page: go, click, type, press Enter, wait.
async function openPage(cdp) {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const send = (method, params) => cdp.send(method, params, sessionId);
  await send('Page.enable');
  await send('Runtime.enable');
  // Dialogs (nopCommerce's empty-search alert) would block the page: accept them.
  const evaluate = async (expression) => {
    const r = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.exception?.description || r.exceptionDetails.text}`);
    return r.result.value;
  };
  const waitFor = async (expression, what, timeout = 10000) => {
    const end = Date.now() + timeout;
    let last;
    while (Date.now() < end) {
      try { last = await evaluate(`document.readyState === 'complete' && !!(${expression})`); } catch { last = false; }
      if (last) return;
      await sleep(50);
    }
    throw new Error(`timed out waiting for ${what || expression} (at ${await evaluate('location.href').catch(() => '?')})`);
  };
  const sel = (s) => JSON.stringify(s);
  return {
    evaluate,
    waitFor,
    url: () => evaluate('location.href'),
    text: (s) => evaluate(`document.querySelector(${sel(s)})?.textContent.trim() ?? null`),
    count: (s) => evaluate(`document.querySelectorAll(${sel(s)}).length`),
    async goto(url) {
      await send('Page.navigate', { url });
      await waitFor(`location.href !== 'about:blank'`, `navigation to ${url}`);
    },
    async click(s) {
      const box = await evaluate(`(() => { const e = document.querySelector(${sel(s)}); if (!e) return null;
        e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();
        return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`);
      if (!box) throw new Error(`no element ${s}`);
      await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: box.x, y: box.y });
      await send('Input.dispatchMouseEvent', { type: 'mousePressed', x: box.x, y: box.y, button: 'left', clickCount: 1 });
      await send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: box.x, y: box.y, button: 'left', clickCount: 1 });
    },
    async type(s, value) {
      const ok = await evaluate(`(() => { const e = document.querySelector(${sel(s)}); if (!e) return false; e.focus(); if ('select' in e) e.select(); return true; })()`);
      if (!ok) throw new Error(`no element ${s}`);
      await send('Input.insertText', { text: value });
    },
    async shot(name) {
      if (!process.env.SHOTS) return;
      const { data } = await send('Page.captureScreenshot', { format: 'png' });
      fs.mkdirSync(process.env.SHOTS, { recursive: true });
      fs.writeFileSync(path.join(process.env.SHOTS, `${name}.png`), Buffer.from(data, 'base64'));
    },
    async press(key) {
      const keys = { Enter: { code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' } };
      await send('Input.dispatchKeyEvent', { type: 'keyDown', key, ...keys[key] });
      await send('Input.dispatchKeyEvent', { type: 'keyUp', key, ...keys[key] });
    },
  };
}

const results = [];
function check(name, ok, detail = '') {
  results.push({ name, ok: !!ok });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : ` -- ${detail}`}`);
}
const last = (records, host, kind) => [...records].reverse().find((r) => r.host === host && r.kind === kind);

const flows = {
  async github(page, site) {
    await page.goto('https://github.com/octo-org/hello-world/issues/new');
    await page.waitFor(`location.pathname === '/login'`, 'redirect to /login');
    check('github: /issues/new signed out redirects to /login?return_to=', (await page.url()).includes('return_to=https%3A%2F%2Fgithub.com%2Focto-org%2Fhello-world%2Fissues%2Fnew'));
    await page.type('#login_field', 'octocat');
    await page.type('#password', 'wrong-password');
    await page.click('input[type=submit][name=commit]');
    await page.waitFor(`document.querySelector('#js-flash-container .flash-error')`, 'flash error');
    await page.shot('github-login-error');
    check('github: wrong password shows "Incorrect username or password."', (await page.text('.js-flash-alert')) === 'Incorrect username or password.');
    check('github: records {kind:login, ok:false}', last(site.records, 'github.com', 'login')?.ok === false);
    await page.type('#login_field', 'octocat');
    await page.type('#password', 'hunter2-correct');
    await page.click('input[type=submit][name=commit]');
    await page.waitFor(`location.pathname === '/octo-org/hello-world/issues/new'`, 'return_to after sign-in');
    check('github: signed in, back on the new-issue form', await page.count('#issue_title[name="issue[title]"]') === 1);
    check('github: records {kind:login, login:octocat, ok:true}', JSON.stringify(last(site.records, 'github.com', 'login')) === JSON.stringify({ host: 'github.com', kind: 'login', login: 'octocat', ok: true }));
    check('github: no password in the records', !JSON.stringify(site.records).includes('hunter2'));
    await page.type('#issue_title', 'Crash when the title has <b>tags</b>');
    await page.type('#issue_body', 'Steps:\n\n1. open the page');
    await page.click('button[type=submit].btn-primary');
    await page.waitFor(`location.pathname === '/octo-org/hello-world/issues/1'`, 'issue page');
    await page.shot('github-issue');
    check('github: issue page shows the title in bdi.js-issue-title', (await page.text('h1 bdi.js-issue-title')) === 'Crash when the title has <b>tags</b>');
    check('github: issue page shows #1', (await page.text('h1 .f1-light')) === '#1');
    const issue = last(site.records, 'github.com', 'issue');
    check('github: records the issue', issue?.repo === 'octo-org/hello-world' && issue.number === 1 && issue.body === 'Steps:\n\n1. open the page' && issue.user === 'octocat', JSON.stringify(issue));
    await page.click('button[aria-label="Open user navigation menu"]');
    await page.waitFor(`document.querySelector('#user-menu').open`, 'user menu');
    await page.shot('github-user-menu');
    check('github: user menu shows octocat', (await page.text('#user-menu .user-login')) === 'octocat');
    await page.goto('https://github.com/');
    await page.waitFor(`document.querySelector('input[name=q][aria-label="Search GitHub"]')`, 'dashboard');
    await page.type('input[name=q][aria-label="Search GitHub"]', 'hello world');
    await page.press('Enter');
    await page.waitFor(`location.pathname === '/search'`, 'search page');
    await page.shot('github-search');
    check('github: search keeps type=repositories', (await page.url()).includes('type=repositories'));
    check('github: search results link to /octo-org/hello-world', (await page.text('main a[href="/octo-org/hello-world"]')) === 'octo-org/hello-world');
    check('github: "N results" count', /^\d+ results?$/.test(await page.text('[data-testid="resolved-count-label"]')));
    check('github: records the search', last(site.records, 'github.com', 'search')?.q === 'hello world');
    await page.goto('https://github.com/octo-org/hello-world');
    await page.waitFor(`document.querySelector('#issues-tab')`, 'repo page');
    check('github: repo page has tabs and the new issue in the count', (await page.text('#issues-repo-tab-count')) === '13');
  },

  async wikipedia(page, site) {
    await page.goto('https://en.wikipedia.org/');
    await page.waitFor(`location.pathname === '/wiki/Main_Page'`, 'Main Page');
    await page.type('#searchInput', 'ada lovelace');
    await page.click('#searchform button');
    await page.waitFor(`location.pathname === '/wiki/Ada_Lovelace'`, 'the article');
    check('wikipedia: "ada lovelace" lands on /wiki/Ada_Lovelace', (await page.text('h1#firstHeading .mw-page-title-main')) === 'Ada Lovelace');
    check('wikipedia: infobox Born row', (await page.evaluate(`[...document.querySelectorAll('table.infobox.vcard tr')].find(r => r.querySelector('th')?.textContent === 'Born')?.querySelector('td.infobox-data').textContent`))?.includes('10 December 1815'));
    check('wikipedia: records {kind:search, q}', JSON.stringify(last(site.records, 'en.wikipedia.org', 'search')) === JSON.stringify({ host: 'en.wikipedia.org', kind: 'search', q: 'ada lovelace' }));
    await page.type('#searchInput', 'turing');
    await page.press('Enter');
    await page.waitFor(`document.querySelector('ul.mw-search-results')`, 'results page');
    await page.shot('wikipedia-search');
    check('wikipedia: "turing" gives a results list', await page.count('li.mw-search-result .mw-search-result-heading a') >= 3);
    await page.click('.mw-search-result-heading a[href="/wiki/Alan_Turing"]');
    await page.waitFor(`location.pathname === '/wiki/Alan_Turing'`, 'Alan Turing');
    check('wikipedia: result link opens Alan Turing', (await page.text('#firstHeading')) === 'Alan Turing');
  },

  async nopcommerce(page, site) {
    await page.goto('https://demo.nopcommerce.com/');
    await page.waitFor(`document.querySelector('#small-searchterms')`, 'home page');
    check('nopcommerce: cart starts at (0)', (await page.text('.header-links .cart-qty')) === '(0)');
    await page.type('#small-searchterms', 'laptop');
    await page.click('#small-search-box-form button.search-box-button');
    await page.waitFor(`location.pathname === '/search'`, 'search page');
    const names = await page.evaluate(`[...document.querySelectorAll('.product-grid .item-box .product-item h2.product-title a')].map(a => a.textContent.trim())`);
    check('nopcommerce: "laptop" finds the two laptops', JSON.stringify(names) === JSON.stringify(['Asus N551JK-XO076H Laptop', 'Lenovo Thinkpad X1 Carbon Laptop']), JSON.stringify(names));
    await page.click('.product-item[data-productid="5"] button.product-box-add-to-cart-button');
    await page.waitFor(`document.querySelector('#bar-notification .bar-notification.success')`, 'bar notification');
    await page.shot('nopcommerce-added');
    check('nopcommerce: bar notification text', (await page.text('#bar-notification .bar-notification.success p.content')) === 'The product has been added to your shopping cart');
    check('nopcommerce: bar notification has span.close', await page.count('#bar-notification .bar-notification span.close') === 1);
    check('nopcommerce: cart-qty becomes (1)', (await page.text('.header-links .cart-qty')) === '(1)');
    check('nopcommerce: records add_to_cart', JSON.stringify(last(site.records, 'demo.nopcommerce.com', 'add_to_cart')) === JSON.stringify({ host: 'demo.nopcommerce.com', kind: 'add_to_cart', productId: 5, name: 'Asus N551JK-XO076H Laptop', quantity: 1 }));
    await page.evaluate(`(() => { const s = document.querySelector('#products-orderby'); s.value = '11'; s.dispatchEvent(new Event('change')); })()`);
    await page.waitFor(`location.search.includes('orderby=11')`, 'sorted page');
    check('nopcommerce: sort by price high to low', (await page.text('.product-item h2.product-title a')) === 'Asus N551JK-XO076H Laptop');
    await page.click('#advs');
    await page.waitFor(`getComputedStyle(document.querySelector('#advanced-search-block')).display !== 'none'`, 'advanced search block');
    await page.type('#q', 'camera');
    await page.evaluate(`document.querySelector('#cid').value = '5'`);
    await page.click('#isc');
    await page.type('#pt', '600');
    await page.click('button.search-button');
    await page.waitFor(`location.search.includes('advs=true')`, 'advanced search');
    const adv = await page.evaluate(`[...document.querySelectorAll('.product-item h2.product-title a')].map(a => a.textContent.trim())`);
    check('nopcommerce: advanced search (Electronics + sub categories, up to $600)', JSON.stringify(adv) === JSON.stringify(['Leica T Mirrorless Digital Camera']), JSON.stringify(adv));
    await page.goto('https://demo.nopcommerce.com/cart');
    await page.waitFor(`document.querySelector('table.cart')`, 'cart');
    await page.shot('nopcommerce-cart');
    check('nopcommerce: cart lists the product', (await page.text('table.cart .product-name')) === 'Asus N551JK-XO076H Laptop');
    check('nopcommerce: cart total', (await page.text('.order-total .value-summary')) === '$1,500.00');
  },

  async hackernews(page, site) {
    await page.goto('https://news.ycombinator.com/');
    await page.waitFor(`document.querySelector('#hnmain')`, 'front page');
    check('hackernews: five stories', await page.count('tr.athing') === 5);
    await page.click('.pagetop a[href^="login"]');
    await page.waitFor(`location.pathname === '/login'`, 'login page');
    check('hackernews: login page has two forms with acct/pw', await page.count('form[action=login] input[name=acct]') === 2);
    const first = 'form[action=login]:not(:has(input[name=creating]))';
    await page.type(`${first} input[name=acct]`, 'pg');
    await page.type(`${first} input[name=pw]`, 'wrong');
    await page.click(`${first} input[type=submit]`);
    await page.waitFor(`document.body.textContent.includes('Bad login.')`, 'Bad login.');
    check('hackernews: wrong password says "Bad login."', true);
    await page.type(`${first} input[name=acct]`, 'pg');
    await page.type(`${first} input[name=pw]`, 'correct-horse');
    await page.click(`${first} input[type=submit]`);
    await page.waitFor(`document.querySelector('a#me')`, 'signed-in front page');
    check('hackernews: signed in, a#me is pg', (await page.text('a#me')) === 'pg');
    check('hackernews: records logins', JSON.stringify(site.records.filter((r) => r.kind === 'login' && r.host === 'news.ycombinator.com')) === JSON.stringify([
      { host: 'news.ycombinator.com', kind: 'login', acct: 'pg', ok: false }, { host: 'news.ycombinator.com', kind: 'login', acct: 'pg', ok: true }]));
    await page.click('a#up_43500104');
    await page.waitFor(`document.querySelector('#up_43500104.nosee') && document.querySelector('#un_43500104')`, 'vote shown');
    await page.shot('hackernews-voted');
    check('hackernews: upvote hides the arrow and shows unvote', (await page.text('#un_43500104')) === 'unvote');
    check('hackernews: records the vote', JSON.stringify(last(site.records, 'news.ycombinator.com', 'vote')) === JSON.stringify({ host: 'news.ycombinator.com', kind: 'vote', id: 43500104, how: 'up', user: 'pg' }));
    await page.goto('https://news.ycombinator.com/news');
    await page.waitFor(`document.querySelector('#hnmain')`, 'reload');
    check('hackernews: after reload the server keeps the vote (nosee, 257 points)', await page.count('#up_43500104.nosee') === 1 && (await page.text('#score_43500104')) === '257 points');
    await page.click('tr.athing[id="43500101"] + tr .subline a[href="item?id=43500101"]:last-child');
    await page.waitFor(`location.pathname === '/item'`, 'item page');
    await page.type('textarea[name=text]', 'Lovely reconstruction.');
    await page.click('input[type=submit][value="add comment"]');
    await page.waitFor(`[...document.querySelectorAll('.comment-tree .commtext')].some(e => e.textContent.includes('Lovely reconstruction.'))`, 'new comment');
    await page.shot('hackernews-comment');
    check('hackernews: new comment in the tree by pg', (await page.evaluate(`[...document.querySelectorAll('.comment-tree tr.comtr')].find(r => r.textContent.includes('Lovely reconstruction.'))?.querySelector('.hnuser').textContent`)) === 'pg');
    const c = last(site.records, 'news.ycombinator.com', 'comment');
    check('hackernews: records the comment', c?.parent === 43500101 && c.text === 'Lovely reconstruction.' && c.user === 'pg', JSON.stringify(c));
  },
};

const site = await startSiteServer();
const browser = await launchChromium(site.hostRules);
const cdp = await connect(browser.wsUrl);
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(flows);
console.log(`site server on port ${site.port}; host rules: ${site.hostRules}`);
try {
  for (const name of chosen) {
    const page = await openPage(cdp);
    try {
      await flows[name](page, site);
    } catch (err) {
      check(`${name}: flow ran to the end`, false, err.message);
    }
  }
} finally {
  cdp.close();
  await browser.close().catch((err) => console.error(`closing Chromium: ${err.message}`));
  await site.close();
}
const failed = results.filter((r) => !r.ok).length;
if (process.env.SHOW_RECORDS) console.log('records:', JSON.stringify(site.records, null, 1));
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
