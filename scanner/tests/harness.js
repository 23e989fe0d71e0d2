// Test harness for scanner.js: serves the fixtures over HTTP and drives the scanner through the
// real backend (`lscope scanner`: the CDP backend injects it into an isolated world; WebDriver
// backends into the page's realm).
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const readline = require('readline');
const { spawn } = require('child_process');

const LSCOPE_BIN = process.env.LSCOPE_BIN || path.resolve(__dirname, '../../build/lscope');
const FIXTURES = path.join(__dirname, '..', 'fixtures');
// The end-to-end fixture pages (tests/fixtures), which load real npm libraries from their own
// node_modules (`npm ci` there; scripts/setup.sh does it), and the ground truth for them.
const TESTS_FIXTURES = path.resolve(__dirname, '..', '..', 'tests', 'fixtures');
const LIBRARY = path.join(FIXTURES, 'library');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
};
// LSCOPE_SCANNER_JS=path: run that scanner.js instead of the copy embedded in the binary, to try a
// scanner change without rebuilding lscope. Before each scanner command, a document whose
// scanner world does not have it yet gets it (the backend injects its own copy only where
// __lemmascope is unset). Not the production injection path: rebuild before trusting a result.
const SCANNER_JS = process.env.LSCOPE_SCANNER_JS
  ? fs.readFileSync(path.resolve(process.env.LSCOPE_SCANNER_JS), 'utf8') : null;
// LSCOPE_BACKEND names a backend of tests/e2e/backends/expectations.json (default cdp): the
// scanner tests run on it, and skip with the listed reason what it cannot do.
const EXPECTATIONS = JSON.parse(fs.readFileSync(
  path.resolve(__dirname, '..', '..', 'tests', 'e2e', 'backends', 'expectations.json'), 'utf8'));
const BACKEND = process.env.LSCOPE_BACKEND || 'cdp';
if (!EXPECTATIONS.backends[BACKEND]) throw new Error(`LSCOPE_BACKEND=${BACKEND} is not in expectations.json`);
// Whether the listener registry starts after the page's first scripts on this backend: true
// (WebDriver classic injects it with the scanner), 'sometimes' (the extension's script mode, as
// each document commits, which races the parser) or false. A late registry cannot know what
// those scripts registered, and answers on the safe side.
const LATE_REGISTRY = EXPECTATIONS.backends[BACKEND].late_registry || false;
/** Wraps node:test's `test` so a test this backend cannot pass is skipped with its reason. */
function conform(testFn) {
  return (name, body) => testFn(name, { skip: (EXPECTATIONS.differences[BACKEND] || {})[name] || false }, body);
}
// Longest wait for one reply line; commands carry their own (shorter) deadlines inside lscope.
const REPLY_TIMEOUT_MS = 60000;

/**
 * Serves `root` on 127.0.0.1:<random port>; fixtures reach a second origin via "localhost".
 * `missing` lists the paths it answered 404 (a page whose library is not installed).
 */
function serve(root = FIXTURES) {
  const missing = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const urlPath = decodeURIComponent(url.pathname);
    // Labelled pages built on real npm libraries load them as /node_modules/<pkg>/<file>, from
    // tests/fixtures (installed there with `npm ci`), as the end-to-end pages do.
    const base = urlPath.startsWith('/node_modules/') ? TESTS_FIXTURES : root;
    const file = path.join(base, path.normalize(urlPath));
    if (!file.startsWith(base)) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { missing.push(urlPath); res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
      // ?hold=N: the document's first line now, the rest N ms later (the browser commits the
      // document, and whatever goes in at its start goes in, before the page's first script).
      const hold = Number(url.searchParams.get('hold')) || 0;
      const cut = hold > 0 ? data.indexOf(10) + 1 : 0;
      if (cut <= 0) { res.end(data); return; }
      res.write(data.subarray(0, cut));
      setTimeout(() => res.end(data.subarray(cut)), hold);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const port = server.address().port;
    resolve({
      base: `http://127.0.0.1:${port}/`,
      port,
      missing,
      close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }),
    });
  }));
}

/**
 * One `lscope scanner` process: one fresh headless Chromium (one browser context), kept for many
 * pages. Requests are JSON lines answered in order by one JSON line each; `send` queues them.
 * Always spawned asynchronously: the fixture server lives in this process.
 */
class Browser {
  constructor() {
    // {root}: the repository's root (a fixture extension's path).
    const args = EXPECTATIONS.backends[BACKEND].args.map((a) => a.replace('{root}', path.resolve(__dirname, '../..')));
    this.child = spawn(LSCOPE_BIN, ['scanner', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.pending = [];
    this.stderr = '';
    this.dead = ''; // why the process is gone
    this.child.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-4000); });
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      const p = this.pending.shift();
      if (!p) return;
      clearTimeout(p.timer);
      try { p.resolve(JSON.parse(line)); } catch (e) { p.reject(new Error(`not JSON from lscope: ${line.slice(0, 300)}`)); }
    });
    const failAll = (why) => {
      this.dead = why;
      for (const p of this.pending.splice(0)) {
        clearTimeout(p.timer);
        const stderr = this.stderr.trim().slice(-1000);
        p.reject(new Error(stderr ? `${why}: ${stderr}` : why));
      }
    };
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        failAll(`lscope exited (${code ?? signal})`);
        resolve({ code, signal });
      });
      this.child.on('error', (e) => { // could not start (LSCOPE_BIN wrong?)
        failAll(`cannot run ${LSCOPE_BIN}: ${e.message}`);
        resolve({ code: null, signal: null });
      });
    });
    this.child.stdin.on('error', () => {}); // EPIPE after an exit: the pending requests reject
  }

  /** Sends one request object; resolves with the reply object. */
  send(request) {
    return new Promise((resolve, reject) => {
      if (this.dead) {
        reject(new Error(this.dead));
        return;
      }
      const timer = setTimeout(() => reject(new Error(`no reply from lscope in ${REPLY_TIMEOUT_MS} ms to ${JSON.stringify(request).slice(0, 200)}`)), REPLY_TIMEOUT_MS);
      this.pending.push({ resolve, reject, timer });
      this.child.stdin.write(JSON.stringify(request) + '\n');
    });
  }

  /** A scanner command ({cmd: "scan", ...}); resolves with the scanner's response object. */
  async cmd(command) {
    if (SCANNER_JS) await this.useScannerFile();
    return this.send(command);
  }

  /** LSCOPE_SCANNER_JS: puts that scanner into the current document's scanner world. */
  async useScannerFile() {
    const has = await this.send({ cmd: 'execute', script: 'return globalThis.__lemmascopeFromFile === true' });
    if (!has.ok || has.data.value === true) return; // no page to talk to: the command will say so
    const r = await this.send({ cmd: 'execute',
      script: `globalThis.__lemmascope = (${SCANNER_JS}\n); globalThis.__lemmascopeFromFile = true; return true` });
    if (!r.ok) throw new Error(`LSCOPE_SCANNER_JS: cannot inject ${process.env.LSCOPE_SCANNER_JS}: ${r.code} ${r.error}`);
  }

  /** A backend operation ({op: "goto", url}); throws unless it answered ok. */
  async op(name, params = {}) {
    const r = await this.send(Object.assign({ op: name }, params));
    if (!r.ok) throw new Error(`op ${name} failed: ${r.code} ${r.error}`);
    return r;
  }

  goto(url) { return this.op('goto', { url }); }

  /**
   * Waits until the URL contains `part`. Retries while the backend reports the tab as detached:
   * right after a page-initiated navigation the CDP backend may answer "Not attached to an
   * active page" for a moment (a backend issue, not the scanner's).
   */
  async waitUrl(part, timeout = 5000) {
    const end = Date.now() + timeout;
    for (;;) {
      const r = await this.send({ op: 'wait_url', contains: part, timeout: Math.max(end - Date.now(), 1) });
      if (r.ok) return r.url;
      if (!/not attached to an active page/i.test(r.error) || Date.now() >= end) {
        throw new Error(`op wait_url failed: ${r.code} ${r.error}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  reload() { return this.op('reload'); }

  /** Trusted (native) mouse click at top-level viewport coordinates. */
  click(x, y, options = {}) { return this.op('click', Object.assign({ x, y }, options)); }

  /**
   * Runs a test-side helper `fn` (function source) with JSON-able args in the page, through the
   * scanner's execute command (the scanner's isolated world: same DOM, page scripts unseen).
   */
  async evalTest(fn, ...args) {
    const r = await this.cmd({ cmd: 'execute', script: `return (${fn}).apply(null, arguments)`, args });
    if (!r.ok) throw new Error(`evalTest failed: ${r.code} ${r.error}`);
    return r.data.value;
  }

  /** The scanner's handle() called with a raw JavaScript argument expression ('"{not json"'). */
  async handleRaw(argExpression) {
    const r = await this.cmd({ cmd: 'execute', script: `return globalThis.__lemmascope.handle(${argExpression})` });
    if (!r.ok) throw new Error(`handleRaw failed: ${r.code} ${r.error}`);
    if (typeof r.data.value !== 'string') throw new Error('handle did not return a string: ' + JSON.stringify(r.data.value));
    return JSON.parse(r.data.value);
  }

  /** Ends the process (closing stdin ends `lscope scanner`, which closes its Chromium). */
  async close() {
    this.child.stdin.end();
    const term = setTimeout(() => this.child.kill('SIGTERM'), 15000);
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 25000);
    await this.exited;
    clearTimeout(term);
    clearTimeout(kill);
  }
}

/** Test-side resolver of the "A >>> B" notation, independent of the scanner's own. */
const RESOLVE_DEEP = `function resolveDeep(selector) {
  let roots = [document];
  const parts = selector.split('>>>').map((s) => s.trim());
  let found = [];
  parts.forEach((part, i) => {
    found = [];
    roots.forEach((r) => found.push(...r.querySelectorAll(part)));
    roots = found.map((el) => el.shadowRoot || el.contentDocument).filter(Boolean);
  });
  return found;
}`;

module.exports = { serve, Browser, RESOLVE_DEEP, FIXTURES, TESTS_FIXTURES, LIBRARY, LSCOPE_BIN, SCANNER_JS, LATE_REGISTRY, conform };
