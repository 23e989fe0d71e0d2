// Soak (issue 16 §5): N concurrent MCP sessions over Streamable HTTP against one `lscope serve
// --http`, each looping goto / observe / type / click / intent on fixture pages for a while.
// Checks that no call fails, that sessions stay isolated (each sees only its own typing, its own
// cookies, its own session id), and that the server's RSS and open file descriptors stay flat
// after warm-up; prints those figures.
//
//   node bench/soak_bench.mjs [--sessions 20] [--seconds 600] [--check]
//
// With --check it exits 1 when a check fails (the 1-minute CI run: ctest `soak`); without, it
// only prints. LSCOPE_BIN picks the binary (default build/lscope).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer, accounts } from '../tests/e2e/lib/fixture_server.js';
import { startHttpServer, httpClient } from '../tests/e2e/lib/http_server.js';
import { memoryMb } from '../tests/e2e/lib/lscope.js';

const here = path.dirname(fileURLToPath(import.meta.url));
process.env.LSCOPE_BIN ||= path.resolve(here, '../build/lscope');

function option(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : dflt;
}
const SESSIONS = Number(option('--sessions', 20));
const SECONDS = Number(option('--seconds', 600));
const CHECK = process.argv.includes('--check');
// RSS may grow by this much between the middle and the last third of the run (allocator noise).
const RSS_SLACK = 0.25;

const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : NaN; };

// The server's descriptors, and how many of them are HTTP connections to its port: those come and
// go with the clients' connection pools (each keeps a few per origin, idle ones for seconds), so
// they are not a leak while they close once the sessions end. Read from the process's own
// /proc/net/tcp{,6}: the socket inodes whose local port is the server's.
function sample(pid, port) {
  const http = new Set();
  for (const table of ['tcp', 'tcp6']) {
    let rows = [];
    try { rows = fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1); } catch { continue; }
    for (const row of rows) {
      const c = row.trim().split(/\s+/);   // sl local_address rem_address st … uid timeout inode
      if (c.length > 9 && parseInt(c[1].split(':')[1], 16) === port) http.add(`socket:[${c[9]}]`);
    }
  }
  let fds = 0;
  let httpFds = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    fds += 1;
    try { if (http.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))) httpFds += 1; } catch { /* closed meanwhile */ }
  }
  return { t: Date.now(), rssMb: memoryMb(pid, 'VmRSS'), fds, httpFds, otherFds: fds - httpFds };
}

const site = await startFixtureServer();
const server = await startHttpServer(['--tools', 'all']);
const pid = server.child.pid;
const port = Number(new URL(server.url).port);
// The baseline: the browser started and one session come and gone.
{
  const { client, transport } = await httpClient(server.url);
  await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
  await transport.terminateSession();
  await client.close();
}
const baseline = sample(pid, port);
const samples = [baseline];
const sampler = setInterval(() => { try { samples.push(sample(pid, port)); } catch { /* exiting */ } }, 1000);

const failures = [];   // "session i: what"
const calls = { total: 0, byTool: {} };
const started = Date.now();
const deadline = started + SECONDS * 1000;

// One session's loop. Even sessions accept the cookie banner once; odd ones never do, and must
// keep seeing it (cookies are per session).
async function soak(i) {
  const { client, transport } = await httpClient(server.url);
  const id = transport.sessionId;
  const fail = (what) => failures.push(`session ${i}: ${what}`);
  const call = async (name, args = {}) => {
    calls.total += 1;
    calls.byTool[name] = (calls.byTool[name] || 0) + 1;
    const r = await client.callTool({ name, arguments: args });
    const shown = JSON.stringify(args.password ? { ...args, password: '••••••••' } : args);
    if (r.isError) fail(`${name} ${shown}: ${text(r).split('\n')[0]}`);
    return text(r);
  };
  let accepted = false;
  let rounds = 0;
  try {
    while (Date.now() < deadline) {
      rounds += 1;
      const email = `s${i}r${rounds}@example.com`;
      await call('goto', { url: `${site.base}/login.html` });
      await call('type', { target: 'email', text: email });
      const look = await call('observe');
      if (!look.includes(`= "${email}"`)) fail(`observe does not show its own typing ${email}`);
      const other = look.match(/= "s(\d+)r\d+@example\.com"/);
      if (other && Number(other[1]) !== i) fail(`observe shows session ${other[1]}'s typing`);
      const login = await call('login', { username: 'ada@example.com', password: accounts['ada@example.com'] });
      if (!/dashboard\.html/.test(login)) fail(`login did not reach the dashboard: ${login.split('\n')[0]}`);
      await call('goto', { url: `${site.base}/consent-custom.html` });
      const banner = /cookie_banner/.test(await call('observe'));
      if (i % 2 === 0 && !accepted) {
        if (!banner) fail('the banner is gone before this session accepted it');
        await call('click', { target: 'Accept all' });
        accepted = true;
      } else if (i % 2 === 0 && banner) {
        fail('the banner is back after this session accepted it');
      } else if (i % 2 === 1 && !banner) {
        fail('the banner is gone though this session never accepted it (another session\'s cookie?)');
      }
      await call('goto', { url: `${site.base}/search.html` });
      await call('search', { query: `soak ${i}` });
    }
  } catch (e) {
    fail(`threw: ${e.message}`);
  } finally {
    try { await transport.terminateSession(); } catch { /* reported by the loop */ }
    await client.close();
  }
  return { id, rounds };
}

const results = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => soak(i)));
clearInterval(sampler);
// Every session ended: what the server holds when nothing is open, once idle keep-alive
// connections (the client's pool, the server's 15 s) have closed: waited for, at most 30 s.
let idle = sample(pid, port);
for (const t0 = Date.now(); idle.fds > baseline.fds + 2 && Date.now() - t0 < 30000; idle = sample(pid, port)) {
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const held = fs.readdirSync(`/proc/${pid}/fd`).map((fd) => { try { return fs.readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { return '?'; } });
await server.stop();
await site.close();

// Warm-up is the first third; flat means the last third's median is within RSS_SLACK of the
// middle third's, and no more descriptors other than HTTP connections open at the end than after
// warm-up (HTTP connections are the clients' to open; that the server lets them go is the last
// check).
const third = Math.max(1, Math.floor(samples.length / 3));
const middle = samples.slice(third, 2 * third);
const last = samples.slice(2 * third);
const rssMid = median(middle.map((s) => s.rssMb));
const rssLast = median(last.map((s) => s.rssMb));
const fdsMid = Math.max(...middle.map((s) => s.otherFds));
const fdsLast = median(last.map((s) => s.otherFds));
const httpMid = Math.max(...middle.map((s) => s.httpFds));
const httpLast = median(last.map((s) => s.httpFds));
const ids = new Set(results.map((r) => r.id));
const rounds = results.map((r) => r.rounds);
const checks = [
  ['calls without an error', failures.length === 0],
  ['session ids distinct', ids.size === SESSIONS],
  ['RSS flat after warm-up', rssLast <= rssMid * (1 + RSS_SLACK)],
  ['fds flat after warm-up (HTTP connections aside)', fdsLast <= fdsMid],
  ['fds back after the sessions ended', idle.fds <= baseline.fds + 2],
];

const secs = (Date.now() - started) / 1000;
console.log(`soak: ${SESSIONS} sessions over HTTP, ${secs.toFixed(0)} s, ${calls.total} calls ` +
  `(${(calls.total / secs).toFixed(1)}/s), rounds per session ${Math.min(...rounds)}–${Math.max(...rounds)}`);
console.log(`  calls: ${Object.entries(calls.byTool).map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`  server RSS MB: baseline ${baseline.rssMb.toFixed(1)}, peak ${Math.max(...samples.map((s) => s.rssMb)).toFixed(1)}, ` +
  `middle third ${rssMid.toFixed(1)}, last third ${rssLast.toFixed(1)}, all sessions closed ${idle.rssMb.toFixed(1)}`);
console.log(`  server fds (not HTTP connections): baseline ${baseline.otherFds}, middle third max ${fdsMid}, last third ${fdsLast}, ` +
  `all sessions closed ${idle.otherFds}`);
console.log(`  HTTP connections: baseline ${baseline.httpFds}, middle third max ${httpMid}, last third ${httpLast}, all sessions closed ${idle.httpFds}`);
for (const [what, ok] of checks) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
if (idle.fds > baseline.fds + 2) console.log(`  descriptors held at the end: ${held.map((l) => l.replace(/\d+/g, 'N')).sort().join(', ')}`);
for (const f of failures.slice(0, 20)) console.log(`  ! ${f}`);
if (failures.length > 20) console.log(`  ! … ${failures.length - 20} more`);
process.exit(CHECK && checks.some(([, ok]) => !ok) ? 1 : 0);
