// Corpus benchmark: runs every task of the real-library corpus (tests/fixtures/corpus: reach/,
// intents/, consent/, ...) on one backend and prints, per kind, "N/M tasks", the failures with
// their one-line reasons, and the median size of intent calls' responses in o200k tokens.
//
//   node bench/corpus_bench.mjs [--args "--backend webdriver"] [--only TEXT|/REGEX/]
//                               [--kind reach|intent] [--verbose] [--json FILE]
//
// Drives the real binary (LSCOPE_BIN, default build/lscope) through tests/e2e/lib/corpus.js, the
// harness tests/corpus/corpus_suite.js uses: one `lscope run -` per task, judged by what the page
// itself reported. Exits 0 whatever the numbers (1 only when it could not run).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const here = path.dirname(fileURLToPath(import.meta.url));
process.env.LSCOPE_BIN ||= path.resolve(here, '../build/lscope');
// The harness reads LSCOPE_BACKEND for its default arguments; this bench passes its own.
delete process.env.LSCOPE_BACKEND;
const { startFixtureServer, startCrossOriginServer } = await import('../tests/e2e/lib/fixture_server.js');
const { loadTasks, runTask, isIntentCommand } = await import('../tests/e2e/lib/corpus.js');

function option(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}
// Backend options for every lscope started, e.g. --args "--backend webdriver" (default: CDP).
const ARGS = option('--args', '').split(' ').filter(Boolean);
const onlyArg = option('--only', '');
const only = /^\/.*\/$/.test(onlyArg) ? new RegExp(onlyArg.slice(1, -1)) : onlyArg || undefined;
const KIND = option('--kind', '');
const VERBOSE = process.argv.includes('--verbose');
const JSON_OUT = option('--json', '');

// The backend's name in tests/e2e/backends/expectations.json (for listed differences).
const expectations = JSON.parse(fs.readFileSync(path.resolve(here, '../tests/e2e/backends/expectations.json'), 'utf8'));
const backend = Object.entries(expectations.backends).find(([, b]) => b.args.join(' ') === ARGS.join(' '))?.[0];
const listed = (task) => (backend && expectations.differences[backend]?.[`corpus ${task.name}`]) || '';

if (!fs.existsSync(process.env.LSCOPE_BIN)) {
  console.error(`no lscope binary at ${process.env.LSCOPE_BIN} (build it, or set LSCOPE_BIN)`);
  process.exit(1);
}
const tasks = loadTasks(undefined, { only }).filter((t) => !KIND || t.kind === KIND);
if (!tasks.length) {
  console.error('no corpus task matches');
  process.exit(1);
}

const site = await startFixtureServer();
const xsite = await startCrossOriginServer({ reports: site.reports });
site.xbase = xsite.base;

const median = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(`corpus: ${tasks.length} tasks, backend ${backend || ARGS.join(' ') || 'cdp'} (${process.env.LSCOPE_BIN})`);
const results = [];
const t0 = Date.now();
for (const task of tasks) {
  const r = await runTask(task, site, { extraArgs: ARGS });
  const intentTokens = r.responses.filter((c) => isIntentCommand(c.name)).map((c) => encode(c.response).length);
  results.push({ name: task.name, kind: task.kind, title: task.title, ok: r.ok, why: r.why, ms: r.ms,
    listed: listed(task), intentTokens, output: r.output });
  process.stdout.write(`${r.ok ? 'pass' : 'FAIL'} ${task.name} (${(r.ms / 1000).toFixed(1)} s)\n`);
  if (VERBOSE && !r.ok) console.log(r.output.replace(/^/gm, '    '));
}
await site.close();
await xsite.close();

console.log('');
const kinds = [...new Set(results.map((r) => r.kind))].sort();
for (const kind of kinds) {
  const of = results.filter((r) => r.kind === kind);
  console.log(`${kind}: ${of.filter((r) => r.ok).length}/${of.length} tasks`);
}
const failures = results.filter((r) => !r.ok);
if (failures.length) {
  console.log('\nfailures:');
  for (const f of failures) console.log(`  ${f.name}: ${f.why}${f.listed ? ' [listed difference]' : ''}`);
}
const tokens = results.flatMap((r) => r.intentTokens);
console.log(`\nintent calls: ${tokens.length}, median response ${tokens.length ? median(tokens) : '-'} o200k tokens` +
  (tokens.length ? ` (max ${Math.max(...tokens)})` : ''));
console.log(`total ${((Date.now() - t0) / 1000).toFixed(0)} s`);
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ backend: backend || ARGS.join(' '), results }, null, 1));
