// Precision/recall of scan against the labelled fixture corpus, plus selector round trips,
// stable keys across scans and reloads, frames, messages and scan time. Two sets of pages:
// fixtures/X.html + fixtures/X.expect.json, and the end-to-end pages of tests/fixtures (real npm
// libraries: React, vanilla-cookieconsent, Micromodal, SweetAlert2) labelled by
// fixtures/library/*.expect.json, whose "page" names the tests/fixtures page.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { test: nodeTest, before, after } = require('node:test');
const { serve, Browser, RESOLVE_DEEP, FIXTURES, TESTS_FIXTURES, LIBRARY, LATE_REGISTRY, conform } = require('./harness');
// Known backend differences (tests/e2e/backends/expectations.json) are skipped with their reason.
const test = conform(nodeTest);

const TARGET = 0.98;
// Pattern fields that are text; the other string fields of an expected pattern are selectors.
const TEXT_FIELDS = ['title', 'text', 'current_page'];

function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** Compares one expected element with the scanned one; returns a list of differences. */
function elementDiffs(exp, got) {
  const diffs = [];
  for (const k of ['type', 'role', 'text']) {
    if (exp[k] !== undefined && exp[k] !== got[k]) diffs.push(`${k}: expected ${JSON.stringify(exp[k])}, got ${JSON.stringify(got[k])}`);
  }
  if (exp.modifiers && !sameSet(exp.modifiers, got.modifiers)) {
    diffs.push(`modifiers: expected ${JSON.stringify(exp.modifiers)}, got ${JSON.stringify(got.modifiers)}`);
  }
  return diffs;
}

/** The map id of the element a ground-truth selector names: 0 when not in the map, -1 when none. */
async function idOf(b, selector) {
  const r = await b.cmd({ cmd: 'exists', selector });
  if (!r.ok) throw new Error(`ground truth selector ${selector}: ${r.error}`);
  return r.data.count ? (r.data.id || 0) : -1;
}

function sameElement(b, x, y) {
  return b.evalTest(`(a, b) => { ${RESOLVE_DEEP}; const x = resolveDeep(a), y = resolveDeep(b); return x.length > 0 && x[0] === y[0]; }`, x, y);
}

/** True when the scanned pattern `got` matches the expected one (fields by element). */
async function patternMatches(b, exp, got) {
  if (exp.name !== got.name || !(await sameElement(b, exp.container, got.container))) return false;
  for (const [k, v] of Object.entries(exp)) {
    if (k === 'name' || k === 'container') continue;
    if (Array.isArray(v)) {
      const ids = [];
      for (const s of v) ids.push(await idOf(b, s));
      if (JSON.stringify(ids) !== JSON.stringify(got[k] || [])) return false;
    } else if (typeof v === 'string' && !TEXT_FIELDS.includes(k)) {
      if ((await idOf(b, v)) !== got[k]) return false;
    } else if (v !== got[k]) {
      return false;
    }
  }
  for (const k of Object.keys(got)) if (!(k in exp) && typeof got[k] === 'number') return false;
  return true;
}

/**
 * Waits, through the scanner's own wait_for (event-driven: DOM mutations, transition and
 * animation ends, the next frame), for each of `expect.wait_for` after a load: content that a
 * library renders after `load` or fades in. Never a fixed sleep.
 */
async function settle(b, expect) {
  for (const w of expect.wait_for || []) {
    const r = await b.cmd(Object.assign({ cmd: 'wait_for', timeout: 10000 }, w));
    assert.ok(r.ok, `wait_for ${JSON.stringify(w)}: ${r.code} ${r.error}`);
  }
}

/**
 * Loads `url`, scans it and scores it against `expect`. `loaded` runs after every load (files
 * the page could not get). Returns {c: counts, misses: classification differences (they lower
 * precision/recall), faults: broken invariants (each fails the fixture's test)}.
 */
async function checkFixture(b, url, expect, loaded = () => {}) {
  const misses = [];
  const faults = [];
  const scanCommand = Object.assign({ cmd: 'scan' }, expect.scan || {});
  await b.goto(url);
  loaded();
  await settle(b, expect);
  const scan = await b.cmd(scanCommand);
  assert.ok(scan.ok, `scan failed: ${scan.code} ${scan.error}`);
  const d = scan.data;
  const byId = new Map(d.elements.map((e) => [e.id, e]));
  const matched = new Set();
  const c = { tp: 0, fp: 0, fn: 0, ptp: 0, pfp: 0, pfn: 0 };
  for (const exp of expect.elements) {
    const id = await idOf(b, exp.selector);
    if (id === -1) { faults.push(`ground truth selector matches nothing: ${exp.selector}`); c.fn++; continue; }
    const got = byId.get(id);
    if (!got) { misses.push(`missed ${exp.selector} (${exp.type} "${exp.text}")`); c.fn++; continue; }
    matched.add(id);
    const diffs = elementDiffs(exp, got);
    if (diffs.length) { misses.push(`[${id}] ${exp.selector}: ${diffs.join('; ')}`); c.fn++; c.fp++; } else c.tp++;
  }
  if (expect.exhaustive !== false) {
    for (const e of d.elements) if (!matched.has(e.id)) { misses.push(`unexpected [${e.id}] ${e.type}/${e.role} "${e.text}" ${e.selector}`); c.fp++; }
  }
  // Every returned selector must resolve, uniquely, to its own element.
  for (const e of d.elements) {
    const r = await b.cmd({ cmd: 'exists', selector: e.selector });
    if (!r.ok || r.data.count !== 1 || r.data.id !== e.id) faults.push(`selector of [${e.id}] does not round-trip: ${e.selector}`);
  }
  const used = new Set();
  for (const exp of expect.patterns) {
    let hit = -1;
    for (let i = 0; i < d.patterns.length; i++) {
      if (!used.has(i) && await patternMatches(b, exp, d.patterns[i])) { hit = i; break; }
    }
    if (hit >= 0) { used.add(hit); c.ptp++; } else { c.pfn++; misses.push(`pattern not found as expected: ${JSON.stringify(exp)}`); }
  }
  d.patterns.forEach((p, i) => { if (!used.has(i)) { c.pfp++; misses.push(`unexpected pattern ${JSON.stringify(p)}`); } });
  for (const f of expect.frames || []) {
    const got = d.frames.find((g) => g.selector === f.selector);
    if (!got || got.cross_origin !== f.cross_origin) faults.push(`frame ${JSON.stringify(f)} not reported as expected`);
  }
  if (expect.messages) {
    const got = d.messages.map((m) => `${m.kind}: ${m.text}`).sort();
    const want = expect.messages.map((m) => `${m.kind}: ${m.text}`).sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) faults.push(`messages: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  }
  // Stable identity: the same keys on a second scan and after a reload.
  const keys = d.elements.map((e) => e.key);
  if (new Set(keys).size !== keys.length) faults.push('duplicate keys: ' + keys.filter((k, i) => keys.indexOf(k) !== i).join(', '));
  const again = await b.cmd(scanCommand);
  if (JSON.stringify(again.data.elements.map((e) => e.key)) !== JSON.stringify(keys)) faults.push('keys differ between two scans');
  await b.reload();
  loaded();
  await settle(b, expect);
  const reloaded = await b.cmd(scanCommand);
  const reloadedKeys = reloaded.data.elements.map((e) => e.key);
  if (!sameSet(reloadedKeys, keys)) {
    const lost = keys.filter((k) => !reloadedKeys.includes(k));
    const gained = reloadedKeys.filter((k) => !keys.includes(k));
    const why = `keys differ after a reload: without ${lost.join(', ') || 'none'}; new ${gained.join(', ') || 'none'}`;
    // Where the listener registry races the page's scripts (LATE_REGISTRY 'sometimes'), an element
    // known by its listener alone may be found on one load and not the other: only some found, or
    // more, is that race; a key that changed (one lost, another new) is not.
    if (LATE_REGISTRY === 'sometimes' && (!lost.length || !gained.length)) misses.push(why + ' (the registry came in time on one load only)');
    else faults.push(why);
  }
  return { c, misses, faults, ms: d.stats.scan_ms, n: d.elements.length };
}

const expectNames = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.expect.json'))
  .map((f) => f.replace('.expect.json', '')).sort();
const names = expectNames(FIXTURES);
const libraryNames = expectNames(LIBRARY);
const COUNTS = ['tp', 'fp', 'fn', 'ptp', 'pfp', 'pfn'];
const totals = Object.fromEntries(COUNTS.map((k) => [k, 0]));
const libraryTotals = Object.fromEntries(COUNTS.map((k) => [k, 0]));
let scoredPages = 0;
let scoredLibraryPages = 0;
let site;
let libSite; // tests/fixtures, with its node_modules
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

function report(t, r) {
  t.diagnostic(`elements ${r.c.tp}/${r.c.tp + r.c.fn} (fp ${r.c.fp})  patterns ${r.c.ptp}/${r.c.ptp + r.c.pfn} (fp ${r.c.pfp})  ${r.n} el in ${r.ms} ms`);
  for (const m of r.misses) t.diagnostic('miss: ' + m);
  assert.deepStrictEqual(r.faults, []);
}

for (const name of names) {
  test(name, async (t) => {
    const expect = JSON.parse(fs.readFileSync(path.join(FIXTURES, name + '.expect.json'), 'utf8'));
    const r = await checkFixture(browser, site.base + name + '.html', expect);
    for (const k of COUNTS) totals[k] += r.c[k];
    scoredPages++;
    report(t, r);
  });
}

for (const name of libraryNames) {
  test('library/' + name, async (t) => {
    const expect = JSON.parse(fs.readFileSync(path.join(LIBRARY, name + '.expect.json'), 'utf8'));
    // {other_origin}: the same server as another origin (localhost instead of 127.0.0.1).
    const page = expect.page.replace('{other_origin}', `http://localhost:${libSite.port}`);
    const everyFileServed = () => {
      const missing = libSite.missing.splice(0);
      assert.deepStrictEqual(missing, [], `${expect.page} requested files that tests/fixtures lacks` +
        (missing.some((m) => m.startsWith('/node_modules/')) ? ' (run `npm ci` in tests/fixtures; scripts/setup.sh does it)' : ''));
    };
    libSite.missing.splice(0);
    const r = await checkFixture(browser, libSite.base + page, expect, everyFileServed);
    for (const k of COUNTS) { totals[k] += r.c[k]; libraryTotals[k] += r.c[k]; }
    scoredPages++;
    scoredLibraryPages++;
    report(t, r);
  });
}

function scoresOf(c) {
  const ratio = (a, b) => (b ? a / b : 1);
  return {
    'element precision': ratio(c.tp, c.tp + c.fp),
    'element recall': ratio(c.tp, c.tp + c.fn),
    'pattern precision': ratio(c.ptp, c.ptp + c.pfp),
    'pattern recall': ratio(c.ptp, c.ptp + c.pfn),
  };
}
const show = (scores) => Object.entries(scores).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ');

test(`precision and recall >= ${TARGET} over the corpus (elements and patterns)`, (t) => {
  const scores = scoresOf(totals);
  t.diagnostic(show(scores) + ` (${scoredPages} of ${names.length + libraryNames.length} pages scored)`);
  t.diagnostic(`of which library pages: ${show(scoresOf(libraryTotals))} (${scoredLibraryPages} of ${libraryNames.length} pages)`);
  assert.ok(totals.tp > 0, 'no fixture was scored (filtered out?)');
  for (const [k, v] of Object.entries(scores)) assert.ok(v >= TARGET, `${k} ${v.toFixed(3)} < ${TARGET}`);
});
