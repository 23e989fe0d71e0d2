// What the extension backend costs against CDP (issue 15): the real server over MCP stdio with
// the official client, on the same fixture pages, side by side in one run. One lscope drives
// headless Chromium over CDP (the default); one drives a headless Chromium that lscope started
// with the Lemmascope extension loaded and paired (--extension-launch), every command going
// through the extension's WebSocket and chrome.debugger; the third is the same launch with a
// second extension that puts a frame of its own into every page (as password managers do), so
// the browser refuses chrome.debugger and the relay works in script mode (chrome.scripting,
// synthesized input). All are measured interleaved, page by page: the ratio holds on a noisy
// machine, the absolute times do not.
// Exits 0 whatever the numbers.
//   node bench/extension_bench.mjs [--runs 15]      (npm ci in tests/e2e first)
const { lscopeBin, text } = await import('../tests/e2e/lib/lscope.js');
const { startFixtureServer } = await import('../tests/e2e/lib/fixture_server.js');
const { Client } = await import('../tests/e2e/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js');
const { StdioClientTransport } = await import('../tests/e2e/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js');

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 15;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

async function start(args) {
  const transport = new StdioClientTransport({ command: lscopeBin, args, stderr: 'ignore' });
  const client = new Client({ name: 'lemmascope-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

// Each page, and a click on it that neither navigates nor changes the page much.
const pages = [
  ['login.html', 'Email'],
  ['search.html', 'Search'],
  ['shop.html', 'Search the shop'],
  ['widgets.html', 'Notes'],
  ['settings.html', 'Dashboard'],
  ['signup.html', 'First name'],
];

const fixtures = await startFixtureServer();
const injector = new URL('../tests/fixtures/extensions/frame-injector', import.meta.url).pathname;
const launch = ['--backend', 'extension', '--extension-launch', '--extension-port', '0'];
const servers = {
  cdp: await start([]),
  extension: await start(launch),
  script: await start([...launch, `--browser-arg=--load-extension=${injector}`]),
};
const names = Object.keys(servers);
const timed = async (client, name, args) => {
  const t0 = process.hrtime.bigint();
  const r = await client.callTool({ name, arguments: args });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text(r)}`);
  return ms;
};

const t = {};
for (const [page, target] of pages) {
  const url = `${fixtures.base}/${page}`;
  t[page] = Object.fromEntries(names.map((n) => [n, { goto: [], observe: [], click: [] }]));
  for (const s of Object.values(servers)) await timed(s, 'goto', { url });  // start, caches: not timed
  for (let i = 0; i < runs; i++) {
    // A different order each run, so no server always goes first.
    const order = names.map((_, k) => names[(k + i) % names.length]);
    for (const name of order) {
      const s = servers[name];
      t[page][name].goto.push(await timed(s, 'goto', { url }));
      t[page][name].observe.push(await timed(s, 'observe', {}));
      // settings.html's "Dashboard" is a link: click it only where it stays (a hover-free target).
      if (page !== 'settings.html') t[page][name].click.push(await timed(s, 'click', { target }));
    }
  }
}

console.log(`CDP, extension (chrome.debugger) and extension in script mode, headless Chromium, ${runs} interleaved runs per page (medians, ms; x: against CDP)`);
console.log(`page            ${['goto', 'observe', 'click'].map((k) => `${k} cdp / ext / script`.padEnd(40)).join('')}`);
const ratios = { extension: { goto: [], observe: [], click: [] }, script: { goto: [], observe: [], click: [] } };
for (const [page] of pages) {
  const cols = ['goto', 'observe', 'click'].map((k) => {
    const a = t[page].cdp[k];
    if (!a.length) return '-'.padEnd(40);
    const cells = [median(a).toFixed(1).padStart(6)];
    for (const n of ['extension', 'script']) {
      const b = t[page][n][k];
      ratios[n][k].push(median(b) / median(a));
      cells.push(`${median(b).toFixed(1).padStart(6)} (x${(median(b) / median(a)).toFixed(2)})`);
    }
    return cells.join(' / ').padEnd(40);
  });
  console.log(`${page.padEnd(16)}${cols.join('')}`);
}
for (const n of ['extension', 'script']) {
  for (const k of Object.keys(ratios[n])) {
    console.log(`${k}: ${n} / CDP, median of the pages' ratios x${median(ratios[n][k]).toFixed(2)}`);
  }
}
for (const s of Object.values(servers)) await s.close();
await fixtures.close();
