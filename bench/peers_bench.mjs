// Lemmascope beside its peers (issue 17): the real servers over MCP stdio with the official
// client, on the same fixture pages and the same Chromium (/usr/bin/chromium, headless), in one
// run, interleaved iteration by iteration so that the ratios hold on a noisy machine.
//   Lemmascope (build/lscope, or LSCOPE_BIN), Playwright MCP and chrome-devtools-mcp (pinned in
//   bench/package.json: npm ci in bench/ and tests/e2e first).
// Per page and server: goto (with whatever the server answers), observe (Playwright's
// browser_snapshot, chrome-devtools' take_snapshot) with its o200k tokens, typing one field
// (Playwright's browser_type, chrome-devtools' fill) and one click that does not navigate, each
// including the response. Refs and uids for the peers come from their own snapshot, taken just
// before (not timed as part of the action). Prints medians, the peers' ratios to Lemmascope, and
// the load average. Exits 0 whatever the numbers.
//   node bench/peers_bench.mjs [--runs 5] [--only lscope,playwright,devtools] [--before OLD_LSCOPE]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const here = path.dirname(fileURLToPath(import.meta.url));
const { lscopeBin, text } = await import('../tests/e2e/lib/lscope.js');
const { startFixtureServer } = await import('../tests/e2e/lib/fixture_server.js');
const { Client } = await import('../tests/e2e/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js');
const { StdioClientTransport } = await import('../tests/e2e/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js');

const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const runs = Number(arg('--runs', 5));
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const tokens = (s) => encode(s).length;
const version = (pkg) => JSON.parse(fs.readFileSync(path.join(here, 'node_modules', pkg, 'package.json'))).version;

// The switches this machine's Chromium needs (README), for every server's browser.
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'peers-bench-'));  // Playwright MCP writes files in its cwd
const pwConfig = path.join(work, 'playwright.json');
fs.writeFileSync(pwConfig, JSON.stringify({
  browser: { browserName: 'chromium', isolated: true,
    launchOptions: { executablePath: '/usr/bin/chromium', headless: true, args: chromiumArgs } },
}));

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Each server: how to start it and how to say each action in its own tools.
const servers = {
  lscope: {
    label: 'Lemmascope',
    command: [lscopeBin, []],
    goto: (url) => ['goto', { url }],
    observe: () => ['observe', {}],
    type: (name, value) => ['type', { target: name, text: value }],
    click: (name) => ['click', { target: name }],
  },
  playwright: {
    label: `Playwright MCP ${version('@playwright/mcp')}`,
    command: [path.join(here, 'node_modules/.bin/playwright-mcp'), ['--config', pwConfig, '--output-dir', work]],
    goto: (url) => ['browser_navigate', { url }],
    observe: () => ['browser_snapshot', {}],
    ref: (snapshot, name, roles) => snapshot.match(new RegExp(`- (?:${roles}) "${escape(name)}"[^\\n]*?\\[ref=(\\w+)\\]`))?.[1],
    type: (name, value, ref) => ['browser_type', { element: name, target: ref, text: value }],
    click: (name, ref) => ['browser_click', { element: name, target: ref }],
  },
  devtools: {
    label: `chrome-devtools-mcp ${version('chrome-devtools-mcp')}`,
    command: [path.join(here, 'node_modules/.bin/chrome-devtools-mcp'),
      ['--headless', '--isolated', '--no-usage-statistics', '--no-performance-crux', '--executablePath', '/usr/bin/chromium',
        ...chromiumArgs.map((a) => `--chromeArg=${a}`)]],
    goto: (url) => ['navigate_page', { pageId: 1, url }],
    observe: () => ['take_snapshot', { pageId: 1 }],
    ref: (snapshot, name, roles) => snapshot.match(new RegExp(`uid=(\\S+) (?:${roles}) "${escape(name)}"`))?.[1],
    type: (name, value, uid) => ['fill', { pageId: 1, uid, value }],
    click: (name, uid) => ['click', { pageId: 1, uid }],
  },
};
// --before BIN: also an older Lemmascope build, for a before/after table in the same run.
if (arg('--before')) servers.before = { ...servers.lscope, label: `Lemmascope ${arg('--before')}`, command: [arg('--before'), []] };
const only = arg('--only', Object.keys(servers).join(',')).split(',');

// Seven pages: a field to type into and a click that stays on the page (on orders.html the click
// fetches from the server and renders what comes back).
const pages = [
  ['login.html', 'Email', 'Remember me'],
  ['search.html', 'Search', 'Search'],
  ['shop.html', 'Search the shop', 'Search the shop'],
  ['widgets.html', 'Notes', 'Billing'],
  ['signup.html', 'First name', 'Last name'],
  ['scanner/checkout_form.html', 'Full name', 'PayPal'],
  ['orders.html', 'Customer', 'Find orders'],
];

const fixtures = await startFixtureServer({ extraRoots: { '/scanner/': path.join(here, '../scanner/fixtures') } });
for (const key of only) {
  const s = servers[key];
  const transport = new StdioClientTransport({ command: s.command[0], args: s.command[1], cwd: work, stderr: 'ignore' });
  s.client = new Client({ name: 'lemmascope-bench', version: '1.0.0' });
  await s.client.connect(transport);
}

async function timed(s, [name, args]) {
  const t0 = process.hrtime.bigint();
  const r = await s.client.callTool({ name, arguments: args });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.isError) throw new Error(`${s.label}: ${name} ${JSON.stringify(args)} failed: ${text(r)}`);
  return { ms, body: text(r) };
}

// The roles a snapshot line may have for each target (a heading "Search" is not the field).
const fieldRoles = 'textbox|searchbox|combobox';
const clickRoles = 'textbox|searchbox|combobox|checkbox|radio|button|tab|link';

// One iteration on one page for one server: goto, observe, type, click.
async function iteration(s, url, field, target, i, out) {
  const go = await timed(s, s.goto(url));
  const look = await timed(s, s.observe());
  let ref = s.ref ? s.ref((await timed(s, s.observe())).body, field, fieldRoles) : undefined;
  if (s.ref && !ref) throw new Error(`${s.label}: no ref for "${field}" in its snapshot`);
  const typed = await timed(s, s.type(field, `value ${i}`, ref));
  ref = s.ref ? s.ref((await timed(s, s.observe())).body, target, clickRoles) : undefined;
  if (s.ref && !ref) throw new Error(`${s.label}: no ref for "${target}" in its snapshot`);
  const clicked = await timed(s, s.click(target, ref));
  for (const [k, v] of Object.entries({ goto: go, observe: look, type: typed, click: clicked })) {
    out[k].push(v.ms);
    out[`${k}Tokens`].push(tokens(v.body));
  }
}

const load = [os.loadavg()[0]];
const results = {};
for (const [page, field, target] of pages) {
  const url = `${fixtures.base}/${page}`;
  results[page] = {};
  for (const key of only) {
    results[page][key] = Object.fromEntries(['goto', 'observe', 'type', 'click'].flatMap((k) => [[k, []], [`${k}Tokens`, []]]));
    await timed(servers[key], servers[key].goto(url));  // browser start, caches: not timed
  }
  for (let i = 0; i < runs; i++) {
    const order = only.map((_, j) => only[(i + j) % only.length]);  // each server first in turn
    for (const key of order) await iteration(servers[key], url, field, target, i, results[page][key]);
  }
  load.push(os.loadavg()[0]);
}

const cols = only.map((k) => servers[k].label);
console.log(`Lemmascope beside its peers: ${runs} interleaved runs per page, medians; ratio = peer / Lemmascope`);
console.log(`${os.cpus().length} cores, load average (1 min) ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)} during the run; ${new Date().toISOString().slice(0, 10)}`);
console.log(`servers: ${cols.join(', ')}`);
const rows = [['goto', 'ms'], ['observe', 'ms'], ['observeTokens', 'tokens'], ['type', 'ms'], ['typeTokens', 'tokens'],
  ['click', 'ms'], ['clickTokens', 'tokens'], ['gotoTokens', 'tokens']];
for (const [k, unit] of rows) {
  console.log(`\n${k} (${unit})`);
  console.log(`${'page'.padEnd(28)}${only.map((key) => key.padStart(12)).join('')}${only.slice(1).map((key) => `${key}/lscope`.padStart(18)).join('')}`);
  const ratios = only.slice(1).map(() => []);
  for (const [page] of pages) {
    const m = only.map((key) => median(results[page][key][k]));
    only.slice(1).forEach((_, j) => ratios[j].push(m[j + 1] / m[0]));
    console.log(`${page.padEnd(28)}${m.map((v) => v.toFixed(unit === 'ms' ? 1 : 0).padStart(12)).join('')}` +
      `${m.slice(1).map((v) => `${(v / m[0]).toFixed(2)}`.padStart(18)).join('')}`);
  }
  if (only.length > 1) {
    console.log(`${'median of the ratios'.padEnd(28)}${' '.repeat(12 * only.length)}${ratios.map((r) => median(r).toFixed(2).padStart(18)).join('')}`);
  }
}
for (const key of only) await servers[key].client.close();
await fixtures.close();
fs.rmSync(work, { recursive: true, force: true });
