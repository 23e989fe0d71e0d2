// extract on a 10,000-row table (issue 13: under 1 s, a bounded response): the real server over
// MCP stdio with the official client, headless Chromium, the fixture page tests/fixtures/extract-big.html.
// Prints the median time of each call (of --runs, default 5), its text size and the row count it
// read. Exits 0 whatever the numbers.
//   node bench/extract_bench.mjs [--runs 5]     (npm ci in tests/e2e and tests/fixtures first)
const { connect, text } = await import('../tests/e2e/lib/lscope.js');
const { startFixtureServer } = await import('../tests/e2e/lib/fixture_server.js');

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
let tokens = (s) => null;
try {
  const { encode } = await import('gpt-tokenizer/encoding/o200k_base');
  tokens = (s) => encode(s).length;
} catch {
  // bench/ not installed: characters only
}

const site = await startFixtureServer();
const { client } = await connect(['--tools', 'all']);
const call = async (name, args) => {
  const t0 = process.hrtime.bigint();
  const r = await client.callTool({ name, arguments: args });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.isError) throw new Error(`${name} failed: ${text(r)}`);
  return { r, ms };
};

await call('goto', { url: `${site.base}/extract-big.html` });
console.log(`extract on a 10,000-row table (${runs} runs, median; o200k tokens when bench/ is installed)`);
for (const args of [{ kind: 'tables' }, { kind: 'tables', offset: 9950 }, { kind: 'tables', max: 200 }, { kind: 'text' }]) {
  const times = [];
  let last;
  for (let i = 0; i < runs; i++) {
    last = await call('extract', args);
    times.push(last.ms);
  }
  const body = text(last.r);
  const t = tokens(body);
  const sc = last.r.structuredContent;
  const read = sc.tables ? `${sc.tables[0].rows.length} of ${sc.tables[0].total_rows} rows` : `${sc.items.length} of ${sc.total} lines`;
  console.log(`  extract ${JSON.stringify(args).padEnd(36)} ${median(times).toFixed(0).padStart(5)} ms  ` +
    `${String(body.length).padStart(6)} chars${t === null ? '' : ` ${String(t).padStart(5)} tokens`}  ${read}`);
}
await client.close();
await site.close();
