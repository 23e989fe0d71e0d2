// Helpers to run the real lscope binary: an MCP client over stdio, and process inspection
// (which Chromium processes belong to a given lscope).
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const lscopeBin = process.env.LSCOPE_BIN || path.resolve(here, '../../../build/lscope');

// Starts lscope over stdio with the official MCP client; returns {client, transport, stderr}.
export async function connect(args = [], { env = {}, capabilities = {} } = {}) {
  const transport = new StdioClientTransport({
    command: lscopeBin,
    args: [...args, ...backendArgs],
    // The learner stays off unless a test turns it on (its store is the user's otherwise).
    env: { LSCOPE_LEARN: 'off', ...process.env, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'lemmascope-e2e', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

// A describe block's own lscope over stdio (started before its tests, closed after):
// {client, transport, call, ok (asserts success, returns the text), fails (asserts an error)}.
export function mcpSession(args = []) {
  const s = {};
  before(async () => { ({ client: s.client, transport: s.transport } = await connect(args)); });
  after(async () => { await s.client.close(); });
  s.call = (name, a = {}) => s.client.callTool({ name, arguments: a });
  s.ok = async (name, a = {}) => {
    const r = await s.call(name, a);
    assert.equal(r.isError, false, `${name} ${JSON.stringify(a)} failed:\n${text(r)}`);
    return text(r);
  };
  s.fails = async (name, a = {}) => {
    const r = await s.call(name, a);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(a)} should fail:\n${text(r)}`);
    return text(r);
  };
  return s;
}

// A process's memory from /proc/PID/status in MB: VmHWM (peak resident) or VmRSS (now).
export function memoryMb(pid, field = 'VmHWM') {
  return Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))[1]) / 1024;
}

// The text of a tools/call result.
export function text(result) {
  return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

// Processes as {pid, ppid, pgid, args}.
export function processes() {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map((line) => {
    const m = line.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/);
    return { pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), args: m[4] };
  });
}

// Every process descending from `root` (not including it).
export function descendants(root) {
  const all = processes();
  const out = [];
  const queue = [root];
  while (queue.length) {
    const p = queue.shift();
    for (const c of all) {
      if (c.ppid === p) { out.push(c); queue.push(c.pid); }
    }
  }
  return out;
}

// True while the process runs. A zombie (exited, not yet reaped: this sandbox's PID 1 does not
// reap orphans) counts as gone.
export function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

// After lscope is SIGKILLed, what it started is ended by its watchdog (a process of its own that
// sees lscope's end): resolves once none of `procs` runs and `dir` (a profile) is gone, or
// rejects after `ms` naming what is left. Each check is a read of /proc, every 50 ms.
export function goneAfterKill(procs, dir, ms = 10000) {
  const left = () => [...procs.filter((p) => alive(p.pid)).map((p) => `pid ${p.pid} (${p.args.slice(0, 60)})`),
    ...(dir && fs.existsSync(dir) ? [`the profile ${dir}`] : [])];
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const check = () => {
      const l = left();
      if (!l.length) return resolve();
      if (Date.now() - t0 > ms) return reject(new Error(`still there ${ms} ms after lscope was killed: ${l.join(', ')}`));
      setTimeout(check, 50);
    };
    check();
  });
}

// Resolves when the process exits (or rejects after ms).
export function waitExit(child, ms = 15000) {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
    const t = setTimeout(() => reject(new Error('process did not exit')), ms);
    child.once('exit', (code, signal) => { clearTimeout(t); resolve({ code, signal }); });
  });
}

// Runs lscope to completion without blocking the event loop (fixture servers live in this
// process), feeding `input` on stdin. Resolves {status, stdout, stderr}.
export function runLscope(args, { input = '', env = { LSCOPE_LEARN: 'off', ...process.env }, bin = lscopeBin } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    // A command that reads no input may exit before it is written (doctor finding no browser).
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

// --- backend conformance ----------------------------------------------------------------------
// LSCOPE_BACKEND names a backend of backends/expectations.json (default cdp): every lscope the
// tests start gets its arguments, so the same scenarios run on CDP and on WebDriver.
const expectations = JSON.parse(fs.readFileSync(path.resolve(here, '../backends/expectations.json'), 'utf8'));
export const backendName = process.env.LSCOPE_BACKEND || 'cdp';
if (!expectations.backends[backendName]) {
  throw new Error(`LSCOPE_BACKEND=${backendName} is not in backends/expectations.json`);
}
// {root} in an argument is the repository's root (a fixture extension's path).
const root = path.resolve(here, '../../..');
export const backendArgs = expectations.backends[backendName].args.map((a) => a.replace('{root}', root));
// The viewport the backend's browser gets ([width, height] in CSS pixels).
export const backendViewport = expectations.backends[backendName].viewport;

// The listed reason this backend cannot do what the named test checks, or false: pass it as
// the test's `skip` option, so every difference lives in the expectations file.
export function unsupported(testName) {
  return expectations.differences[backendName]?.[testName] || false;
}

// Wraps node:test's `it`/`test` so each test is skipped, with its listed reason, where this
// backend is known not to support it: `const it = conform(nodeIt);`.
export function conform(testFn) {
  return (name, body) => testFn(name, { skip: unsupported(name) }, body);
}

// Starts lscope directly (no SDK) so the test controls stdin and signals; waits until a goto of
// `url` has started the browser; returns the process, the browser's (and driver's) pids and
// the browser's profile directory.
export async function startWithBrowser(url, extraArgs = []) {
  const child = spawn(lscopeBin, extraArgs, { stdio: ['pipe', 'pipe', 'pipe'], env: { LSCOPE_LEARN: 'off', ...process.env } });
  const lines = [];
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) { lines.push(buf.slice(0, i)); buf = buf.slice(i + 1); }
  });
  const send = (m) => child.stdin.write(JSON.stringify(m) + '\n');
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'goto', arguments: { url } } });
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('no goto reply')), 30000);
    const check = () => {
      if (lines.some((l) => JSON.parse(l).id === 2)) { clearTimeout(t); resolve(); } else setTimeout(check, 20);
    };
    check();
  });
  // What lscope started, and the members of their process groups: a driver may start the
  // browser detached from itself (chromedriver's Chromium has PID 1 as parent), in its group.
  const started = descendants(child.pid);
  const groups = new Set(started.map((p) => p.pid));
  const browser = [...started, ...processes().filter((p) => groups.has(p.pgid) && !started.some((s) => s.pid === p.pid))];
  const profile = browser.map((p) => p.args.match(/--user-data-dir=(\S+)/)).find(Boolean)?.[1];
  return { child, lines, browser, profile };
}

