// Scan benchmark: scanner time on generated pages of 100 / 1,000 / 10,000 elements and the size
// of what an agent reads (observe) on those pages and on every tests/fixtures page.
//
//   node bench/scan_bench.mjs [--runs N] [--sizes 100,1000,10000] [--args "--backend webdriver"]
//
// Drives the real binary (LSCOPE_BIN, default build/lscope): `lscope scanner` for scan times,
// `lscope run -` (goto + observe) for observation sizes. Prints tables and exits 0 (no thresholds;
// 1 only when it could not run).
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

/** Serves generated pages at /generated/<size>.html. */
function serveGenerated(sizes) {
  const pages = new Map(sizes.map((n) => [`/generated/${n}.html`, generatePage(n)]));
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

/** `lscope run --keep-going -` over `script`; resolves with stdout. */
function runOil(script) {
  return new Promise((resolve, reject) => {
    const child = spawn(lscopeBin, ['run', '--keep-going', '-', ...ARGS], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('close', () => resolve(out));
    child.stdin.end(script);
  });
}

/** Observation sizes (characters of each `observe` response) for `urls`, in one browser. */
async function observationSizes(urls) {
  const out = await runOil(urls.map((u) => `goto ${u}\nobserve\n`).join(''));
  // Responses are printed one after another, each starting with "ok <command>" or "error <command>".
  const blocks = out.split(/\n(?=(?:ok|error) (?:goto|observe)\b)/);
  const sizes = blocks.filter((b) => /^(?:ok|error) observe\b/.test(b)).map((b) => ({
    chars: b.trimEnd().length, ok: b.startsWith('ok'),
  }));
  return urls.map((u, i) => sizes[i] || { chars: NaN, ok: false });
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
    const r = await shell.send({ cmd: 'scan' });
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

async function main() {
  const generated = await serveGenerated(SIZES);
  const fixtures = await startFixtureServer();
  const shell = scannerShell();
  try {
    console.log(`lscope: ${lscopeBin}\nwarm = median of ${RUNS - 1} scans after the first; scan = scan_ms measured in the page, ` +
      'trip = round trip through lscope (CDP, JSON)\n');

    // Generated pages: scan time and observation size.
    const genUrls = SIZES.map((n) => `${generated.base}/generated/${n}.html`);
    const genRows = [];
    for (let i = 0; i < SIZES.length; i++) genRows.push(await timeScans(shell, genUrls[i]));
    const genObs = await observationSizes(genUrls);
    console.log(table(
      ['page', 'elements', 'interactive', 'returned', 'first scan', 'warm scan', 'warm min', 'warm trip', 'observe chars'],
      SIZES.map((n, i) => {
        const r = genRows[i];
        return [`generated ${n}`, r.stats.total_scanned, r.stats.interactive, r.stats.returned,
          `${r.first} ms`, `${r.warm} ms`, `${r.warmMin} ms`, `${r.warmTrip.toFixed(1)} ms`, genObs[i].chars];
      })));
    // Growth between consecutive sizes (scan_ms has 1 ms resolution: small pages say little).
    for (let i = 1; i < SIZES.length; i++) {
      const a = genRows[i - 1];
      const b = genRows[i];
      if (a.warm < 5) continue;
      const growth = (b.warm / a.warm) / (b.stats.total_scanned / a.stats.total_scanned);
      console.log(`\nwarm scan time per element, ${SIZES[i]} vs ${SIZES[i - 1]}: x${growth.toFixed(2)} (1.00 = linear)`);
    }

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
    const rows = names.map((name, i) => {
      const s = counts[i];
      const o = obs[i];
      return [name, s ? s.interactive : '-', s ? s.visible : '-', o.ok ? o.chars : `${o.chars} (error)`,
        s && s.visible ? (o.chars / s.visible).toFixed(0) : '-'];
    });
    const total = obs.reduce((sum, o) => sum + (Number.isFinite(o.chars) ? o.chars : 0), 0);
    console.log('\n' + table(['tests/fixtures page', 'interactive', 'visible', 'observe chars', 'chars/visible'], rows));
    console.log(`\n${names.length} pages, ${total} observation characters in all (median ${median(obs.map((o) => o.chars).filter(Number.isFinite))})`);
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
