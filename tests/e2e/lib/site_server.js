// Local copies of four real sites (github.com, en.wikipedia.org, demo.nopcommerce.com,
// news.ycombinator.com) on one HTTPS server, for testing site packs under the sites' real
// names: Chromium reaches them through `--host-resolver-rules=<hostRules>` and
// `--ignore-certificate-errors`. Pages: tests/fixtures/sites/<host>/ (see its README.md);
// one handler per site: tests/e2e/lib/sites/<site>.js.
//
//   const site = await startSiteServer();
//   chromium --ignore-certificate-errors --host-resolver-rules="${site.hostRules}" https://github.com/login
//   site.records  -> [{host, kind, ...}] in arrival order; site.reset(); await site.close();
//
// Run directly (`node tests/e2e/lib/site_server.js`) it serves until Ctrl-C and prints the
// port and the host rules.
import https from 'node:https';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { html, parseCookies, readForm } from './sites/common.js';
import { createGithub } from './sites/github.js';
import { createWikipedia } from './sites/wikipedia.js';
import { createNopCommerce } from './sites/nopcommerce.js';
import { createHackerNews } from './sites/hackernews.js';

export const siteHosts = ['github.com', 'www.github.com', 'en.wikipedia.org', 'demo.nopcommerce.com', 'news.ycombinator.com'];

// A self-signed certificate for every host, made with the openssl CLI in a fresh temp dir.
function makeCertificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lemmascope-sites-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const san = siteHosts.map((h) => `DNS:${h}`).join(',');
  execFileSync('/usr/bin/openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
    '-subj', '/CN=lemmascope-test', '-addext', `subjectAltName=${san}`, '-keyout', key, '-out', cert],
  { stdio: 'ignore' });
  return { dir, key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
}

export async function startSiteServer() {
  const records = [];
  const sites = [createGithub(), createWikipedia(), createNopCommerce(), createHackerNews()];
  const byHost = new Map();
  for (const site of sites) for (const h of [site.host, ...(site.aliases || [])]) byHost.set(h, site);

  const { dir, key, cert } = makeCertificate();
  const server = https.createServer({ key, cert }, async (req, res) => {
    const host = String(req.headers.host || '').replace(/:\d+$/, '').toLowerCase();
    const site = byHost.get(host);
    if (!site) return html(res, 421, '<!doctype html><title>Misdirected</title><p>No site copy for this host.</p>');
    try {
      const url = new URL(req.url, `https://${host}`);
      const form = req.method === 'POST' ? await readForm(req) : {};
      const record = (details) => records.push({ host: site.host, ...details });
      await site.handle({ req, res, url, host, method: req.method, path: url.pathname, query: url.searchParams,
        form, cookies: parseCookies(req), record });
    } catch (err) {
      if (!res.headersSent) html(res, 500, `<!doctype html><title>Error</title><pre>${String(err.stack || err)}</pre>`);
      else res.end();
    }
    return undefined;
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  // Chromium honours a port in MAP rules: https://github.com/ (port 443) goes to 127.0.0.1:port.
  const hostRules = siteHosts.map((h) => `MAP ${h} 127.0.0.1:${port}`).join(', ');
  return {
    port,
    hostRules,
    records,
    reset() {
      records.length = 0;
      for (const site of sites) site.reset();
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        fs.rmSync(dir, { recursive: true, force: true });
        resolve();
      });
    }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const site = await startSiteServer();
  console.log(`port ${site.port}`);
  console.log(`hostRules ${site.hostRules}`);
  console.log(`chromium --ignore-certificate-errors --host-resolver-rules="${site.hostRules}" https://github.com/login`);
  const stop = async () => { await site.close(); process.exit(0); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
