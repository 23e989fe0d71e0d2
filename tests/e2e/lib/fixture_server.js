// A local HTTP server for fixture pages (tests/fixtures), with form endpoints that record
// exactly what the browser sent, so tests assert what the page received.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleFor } from './bundle.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const fixturesDir = path.resolve(here, '../../fixtures');

const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml',
  '.gif': 'image/gif', '.jpg': 'image/jpeg', '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf',
  '.txt': 'text/plain', '.ico': 'image/x-icon' };

// Accounts the fixture login accepts.
export const accounts = { 'ada@example.com': 'correct horse battery staple' };

// The file GET /files/report.csv answers, as an attachment (tests compare size and bytes).
export const reportCsv = 'id,name,amount\n1,Ada,12.50\n2,Grace,7.25\n3,Linus,3.00\n';

// Parses a multipart/form-data body (raw bytes) into text fields and files {field, filename,
// type, size}. Minimal: enough for what a browser sends from a fixture form.
function parseMultipart(raw, contentType) {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const fields = {};
  const files = [];
  if (!m) return { fields, files };
  const delim = Buffer.from(`--${m[1] || m[2]}`);
  let pos = raw.indexOf(delim);
  while (pos !== -1) {
    const start = pos + delim.length;
    if (raw.slice(start, start + 2).toString() === '--') break;  // closing delimiter
    const next = raw.indexOf(delim, start);
    if (next === -1) break;
    const part = raw.slice(start + 2, next - 2);  // skip CRLF after delimiter and before next
    const split = part.indexOf('\r\n\r\n');
    pos = next;
    if (split === -1) continue;
    const head = part.slice(0, split).toString('utf8');
    const data = part.slice(split + 4);
    const name = /;\s*name="([^"]*)"/i.exec(head)?.[1];
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    if (filename !== undefined) {
      const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] || '';
      files.push({ field: name, filename, type, size: data.length });
    } else if (name !== undefined) {
      fields[name] = data.toString('utf8');
    }
  }
  return { fields, files };
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g,
  (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const json = (res, status, value) => {
  res.writeHead(status, { 'Content-Type': types['.json'] });
  res.end(JSON.stringify(value));
};

// Serves root (default tests/fixtures) on host (default 127.0.0.1) at a free port. Every
// request is recorded in `received` as {method, path, form}: form is the query for a GET, the
// url-encoded, JSON or multipart text fields for a POST; a multipart POST also has `files`.
// `reports` may be shared between servers (a page and its cross-origin frames report to one list).
export async function startFixtureServer({ root = fixturesDir, extraRoots = {}, host = '127.0.0.1', reports = [] } = {}) {
  const received = [];  // {method, path, form} in arrival order
  const events = new EventEmitter();  // 'sent' (path): a large attachment's last byte went out
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => { chunks.push(c); });
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      const url = new URL(req.url, 'http://127.0.0.1');
      const ctype = req.headers['content-type'] || '';
      let form;
      let files;
      if (req.method === 'POST' && /^application\/json/i.test(ctype)) {
        try { form = JSON.parse(body); } catch { form = null; }
        if (!form || typeof form !== 'object') form = {};
      } else if (req.method === 'POST' && /^multipart\/form-data/i.test(ctype)) {
        ({ fields: form, files } = parseMultipart(raw, ctype));
      } else {
        form = Object.fromEntries(new URLSearchParams(req.method === 'POST' ? body : url.search));
      }
      const entry = files ? { method: req.method, path: url.pathname, form, files }
        : { method: req.method, path: url.pathname, form };
      if (req.headers.authorization) entry.authorization = req.headers.authorization;
      received.push(entry);
      // A corpus page reports what a person achieved on it (tests/fixtures/corpus/report.js).
      if (req.method === 'POST' && url.pathname === '/report') {
        reports.push({ page: String(form.page || ''), event: String(form.event || ''), data: form.data ?? {} });
        res.writeHead(204);
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/login') {
        if (accounts[form.email] && accounts[form.email] === form.password) {
          res.writeHead(303, { Location: '/dashboard.html' });
          return res.end();
        }
        const page = fs.readFileSync(path.join(root, 'login.html'), 'utf8').replace('<!--ERROR-->',
          '<div class="error" role="alert">Incorrect username or password.</div>');
        res.writeHead(401, { 'Content-Type': types['.html'] });
        return res.end(page);
      }
      // The secrets audit page's own request (tests/e2e/pages/audit.html).
      if (req.method === 'POST' && url.pathname === '/api/audit') return json(res, 200, { ok: true });
      // JSON login for pages that sign in with fetch (react-login, noform-login, shadow, ...).
      if (req.method === 'POST' && url.pathname === '/api/login') {
        const user = form.email ?? form.username;
        if (accounts[user] && accounts[user] === form.password) return json(res, 200, { ok: true });
        return json(res, 401, { error: 'Incorrect username or password.' });
      }
      // Search for search-button.html: five titles containing the query.
      if (req.method === 'GET' && url.pathname === '/api/search') {
        const q = url.searchParams.get('q') || '';
        const results = q.trim() ? [1, 2, 3, 4, 5].map((n) => `${q} — result ${n}`) : [];
        return json(res, 200, { query: q, results });
      }
      // Answers after ?ms= milliseconds (at most 10 s), for pages that load late; with
      // &module=1 the answer is a JavaScript module (a component's code arriving late).
      if (req.method === 'GET' && url.pathname === '/api/slow') {
        const ms = Math.min(Math.max(Number(url.searchParams.get('ms')) || 0, 0), 10000);
        const module = url.searchParams.get('module') === '1';
        const timer = setTimeout(() => {
          if (!module) return json(res, 200, { ok: true, ms });
          res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
          return res.end(`export const ms = ${ms};\n`);
        }, ms);
        res.on('close', () => clearTimeout(timer));
        return undefined;
      }
      // An event stream that stays open as long as the page (tests/e2e/pages/live.html): one
      // message now, a comment every 15 s.
      if (req.method === 'GET' && url.pathname === '/api/events') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        res.write('data: live\n\n');
        const timer = setInterval(() => res.write(': still here\n\n'), 15000);
        res.on('close', () => clearInterval(timer));
        return undefined;
      }
      // A sound that never ends (a WAV header promising 2 GB, then silence, 8 kB every 250 ms):
      // a media element that buffers it keeps its request open for good, as a page's background
      // video does.
      if (req.method === 'GET' && url.pathname === '/api/endless.wav') {
        const header = Buffer.alloc(44);
        header.write('RIFF', 0); header.writeUInt32LE(0x7ffffff0, 4); header.write('WAVEfmt ', 8);
        header.writeUInt32LE(16, 16); header.writeUInt16LE(1, 20); header.writeUInt16LE(1, 22);
        header.writeUInt32LE(8000, 24); header.writeUInt32LE(8000, 28); header.writeUInt16LE(1, 32);
        header.writeUInt16LE(8, 34); header.write('data', 36); header.writeUInt32LE(0x7fffffcc, 40);
        res.writeHead(200, { 'Content-Type': 'audio/wav', 'Cache-Control': 'no-cache' });
        res.write(header);
        const timer = setInterval(() => res.write(Buffer.alloc(8192, 0x80)), 250);
        res.on('close', () => clearInterval(timer));
        return undefined;
      }
      if (req.method === 'GET' && url.pathname === '/files/report.csv') {
        res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8',
          'Content-Length': Buffer.byteLength(reportCsv),
          'Content-Disposition': 'attachment; filename="report.csv"' });
        return res.end(reportCsv);
      }
      // A large attachment made as it is sent (never held here either): /files/big.bin?mb=N.
      if (req.method === 'GET' && url.pathname === '/files/big.bin') {
        const total = Math.max(1, Math.min(4096, Number(url.searchParams.get('mb')) || 1)) * 1024 * 1024;
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': total,
          'Content-Disposition': 'attachment; filename="big.bin"' });
        const chunk = Buffer.alloc(1024 * 1024, 0x5a);
        let sent = 0;
        const pump = () => {
          while (sent < total) {
            sent += chunk.length;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          return res.end();
        };
        res.on('finish', () => events.emit('sent', url.pathname));
        res.on('error', () => {});
        pump();
        return undefined;
      }
      if (req.method === 'POST' && url.pathname === '/upload') {
        const list = (files || []).filter((f) => f.filename)
          .map((f) => `<li><span class="filename">${escapeHtml(f.filename)}</span> `
            + `(<span class="size">${f.size}</span> bytes)</li>`).join('');
        res.writeHead(files && files.some((f) => f.filename) ? 200 : 400, { 'Content-Type': types['.html'] });
        return res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Upload received · Fixture</title></head>'
          + `<body><h1>Upload received</h1><ul id="files">${list || '<li>No file.</li>'}</ul>`
          + '<p><a href="/upload.html">Upload another</a></p></body></html>');
      }
      // A redirect, as sign-in and link-tracking pages do: /redirect?to=URL.
      if (url.pathname === '/redirect' && url.searchParams.get('to')) {
        res.writeHead(302, { Location: url.searchParams.get('to') });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/signup') {
        const rows = Object.entries(form).map(([k, v]) =>
          `<dt>${escapeHtml(k)}</dt><dd data-field="${escapeHtml(k)}">${escapeHtml(v)}</dd>`).join('');
        const page = fs.readFileSync(path.join(root, 'signup-done.html'), 'utf8').replace('<!--VALUES-->', rows);
        res.writeHead(200, { 'Content-Type': types['.html'] });
        return res.end(page);
      }
      let file = null;
      for (const [prefix, dir] of Object.entries(extraRoots)) {
        if (url.pathname.startsWith(prefix)) file = path.join(dir, url.pathname.slice(prefix.length));
      }
      if (!file) file = path.join(root, url.pathname === '/' ? 'index.html' : url.pathname);
      if (!file.startsWith(root) && !Object.values(extraRoots).some((d) => file.startsWith(d))) {
        res.writeHead(403);
        return res.end();
      }
      // (Only where the app's source is: a library's own ionic.bundle.css is a file.)
      if (/\.bundle\.(js|css)$/.test(file) && fs.existsSync(file.replace(/\.bundle\.(js|css)$/, '.jsx'))) {
        bundleFor(file, fixturesDir).then((out) => {
          res.writeHead(200, { 'Content-Type': out.type });
          res.end(out.body);
        }, (e) => {
          // A page that does not build: the page's console shows esbuild's message (file:line).
          res.writeHead(200, { 'Content-Type': 'text/javascript' });
          res.end(`console.error(${JSON.stringify(`bundle failed: ${e.message}`)});`);
        });
        return undefined;
      }
      fs.readFile(file, (err, data) => {
        if (err) {
          res.writeHead(404, { 'Content-Type': 'text/html' });
          return res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
        }
        res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
        res.end(data);
      });
    });
  });
  await new Promise((resolve) => server.listen(0, host, resolve));
  const base = `http://${host}:${server.address().port}`;
  return {
    base,
    received,
    reports,
    events,
    posts: (p) => received.filter((r) => r.method === 'POST' && r.path === p),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

// The same fixtures on a second origin, for cross-origin iframes (iframe.html?xo=<its base>).
// 127.0.0.2 is another loopback address, so the frame is cross-site too: Chromium puts it in
// its own process (an out-of-process iframe). Pass host: '127.0.0.1' for same-site only.
export function startCrossOriginServer(options = {}) {
  return startFixtureServer({ host: '127.0.0.2', ...options });
}
