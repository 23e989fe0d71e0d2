// Scan benchmark: scanner time on generated pages of 100 / 1,000 / 10,000 elements and the size
// of what an agent reads (observe) on those pages, on a page of 1,502 form controls and on every
// tests/fixtures page.
//
//   node bench/scan_bench.mjs [--runs N] [--sizes 100,1000,10000] [--args "--backend webdriver"]
//                             [--max N [--detail N]] [--compare OTHER_LSCOPE]
//
// Drives the real binary (LSCOPE_BIN, default build/lscope): `lscope scanner` for scan times,
// `lscope run -` (goto + observe) for observation sizes. --max sets the scans' max_elements (and
// --detail their detail_max, default 300 with --max): the engine's call shape, every element
// targetable. --compare measures the observations of a second binary too (before/after).
// Prints tables and exits 0 (no thresholds; 1 only when it could not run).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startFixtureServer, fixturesDir } from '../tests/e2e/lib/fixture_server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const lscopeBin = process.env.LSCOPE_BIN || path.resolve(here, '../build/lscope');

function option(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}
const RUNS = Math.max(2, Number(option('--runs', 21)));
const SIZES = option('--sizes', '100,1000,10000').split(',').map(Number);
// Backend options for every lscope started, e.g. --args "--browser wpe" (default: CDP).
const ARGS = option('--args', '').split(' ').filter(Boolean);
// The scan command: the protocol's default (max_elements 200), or --max/--detail.
const MAX = option('--max', null);
const SCAN = MAX === null ? { cmd: 'scan' }
  : { cmd: 'scan', max_elements: Number(MAX), detail_max: Number(option('--detail', 300)) };
const COMPARE = option('--compare', null);

// o200k tokens (bench/node_modules: `cd bench && npm ci`); characters only without it.
let encode = null;
try {
  ({ encode } = await import('gpt-tokenizer/encoding/o200k_base'));
} catch (e) {
  console.error('(no gpt-tokenizer: run `npm ci` in bench/ for token counts)');
}
const tokens = (text) => (encode ? encode(text).length : NaN);

// ----- generated pages -------------------------------------------------------------------------

/**
 * A shop-like page with about `size` elements: a header (nav links, a search form), product cards
 * (heading, text, a link, a quantity input and a submit button in a form) and a footer.
 */
function generatePage(size) {
  const head = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<title>Catalogue of ${size}</title><style>body{font-family:sans-serif;margin:0}` +
    '.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:8px;padding:8px}' +
    '.card{border:1px solid #ccc;padding:6px}.card p{margin:2px 0}</style></head><body>';
  const header = '<header><nav aria-label="Main"><a href="/">Home</a> <a href="/deals">Deals</a> ' +
    '<a href="/help">Help</a> <a href="/account">Account</a></nav>' +
    '<form role="search" action="/search"><input type="search" name="q" aria-label="Search products">' +
    '<button>Search</button></form></header>';
  const footer = '<footer><p>© Example shop</p><a href="/terms">Terms</a> <a href="/privacy">Privacy</a></footer>';
  // Fixed part: html, head, meta, title, style, body, header, nav, 4 a, form, input, button,
  // main, div.cards, footer, p, 2 a = 23 elements; a card has 10.
  const cards = Math.max(1, Math.round((size - 23) / 10));
  const html = [head, header, '<main><h1>Products</h1><div class="cards">'];
  for (let i = 0; i < cards; i++) {
    html.push(`<article class="card"><h3>Product ${i}</h3><p>A fine item, <em>${i % 7 + 1} colours</em>, ` +
      `ships in ${i % 5 + 1} days.</p><a href="/product/${i}">Details</a>` +
      `<form action="/cart" method="post"><label>Quantity <input type="number" name="qty" min="1" value="1"></label>` +
      `<button type="submit">Add to cart</button></form></article>`);
  }
  html.push('</div></main>', footer, '</body></html>');
  return html.join('');
}

/**
 * A settings page of 1,502 controls: a search field, 30 sections (fieldsets) of 50 labelled
 * controls each (25 text fields, 10 checkboxes, 10 selects, 5 text areas) and a "Save settings"
 * submit button at the end.
 */
function generateControlsPage() {
  const html = ['<!doctype html><html lang="en"><head><meta charset="utf-8"><title>All settings</title>',
    '<style>body{font-family:sans-serif;margin:8px}fieldset{margin:6px 0}label{display:inline-block;width:14em}',
    '.f{margin:2px 0}</style></head><body><header><input type="search" name="q" aria-label="Search settings"></header>',
    '<form action="/settings" method="post"><h1>Settings</h1>'];
  let n = 0;
  for (let s = 1; s <= 30; s++) {
    html.push(`<fieldset><legend>Section ${s}</legend>`);
    for (let i = 1; i <= 50; i++) {
      const id = `s${s}f${i}`;
      n++;
      if (i <= 25) html.push(`<div class="f"><label for="${id}">Option ${s}.${i}</label><input id="${id}" name="${id}" value="v${i}"></div>`);
      else if (i <= 35) html.push(`<div class="f"><label><input type="checkbox" name="${id}"> Enable feature ${s}.${i}</label></div>`);
      else if (i <= 45) html.push(`<div class="f"><label for="${id}">Mode ${s}.${i}</label><select id="${id}" name="${id}"><option>Auto</option><option>On</option><option>Off</option></select></div>`);
      else html.push(`<div class="f"><label for="${id}">Notes ${s}.${i}</label><textarea id="${id}" name="${id}"></textarea></div>`);
    }
    html.push('</fieldset>');
  }
  html.push('<button type="submit">Save settings</button></form></body></html>');
  if (n !== 1500) throw new Error(`controls page: ${n} controls`);
  return html.join('');
}

/** Serves generated pages at /generated/<size>.html and /generated/controls-1502.html. */
function serveGenerated(sizes) {
  const pages = new Map(sizes.map((n) => [`/generated/${n}.html`, generatePage(n)]));
  pages.set('/generated/controls-1502.html', generateControlsPage());
  const server = http.createServer((req, res) => {
    const page = pages.get(new URL(req.url, 'http://x').pathname);
    res.writeHead(page ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page || 'not found');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    base: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }),
  })));
}

// ----- lscope ----------------------------------------------------------------------------------

/** `lscope scanner`: one JSON line in, one out. Spawned asynchronously (servers live here). */
function scannerShell() {
  const child = spawn(lscopeBin, ['scanner', ...ARGS], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => pending.shift()?.(JSON.parse(line)));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    send: (msg) => new Promise((resolve) => { pending.push(resolve); child.stdin.write(JSON.stringify(msg) + '\n'); }),
    close: () => { child.stdin.end(); return exited; },
  };
}

/** `lscope run --keep-going -` over `script` (with `bin`); resolves with stdout. */
function runOil(script, bin = lscopeBin) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['run', '--keep-going', '-', ...ARGS], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('close', () => resolve(out));
    child.stdin.end(script);
  });
}

/**
 * Observation sizes (characters and o200k tokens of each `observe` response, ports masked) for
 * `urls`, in one browser of `bin`.
 */
async function observationSizes(urls, bin = lscopeBin) {
  const out = await runOil(urls.map((u) => `goto ${u}\nobserve\n`).join(''), bin);
  // Responses are printed one after another, each starting with "ok <command>" or "error <command>".
  const blocks = out.split(/\n(?=(?:ok|error) (?:goto|observe)\b)/);
  const sizes = blocks.filter((b) => /^(?:ok|error) observe\b/.test(b)).map((b) => {
    const text = b.trimEnd().replaceAll(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
    return { chars: text.length, tokens: tokens(text), ok: b.startsWith('ok'), text };
  });
  return urls.map((u, i) => sizes[i] || { chars: NaN, tokens: NaN, ok: false, text: '' });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** First scan and RUNS - 1 warm scans of `url` (scan_ms inside the page, and round trip). */
async function timeScans(shell, url) {
  const nav = await shell.send({ op: 'goto', url });
  if (!nav.ok) throw new Error(`goto ${url}: ${nav.error}`);
  const page = [];
  const trip = [];
  let stats = null;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = await shell.send(SCAN);
    trip.push(performance.now() - t0);
    if (!r.ok) throw new Error(`scan ${url}: ${r.error}`);
    page.push(r.data.stats.scan_ms);
    stats = r.data.stats;
  }
  return { first: page[0], firstTrip: trip[0], warm: median(page.slice(1)), warmMin: Math.min(...page.slice(1)),
    warmTrip: median(trip.slice(1)), stats };
}

function table(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const growth = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && a ? `${((b / a - 1) * 100).toFixed(1)} %` : '-');

async function main() {
  const generated = await serveGenerated(SIZES);
  const fixtures = await startFixtureServer();
  const shell = scannerShell();
  try {
    console.log(`lscope: ${lscopeBin}\nscan command: ${JSON.stringify(SCAN)}\nwarm = median of ${RUNS - 1} scans after the first; ` +
      'scan = scan_ms measured in the page, trip = round trip through lscope (CDP, JSON)\n');

    // Generated pages: scan time and observation size.
    const genUrls = SIZES.map((n) => `${generated.base}/generated/${n}.html`);
    const controlsUrl = `${generated.base}/generated/controls-1502.html`;
    const genRows = [];
    for (let i = 0; i < SIZES.length; i++) genRows.push(await timeScans(shell, genUrls[i]));
    const controls = await timeScans(shell, controlsUrl);
    const genObs = await observationSizes([...genUrls, controlsUrl]);
    const before = COMPARE ? await observationSizes([...genUrls, controlsUrl], COMPARE) : null;
    const row = (name, r, o, b) => [name, r.stats.total_scanned, r.stats.interactive, r.stats.returned,
      `${r.first} ms`, `${r.warm} ms`, `${r.warmMin} ms`, `${r.warmTrip.toFixed(1)} ms`, o.chars, o.tokens,
      ...(b ? [b.tokens, growth(b.tokens, o.tokens)] : [])];
    console.log(table(
      ['page', 'elements', 'interactive', 'returned', 'first scan', 'warm scan', 'warm min', 'warm trip', 'observe chars',
        'observe tokens', ...(COMPARE ? ['tokens before', 'growth'] : [])],
      [...SIZES.map((n, i) => row(`generated ${n}`, genRows[i], genObs[i], before && before[i])),
        row('controls 1502', controls, genObs[SIZES.length], before && before[SIZES.length])]));
    // Growth between consecutive sizes (scan_ms has 1 ms resolution: small pages say little).
    for (let i = 1; i < SIZES.length; i++) {
      const a = genRows[i - 1];
      const b = genRows[i];
      if (a.warm < 5) continue;
      const g = (b.warm / a.warm) / (b.stats.total_scanned / a.stats.total_scanned);
      console.log(`\nwarm scan time per element, ${SIZES[i]} vs ${SIZES[i - 1]}: x${g.toFixed(2)} (1.00 = linear)`);
    }
    const saveLine = genObs[SIZES.length].text.split('\n').find((l) => l.includes('Save settings'));
    console.log(`\ncontrols 1502: "Save settings" ${saveLine ? 'listed: ' + saveLine.trim() : 'not in the observation'}`);

    // tests/fixtures pages: interactive elements next to observation size.
    const names = fs.readdirSync(fixturesDir).filter((f) => f.endsWith('.html')).sort();
    const urls = names.map((f) => `${fixtures.base}/${f}`);
    const counts = [];
    for (const url of urls) {
      const nav = await shell.send({ op: 'goto', url });
      const r = nav.ok ? await shell.send({ cmd: 'scan', max_elements: 1000 }) : nav;
      counts.push(r.ok ? r.data.stats : null);
    }
    const obs = await observationSizes(urls);
    const obsBefore = COMPARE ? await observationSizes(urls, COMPARE) : null;
    const rows = names.map((name, i) => {
      const s = counts[i];
      const o = obs[i];
      return [name, s ? s.interactive : '-', s ? s.visible : '-', o.ok ? o.chars : `${o.chars} (error)`, o.tokens,
        s && s.visible ? (o.chars / s.visible).toFixed(0) : '-',
        ...(obsBefore ? [obsBefore[i].tokens, growth(obsBefore[i].tokens, o.tokens)] : [])];
    });
    const sum = (list, k) => list.reduce((acc, o) => acc + (Number.isFinite(o[k]) ? o[k] : 0), 0);
    console.log('\n' + table(['tests/fixtures page', 'interactive', 'visible', 'observe chars', 'observe tokens', 'chars/visible',
      ...(COMPARE ? ['tokens before', 'growth'] : [])], rows));
    console.log(`\n${names.length} pages, ${sum(obs, 'chars')} observation characters, ${sum(obs, 'tokens')} tokens in all ` +
      `(median ${median(obs.map((o) => o.chars).filter(Number.isFinite))} characters)` +
      (obsBefore ? `; before: ${sum(obsBefore, 'tokens')} tokens (${growth(sum(obsBefore, 'tokens'), sum(obs, 'tokens'))})` : ''));
  } finally {
    await shell.close();
    await fixtures.close();
    await generated.close();
  }
}

main().catch((e) => {
  console.error('bench failed:', e.message);
  process.exitCode = 1;
});
