// What a site pack costs (issue 14: auto-load plus scan adds < 5 ms to goto): the real server
// over MCP stdio with the official client, headless Chromium reaching the github.com copy
// (tests/fixtures/sites) under its real name. The same goto and observe run interleaved with the
// github.com pack auto-loaded (its intents listed, its 6 patterns evaluated on every scan) and
// with it unloaded (pack unload: no intents, no patterns); the difference of the medians is the
// pack's cost. Exits 0 whatever the numbers.
//   node bench/packs_bench.mjs [--runs 21]      (npm ci in tests/e2e first)
const { connect, text } = await import('../tests/e2e/lib/lscope.js');
const { startSiteServer } = await import('../tests/e2e/lib/site_server.js');

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 21;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const sites = await startSiteServer();
const { client } = await connect(['--tools', 'all', '--browser-arg=--ignore-certificate-errors',
  `--browser-arg=--host-resolver-rules=${sites.hostRules}`]);
const call = async (name, args = {}) => {
  const t0 = process.hrtime.bigint();
  const r = await client.callTool({ name, arguments: args });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.isError) throw new Error(`${name} failed: ${text(r)}`);
  return { ms, body: text(r) };
};

const url = 'https://github.com/login';
await call('goto', { url });  // browser start, caches
const t = { with: { goto: [], observe: [] }, without: { goto: [], observe: [] } };
for (let i = 0; i < runs; i++) {
  for (const mode of i % 2 ? ['without', 'with'] : ['with', 'without']) {
    await call('pack', { action: mode === 'with' ? 'load' : 'unload', name: 'github.com' });
    await call('goto', { url });  // the first goto after a switch: not timed
    const g = await call('goto', { url });
    if (mode === 'with' && !/github_login/.test(g.body + (await call('observe')).body)) throw new Error('pack patterns missing');
    t[mode].goto.push(g.ms);
    t[mode].observe.push((await call('observe')).ms);
  }
}
const row = (k) => `${k.padEnd(8)} with pack ${median(t.with[k]).toFixed(1).padStart(6)} ms   without ${median(t.without[k]).toFixed(1).padStart(6)} ms   difference ${(median(t.with[k]) - median(t.without[k])).toFixed(1).padStart(5)} ms`;
console.log(`github.com pack on https://github.com/login (${runs} interleaved runs each, medians)`);
console.log(row('goto'));
console.log(row('observe'));
await client.close();
await sites.close();
