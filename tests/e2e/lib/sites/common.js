// Helpers shared by the site copies (site_server.js): templates, cookies, bodies, answers.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const sitesDir = path.resolve(here, '../../../fixtures/sites');

export const esc = (s) => String(s ?? '').replace(/[&<>"']/g,
  (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

// Renders tests/fixtures/sites/<host>/<name>: `{{> part}}` includes <host>/_part.html,
// `{{{key}}}` inserts vars[key] as HTML, `{{key}}` inserts it escaped. Files are read on
// every call, so an edited page shows without a restart.
export function render(host, name, vars = {}) {
  const dir = path.join(sitesDir, host);
  let text = fs.readFileSync(path.join(dir, name), 'utf8');
  for (let i = 0; i < 3 && text.includes('{{>'); i++) {
    text = text.replace(/\{\{>\s*([\w-]+)\s*\}\}/g, (_, p) => fs.readFileSync(path.join(dir, `_${p}.html`), 'utf8'));
  }
  return text
    .replace(/\{\{\{\s*([\w.]+)\s*\}\}\}/g, (_, k) => String(vars[k] ?? ''))
    .replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, k) => esc(vars[k]));
}

export function parseCookies(req) {
  const out = {};
  for (const part of String(req.headers.cookie || '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

export const cookie = (name, value, extra = '') =>
  `${name}=${encodeURIComponent(value)}; Path=/; Secure; HttpOnly; SameSite=Lax${extra}`;
export const clearCookie = (name) => `${name}=; Path=/; Secure; Max-Age=0`;

export const token = (bytes = 16) => crypto.randomBytes(bytes).toString('hex');
export const digest = (...parts) => crypto.createHash('sha1').update(parts.join('\0')).digest('hex');

export function html(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

export function json(res, status, value, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(value));
}

export function redirect(res, location, status = 302, headers = {}) {
  res.writeHead(status, { Location: location, 'Cache-Control': 'no-store', ...headers });
  res.end();
}

// Reads a request body: url-encoded or JSON into an object (other bodies: {}).
export function readForm(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const type = String(req.headers['content-type'] || '');
      if (/^application\/json/i.test(type)) {
        try { return resolve(JSON.parse(body) || {}); } catch { return resolve({}); }
      }
      if (!body || /^multipart\//i.test(type)) return resolve({});
      return resolve(Object.fromEntries(new URLSearchParams(body)));
    });
  });
}

// "1,938" style thousands.
export const thousands = (n) => Number(n).toLocaleString('en-US');
