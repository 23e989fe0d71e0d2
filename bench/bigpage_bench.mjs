// Big pages and big files (issue 16 §4): what a page of 10,000 and 50,000 elements costs lscope
// (goto, observe, a click on the last card, each including its response; the observation's size;
// the server's peak RSS), and a 1 GB download (time until reported, the server's RSS growth).
//
//   node bench/bigpage_bench.mjs [--elements 10000,50000] [--runs 1] [--no-download]
//
// One fresh lscope (CDP, LSCOPE_BIN or build/lscope) per size; observe and the click are medians
// of --runs. Prints a table and the growth of time per element from each size to the next
// (issue 17 §4: 1.00 is linear, below it sub-linear); no thresholds.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../tests/e2e/lib/fixture_server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
process.env.LSCOPE_BIN ||= path.resolve(here, '../build/lscope');
const { connect, memoryMb } = await import('../tests/e2e/lib/lscope.js');
function option(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}
const SIZES = option('--elements', '10000,50000').split(',').map(Number);
const RUNS = Number(option('--runs', '1'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const site = await startFixtureServer({ extraRoots: { '/e2e-pages/': path.resolve(here, '../tests/e2e/pages') } });
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

async function lscope() {
  const { client, transport } = await connect(['--tools', 'all']);
  const timed = async (name, args = {}) => {
    const t0 = performance.now();
    const r = await client.callTool({ name, arguments: args });
    const ms = performance.now() - t0;
    if (r.isError) throw new Error(`${name}: ${text(r)}`);
    return { ms, out: text(r) };
  };
  return { client, pid: transport.pid, timed };
}

console.log('elements  goto ms  observe ms  click last ms  observe chars  lscope peak RSS MB');
const curve = [];
for (const elements of SIZES) {
  const cards = Math.round(elements / 6);
  const s = await lscope();
  try {
    await s.timed('goto', { url: `${site.base}/login.html` });  // the browser started
    const go = await s.timed('goto', { url: `${site.base}/e2e-pages/huge.html?cards=${cards}` });
    const looks = [];
    const clicks = [];
    for (let i = 0; i < RUNS; i++) {
      looks.push(await s.timed('observe'));
      clicks.push((await s.timed('click', { target: `Add item ${cards}` })).ms);
    }
    const look = { ms: median(looks.map((l) => l.ms)), out: looks[0].out };
    const click = { ms: median(clicks) };
    curve.push({ elements: cards * 6, observe: look.ms, click: click.ms });
    console.log(`${String(cards * 6).padStart(8)}  ${go.ms.toFixed(0).padStart(7)}  ${look.ms.toFixed(0).padStart(10)}  ` +
      `${click.ms.toFixed(0).padStart(13)}  ${String(look.out.length).padStart(13)}  ${memoryMb(s.pid, 'VmHWM').toFixed(0).padStart(18)}`);
  } finally {
    await s.client.close();
  }
}

console.log('\ngrowth of time per element (1.00 = linear)');
for (let i = 1; i < curve.length; i++) {
  const [a, b] = [curve[i - 1], curve[i]];
  const per = (k) => ((b[k] / b.elements) / (a[k] / a.elements)).toFixed(2);
  console.log(`${a.elements} -> ${b.elements}: observe x${per('observe')}, click x${per('click')}`);
}

if (process.argv.includes('--no-download')) {
  await site.close();
  process.exit(0);
}
const s = await lscope();
try {
  await s.timed('goto', { url: `${site.base}/e2e-pages/big-download.html` });
  const rssBefore = memoryMb(s.pid, 'VmRSS');
  const t0 = performance.now();
  const sent = new Promise((resolve) => site.events.on('sent', (p) => { if (p === '/files/big.bin') resolve(); }));
  let said = (await s.timed('click', { target: 'Download the disk image' })).out;
  if (!/download \/\S+big\.bin \d+ bytes/.test(said)) await sent;  // the last byte is out
  while (!/download \/\S+big\.bin \d+ bytes/.test(said)) said = (await s.timed('observe')).out;
  const secs = (performance.now() - t0) / 1000;
  const file = said.match(/download (\/\S+big\.bin)/)[1];
  const size = fs.statSync(file).size;
  fs.rmSync(file, { force: true });
  console.log(`\ndownload of 1 GB: reported after ${secs.toFixed(1)} s (${(size / 1048576 / secs).toFixed(0)} MB/s), ` +
    `${size} bytes on disk; lscope RSS ${rssBefore.toFixed(1)} MB before, ${memoryMb(s.pid, 'VmRSS').toFixed(1)} MB after, peak ${memoryMb(s.pid, 'VmHWM').toFixed(1)} MB`);
} finally {
  await s.client.close();
  await site.close();
}
