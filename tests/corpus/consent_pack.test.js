// The consent pack (packs/consent/patterns.yaml) on the consent corpus pages, through the scanner
// (`lscope scanner`, pattern_rules): each consent manager's banner is found by its own vendor rule,
// with the accept and reject controls a person sees. Pages whose banner lives in a cross-origin
// frame (TrustArc, Sourcepoint) are left to the engine's frame scans (the corpus tasks).
// Reads YAML with the schema tests' parser: `cd tests/schemas && npm ci` first.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../e2e/lib/fixture_server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const { Browser } = require('../../scanner/tests/harness.js');
const YAML = await import(path.join(repo, 'tests/schemas/node_modules/yaml/dist/index.js')).catch(() => {
  throw new Error('the YAML parser is missing: run `cd tests/schemas && npm ci`');
});

// patterns.yaml -> the scan's pattern_rules (scanner/README.md): one object per pattern.
export function patternRules(file) {
  const doc = YAML.parse(fs.readFileSync(file, 'utf8'));
  return Object.entries(doc.patterns).map(([name, p]) => ({ name, ...p }));
}

const rules = patternRules(path.join(repo, 'packs/consent/patterns.yaml'));

// page -> [vendor rule, accept text, reject text] as the page shows them (the start of the
// control's name, case aside), [where to wait for the banner when not its container].
const PAGES = {
  onetrust: ['onetrust', 'Accept All Cookies', 'Reject All'],
  cookiebot: ['cookiebot', 'Allow all', 'Deny'],
  didomi: ['didomi', 'Agree and close', 'Continue without agreeing →'],
  usercentrics: ['usercentrics', 'Accept All', 'Deny'],
  quantcast: ['quantcast_choice', 'AGREE', 'DISAGREE'],
  osano: ['osano', 'Accept All', 'Reject All'],
  cookieyes: ['cookieyes', 'Accept All', 'Reject All'],
  complianz: ['complianz', 'Accept', 'Deny'],
  iubenda: ['iubenda', 'Accept', 'Reject'],
  termly: ['termly', 'Accept', 'Decline'],
  axeptio: ['axeptio', 'OK for me', 'No thanks', '#axeptio_overlay .needsclick >>> .axeptio_widget'],
  borlabs: ['borlabs', 'Accept all', 'Accept only essential cookies'],
  klaro: ['klaro', "That's ok", 'I decline'],
  tarteaucitron: ['tarteaucitron', null, null],
  'vanilla-cookieconsent': ['cookieconsent_v3', 'Accept all', 'Reject all'],
  orejime: ['orejime', 'Accepter', 'Refuser'],
  'cookieconsent-osano': ['cookieconsent_osano', 'Allow cookies', 'Deny cookies'],
};

let site;
let browser;
before(async () => {
  site = await startFixtureServer();
  browser = new Browser();
});
after(async () => {
  await browser.close();
  await site.close();
});

describe('consent pack on the consent corpus', () => {
  it('every rule is a cookie_banner with accept and reject', () => {
    for (const r of rules) {
      assert.equal(r.provides, 'cookie_banner', r.name);
      assert.ok(r.elements.accept && r.elements.reject, `${r.name}: accept and reject`);
    }
  });
  for (const [page, [vendor, acceptText, rejectText, waitFor]] of Object.entries(PAGES)) {
    it(page, async () => {
      await browser.goto(`${site.base}/corpus/consent/${page}.html`);
      const rule = rules.find((r) => r.name === vendor);
      // The banner appears a moment after load, as hosted scripts do: wait for it to show.
      const where = waitFor || rule.detection.container;
      const shown = await browser.cmd({ cmd: 'wait_for', condition: 'visible', selector: where, timeout: 10000 });
      assert.ok(shown.ok, `${page}: the banner (${where}) never showed: ${shown.error}`);
      const r = await browser.cmd({ cmd: 'scan', pattern_rules: rules });
      assert.ok(r.ok, r.error);
      const banners = r.data.patterns.filter((p) => p.name === 'cookie_banner');
      assert.deepEqual(banners.map((p) => p.vendor), [vendor], `${page}: ${JSON.stringify(r.data.patterns)}`);
      const [p] = banners;
      const text = (id) => (r.data.elements.find((e) => e.id === id)?.text || '').toLowerCase();
      assert.ok(p.accept && p.reject, `${page}: accept and reject in ${JSON.stringify(p)}`);
      if (acceptText) assert.ok(text(p.accept).startsWith(acceptText.toLowerCase()), `accept is "${text(p.accept)}"`);
      if (rejectText) assert.ok(text(p.reject).startsWith(rejectText.toLowerCase()), `reject is "${text(p.reject)}"`);
    });
  }
});
