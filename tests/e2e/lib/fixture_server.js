// A local HTTP server for fixture pages (tests/fixtures), with form endpoints that record
// exactly what the browser sent, so tests assert what the page received.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const fixturesDir = path.resolve(here, '../../fixtures');

const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.png': 'image/png', '.txt': 'text/plain' };

// Accounts the fixture login accepts.
export const accounts = { 'ada@example.com': 'correct horse battery staple' };

export async function startFixtureServer({ root = fixturesDir, extraRoots = {} } = {}) {
  const received = [];  // {method, path, form} in arrival order
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const url = new URL(req.url, 'http://127.0.0.1');
      const form = Object.fromEntries(new URLSearchParams(req.method === 'POST' ? body : url.search));
      received.push({ method: req.method, path: url.pathname, form });
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
      let file = null;
      for (const [prefix, dir] of Object.entries(extraRoots)) {
        if (url.pathname.startsWith(prefix)) file = path.join(dir, url.pathname.slice(prefix.length));
      }
      if (!file) file = path.join(root, url.pathname === '/' ? 'index.html' : url.pathname);
      if (!file.startsWith(root) && !Object.values(extraRoots).some((d) => file.startsWith(d))) {
        res.writeHead(403);
        return res.end();
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
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    received,
    posts: (p) => received.filter((r) => r.method === 'POST' && r.path === p),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
