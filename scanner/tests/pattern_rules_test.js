// pattern_rules: the scan's pack patterns (packs/*/patterns.yaml as JSON, scanner README) and the
// multilingual cookie_banner vocabulary, through the real backend (`lscope scanner`).
'use strict';
const assert = require('assert');
const { test: nodeTest, before, after } = require('node:test');
const { serve, Browser, conform, TESTS_FIXTURES } = require('./harness');

const test = conform(nodeTest);
let site;
let libSite; // tests/fixtures
let browser;

before(async () => {
  site = await serve();
  libSite = await serve(TESTS_FIXTURES);
  browser = new Browser();
});

after(async () => {
  await browser.close();
  await site.close();
  await libSite.close();
});

async function scan(params = {}) {
  const r = await browser.cmd(Object.assign({ cmd: 'scan' }, params));
  assert.ok(r.ok, `scan failed: ${r.code} ${r.error}`);
  return r.data;
}

const VENDOR = {
  name: 'acme_consent',
  provides: 'cookie_banner',
  detection: { container: '.vendor-banner' },
  elements: {
    accept: { selector: 'a.call' },
    reject: { selector: 'a.required', text_contains: ['required', 'nur notwendige'] },
    settings: { selector: '.prefs-label' },
  },
};

const element = (data, id) => data.elements.find((e) => e.id === id);

test('a rule yields its pattern with vendor, container and the elements it names', async () => {
  await browser.goto(site.base + 'pattern_rules.html');
  const plain = await scan();
  assert.ok(!plain.elements.some((e) => e.text === 'Agree and proceed'), 'the anchor without href is not listed by itself');
  const data = await scan({ pattern_rules: [VENDOR] });
  const banners = data.patterns.filter((p) => p.name === 'cookie_banner');
  const vendor = banners.find((p) => p.vendor === 'acme_consent');
  assert.ok(vendor, `no vendor pattern in ${JSON.stringify(data.patterns)}`);
  assert.strictEqual(vendor.container, '#vendor-box');
  // Elements the scan did not list are registered, with ids in document order.
  const accept = element(data, vendor.accept);
  const reject = element(data, vendor.reject);
  assert.strictEqual(accept.text, 'Agree and proceed');
  assert.strictEqual(accept.tag, 'a');
  assert.ok(/a\.call$/.test(accept.selector), accept.selector);
  assert.strictEqual(reject.text, 'Required only');
  assert.ok(reject.id < accept.id, 'ids follow document order');
  // A selector that hits a part of a control (its label span) gives the control.
  assert.strictEqual(element(data, vendor.settings).tag, 'button');
  const ids = data.elements.map((e) => e.id);
  assert.deepStrictEqual(ids, ids.slice().sort((a, b) => a - b));
  const keys = data.elements.map((e) => e.key);
  assert.strictEqual(new Set(keys).size, keys.length, 'keys stay unique');
  // The vendor's banner is not found a second time by the generic rules (its wrapper is
  // cookie-named too), and the registered element can be clicked through its id.
  assert.strictEqual(banners.filter((p) => p.container === '#cookie-wrapper').length, 0);
  const point = await browser.cmd({ cmd: 'point', id: vendor.accept });
  assert.ok(point.ok, `point failed: ${point.error}`);
});

test('detection: url, text, hidden containers and unreadable rules', async () => {
  await browser.goto(site.base + 'pattern_rules.html');
  const rule = (detection, name = 'r') => ({ name, provides: 'cookie_banner', detection,
    elements: { accept: { selector: 'a.call' } } });
  const names = async (rules) => (await scan({ pattern_rules: rules })).patterns
    .filter((p) => p.vendor).map((p) => p.vendor);
  assert.deepStrictEqual(await names([rule({ container: '.vendor-banner', url_contains: 'pattern_rules' }, 'url')]), ['url']);
  assert.deepStrictEqual(await names([rule({ container: '.vendor-banner', url_contains: ['nowhere', 'elsewhere'] })]), []);
  assert.deepStrictEqual(await names([rule({ container: '.vendor-banner', url_matches: 'pattern_rules\\.html$' }, 're')]), ['re']);
  assert.deepStrictEqual(await names([rule({ container: '.vendor-banner', url_matches: '^https://' })]), []);
  assert.deepStrictEqual(await names([rule({ container: '.vendor-banner', text_contains: 'ANALYTICS AND ADS' }, 'txt')]), ['txt']);
  assert.deepStrictEqual(await names([rule({ container: '.vendor-banner', text_contains: 'newsletter' })]), []);
  assert.deepStrictEqual(await names([rule({ container: '#hidden-box' })]), [], 'a hidden container is no pattern');
  // A bad selector or regex skips that rule only; the others still hold.
  assert.deepStrictEqual(await names([rule({ container: '[[bad' }, 'bad'), rule({ url_matches: '(' }, 'bad2'),
    rule({ container: '.vendor-banner' }, 'good')]), ['good']);
  // A page-wide rule (no container) finds its elements anywhere and claims nothing.
  const data = await scan({ pattern_rules: [{ name: 'page', provides: 'search_form',
    detection: { url_contains: 'pattern_rules' }, elements: { submit: { text: 'subscribe' } } }] });
  const page = data.patterns.find((p) => p.vendor === 'page');
  assert.strictEqual(page.name, 'search_form');
  assert.strictEqual(element(data, page.submit).text, 'Subscribe');
  // Without provides the pattern is known by the rule's name.
  const own = await scan({ pattern_rules: [{ name: 'acme_box', detection: { container: '.vendor-banner' },
    elements: { ok: { selector: 'a.call' } } }] });
  assert.ok(own.patterns.some((p) => p.name === 'acme_box' && p.ok > 0));
});

test('shadow roots, same-origin frames and text confirmation', async () => {
  await browser.goto(site.base + 'pattern_rules.html');
  const data = await scan({ pattern_rules: [
    { name: 'shadowy', provides: 'cookie_banner', detection: { container: '#shadow-host >>> .sh-banner' },
      elements: { accept: { selector: '[data-act=accept]' }, reject: { selector: '[data-act=deny]' } } },
    { name: 'framed', provides: 'cookie_banner', detection: { frame: 'iframe.consent-frame', container: '.frame-banner' },
      elements: { accept: { selector: 'button', text: 'ok' }, reject: { selector: 'button', text_contains: 'no' } } },
    { name: 'wrong_frame', provides: 'cookie_banner', detection: { frame: 'iframe.other', container: '.frame-banner' },
      elements: { accept: { selector: 'button' } } },
  ] });
  const shadowy = data.patterns.find((p) => p.vendor === 'shadowy');
  assert.strictEqual(element(data, shadowy.accept).text, 'Accept all');
  assert.strictEqual(element(data, shadowy.reject).text, 'Deny');
  assert.ok(shadowy.container.startsWith('#shadow-host >>> '), shadowy.container);
  const framed = data.patterns.find((p) => p.vendor === 'framed');
  assert.strictEqual(element(data, framed.accept).text, 'OK');
  assert.strictEqual(element(data, framed.reject).text, 'No');
  assert.strictEqual(element(data, framed.accept).frame, '#consent-frame');
  assert.ok(!data.patterns.some((p) => p.vendor === 'wrong_frame'));
  // Without rules, a frame whose whole document is a consent message is a cookie_banner too.
  await browser.evalTest(() => { document.getElementById('shadow-host').style.display = 'none'; });
  const generic = await scan();
  const inFrame = generic.patterns.find((p) => p.name === 'cookie_banner');
  assert.ok(inFrame && inFrame.container.startsWith('#consent-frame >>> '), JSON.stringify(generic.patterns));
  assert.strictEqual(element(generic, inFrame.accept).text, 'OK');
  await browser.evalTest(() => { document.getElementById('shadow-host').style.display = ''; });
  // The same rules in a plain-selector form find the shadow banner without ">>>".
  const plain = await scan({ pattern_rules: [{ name: 'deep', provides: 'cookie_banner',
    detection: { container: '.sh-banner' }, elements: { accept: { selector: '[data-act=accept]' } } }] });
  assert.ok(plain.patterns.some((p) => p.vendor === 'deep' && p.accept > 0));
});

test('a vendor rule that names only some elements gets the others from the vocabulary', async () => {
  await browser.goto(site.base + 'pattern_rules.html');
  const data = await scan({ pattern_rules: [{ name: 'partial', provides: 'cookie_banner',
    detection: { container: '#shadow-host >>> .sh-banner' }, elements: { accept: { selector: '[data-act=accept]' } } }] });
  const p = data.patterns.find((x) => x.vendor === 'partial');
  assert.strictEqual(element(data, p.reject).text, 'Deny');
});

// What unknown banners say, in the eight languages of the vocabulary: [accept, reject, settings].
const WORDING = {
  en: ['Accept all cookies', 'Reject all', 'Manage preferences'],
  de: ['Alle akzeptieren', 'Alle ablehnen', 'Einstellungen'],
  fr: ['Tout accepter', 'Tout refuser', 'Personnaliser'],
  es: ['Aceptar todas', 'Rechazar todas', 'Configurar'],
  it: ['Accetta tutti', 'Rifiuta tutti', 'Gestisci preferenze'],
  nl: ['Alle cookies toestaan', 'Alleen noodzakelijke cookies', 'Instellingen'],
  pt: ['Aceitar todos', 'Rejeitar todos', 'Personalizar'],
  pl: ['Zaakceptuj wszystkie', 'Odrzuć wszystkie', 'Ustawienia'],
  // Wording of known managers' defaults that a generic reader must take as well.
  klaro: ["That's ok", 'I decline', 'Let me choose'],
  axeptio: ['OK for me', 'No thanks', 'I choose'],
  borlabs: ['Accept all', 'Accept only essential cookies', 'Individual Privacy Preferences'],
  didomi: ['Agree and close', 'Disagree and close', 'Learn More →'],
  tarteaucitron: ['Cookies : OK, accept all', 'Cookies : Deny all cookies', 'Personalize'],
};

test('the generic cookie_banner reads accept, reject and settings in eight languages', async () => {
  await browser.goto(site.base + 'pattern_rules.html');
  for (const [lang, [accept, reject, settings]] of Object.entries(WORDING)) {
    await browser.evalTest((a, r, s) => {
      const box = document.getElementById('vocab');
      document.getElementById('vocab-text').textContent = 'We use cookies. Wir verwenden Cookies.';
      // Settings first, then reject, then the selection-only and the accept-all buttons.
      document.getElementById('vocab-buttons').innerHTML = '';
      for (const label of [s, r, 'Save selection', a]) {
        const b = document.createElement('button');
        b.textContent = label;
        document.getElementById('vocab-buttons').appendChild(b);
      }
      document.getElementById('vendor-box').style.display = 'none';
      document.getElementById('shadow-host').style.display = 'none';
      document.getElementById('consent-frame').style.display = 'none';
      box.style.display = 'block';
    }, accept, reject, settings);
    const data = await scan();
    const p = data.patterns.find((x) => x.name === 'cookie_banner' && x.container === '#vocab');
    assert.ok(p, `${lang}: no cookie_banner in ${JSON.stringify(data.patterns)}`);
    assert.strictEqual(element(data, p.accept)?.text, accept, `${lang}: accept`);
    assert.strictEqual(element(data, p.reject)?.text, reject, `${lang}: reject`);
    assert.strictEqual(element(data, p.settings)?.text, settings, `${lang}: settings`);
  }
});

test('a picker that searches a form\'s own choices is no search form; the site search beside it is', async () => {
  await browser.goto(libSite.base + 'invite-search.html');
  const data = await scan();
  const forms = data.patterns.filter((p) => p.name === 'search_form');
  assert.strictEqual(forms.length, 1, JSON.stringify(data.patterns));
  assert.strictEqual(element(data, forms[0].input).text, 'Search the docs');
  assert.strictEqual(element(data, forms[0].submit).text, 'Search');
  // Without the site search, nothing on the page searches: "Send invites" is no search submit.
  await browser.evalTest(() => document.querySelector('aside').remove());
  const alone = await scan();
  assert.deepStrictEqual(alone.patterns.filter((p) => p.name === 'search_form'), []);
  // The same field alone in its form is a search box (a site search with suggestions).
  await browser.evalTest(() => { for (const f of document.querySelectorAll('#country, #role, #message')) f.remove(); });
  const single = await scan();
  assert.strictEqual(single.patterns.filter((p) => p.name === 'search_form').length, 1);
});
