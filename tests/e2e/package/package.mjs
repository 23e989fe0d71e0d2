// The packages (issue 20), built from the current build tree into a temporary directory:
// - the .deb that cpack makes passes lintian without an error, holds what the source tree ships,
//   and, unpacked into a prefix (no chroot, no root needed), its lscope answers --version and
//   signs in on a real page in headless Chromium through the official MCP client;
// - the .mcpb validates with the official mcpb CLI and unpacks with it, server.json carries its
//   sha256, and its lscope serves the tools its manifest names.
// Both must run on their own data, not on the source tree the binary was built from (its
// fallback): a probe intent put into the package's share/lemmascope is listed and a shipped one
// taken out of it is not, though the source tree still has it.
// Not a *.test.js file: the e2e test runs those, and this one packs; ctest runs it as `package`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startFixtureServer, accounts } from '../lib/fixture_server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const sourceDir = path.resolve(here, '../../..');
const { LSCOPE_BUILD_DIR: buildDir, LSCOPE_VERSION: version, LSCOPE_PROCESSOR: processor } = process.env;
const cmake = process.env.CMAKE_COMMAND || 'cmake';
const cpack = process.env.CPACK_COMMAND || 'cpack';
const mcpbCli = path.resolve(here, '../node_modules/.bin/mcpb');

let work;
let home;
let site;
before(async () => {
  assert.ok(buildDir && version && processor, 'LSCOPE_BUILD_DIR, LSCOPE_VERSION and LSCOPE_PROCESSOR come from ctest');
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lscope-package-'));
  home = fs.mkdirSync(path.join(work, 'home'), { recursive: true });  // no user intents or config
  site = await startFixtureServer();
});
after(async () => {
  await site?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

// Runs a command to its end; asserts it succeeded unless told otherwise; returns {status, out}.
function run(cmd, args, { cwd, ok = true } = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, HOME: home } });
  assert.ifError(r.error);
  const out = r.stdout + r.stderr;
  if (ok) assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed:\n${out}`);
  return { status: r.status, out };
}

const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const sorted = (dir, re) => fs.readdirSync(dir).filter((f) => re.test(f)).sort();
const coreIntents = sorted(path.join(sourceDir, 'intents/core'), /\.yaml$/).map((f) => f.replace(/\.yaml$/, ''));

// The official MCP client on `command` over stdio.
async function connect(command, args = []) {
  const transport = new StdioClientTransport({ command, args, env: { ...process.env, HOME: home }, stderr: 'pipe' });
  const client = new Client({ name: 'lemmascope-package-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

// The intent names `capabilities` lists.
async function listedIntents(client) {
  const r = await client.callTool({ name: 'capabilities', arguments: {} });
  assert.equal(r.isError, false, text(r));
  return [...text(r).matchAll(/^- (\w+)/gm)].map((m) => m[1]);
}

// The installed tree's own core intents are what the server lists: all of them first; then,
// with one taken out and a probe (in no source tree) put in, the probe and not the one taken out.
async function checkCoreIntentsFrom(share, command) {
  const dir = path.join(share, 'intents/core');
  assert.deepEqual(sorted(dir, /\.yaml$/).map((f) => f.replace(/\.yaml$/, '')), coreIntents);
  let client = await connect(command);
  try {
    const listed = await listedIntents(client);
    for (const name of [...coreIntents, 'login', 'search']) assert.ok(listed.includes(name), `${name} listed: ${listed}`);
  } finally {
    await client.close();
  }
  const probe = fs.readFileSync(path.join(dir, 'go_home.yaml'), 'utf8').replace(/^intent: go_home$/m, 'intent: package_probe');
  fs.writeFileSync(path.join(dir, 'package_probe.yaml'), probe);
  fs.rmSync(path.join(dir, 'next_page.yaml'));
  assert.ok(fs.existsSync(path.join(sourceDir, 'intents/core/next_page.yaml')), 'the source tree keeps next_page');
  client = await connect(command);
  try {
    const listed = await listedIntents(client);
    assert.ok(listed.includes('package_probe'), `the probe in ${dir} is listed: ${listed}`);
    assert.ok(!listed.includes('next_page'), `next_page, taken out of ${dir}, is not listed: ${listed}`);
  } finally {
    await client.close();
  }
}

// A real page in real headless Chromium: goto, observe, and the built-in login intent.
async function signIn(command) {
  const client = await connect(command);
  try {
    const page = await client.callTool({ name: 'goto', arguments: { url: `${site.base}/login.html` } });
    assert.equal(page.isError, false, text(page));
    assert.match(text(page), /@ 127\.0\.0\.1:\d+\/login\.html "Sign in · Fixture"/);
    const obs = text(await client.callTool({ name: 'observe', arguments: {} }));
    assert.match(obs, /\[1\] input\/email "Email" \{required\}/);
    assert.match(obs, /- login_form: email=\[1\] password=\[2\]/);
    const email = 'ada@example.com';
    const before = site.posts('/login').length;
    const login = await client.callTool({ name: 'login', arguments: { username: email, password: accounts[email] } });
    assert.equal(login.isError, false, text(login));
    assert.match(text(login), /~ url: \/login\.html → \/dashboard\.html/);
    const posts = site.posts('/login').slice(before);
    assert.equal(posts.length, 1);
    assert.equal(posts[0].form.email, email);
  } finally {
    await client.close();
  }
}

// Where `lscope doctor` finds the extension's files (the same lookup as packs).
function doctorExtensionDir(command) {
  const { out } = run(command, ['doctor'], { ok: false });
  const m = out.match(/^extension\s+\S+\s+files in (\S+?),/m);
  assert.ok(m, `doctor names the extension's files:\n${out}`);
  return m[1];
}

test('the .deb: lintian finds no error; installed into a prefix, lscope runs on its own data', async (t) => {
  const out = path.join(work, 'deb');
  run(cpack, ['--config', path.join(buildDir, 'CPackConfig.cmake'), '-B', out]);
  const debs = sorted(out, /\.deb$/);
  assert.deepEqual(debs, [`lemmascope_${version}_${run('dpkg', ['--print-architecture']).out.trim()}.deb`]);
  const deb = path.join(out, debs[0]);

  // lintian: errors fail the test; warnings are reported.
  const lint = run('lintian', [deb], { ok: false });
  const tags = lint.out.split('\n').filter((l) => /^[EWIPOX]: /.test(l));
  t.diagnostic(`lintian: ${tags.length ? tags.join(' | ') : 'nothing'}`);
  assert.deepEqual(tags.filter((l) => l.startsWith('E: ')), [], lint.out);
  assert.equal(lint.status, 0, lint.out);

  const control = run('dpkg-deb', ['--field', deb]).out;
  assert.match(control, /^Package: lemmascope$/m);
  assert.match(control, /^Version: /m);
  const depends = control.match(/^Depends: (.*)$/m)?.[1] ?? '';
  for (const lib of ['libstemmer0d', 'libre2-', 'libyaml-cpp', 'libspdlog', 'libcpp-httplib', 'libc6']) {
    assert.ok(depends.includes(lib), `Depends names ${lib}: ${depends}`);
  }
  assert.match(control, /^Recommends: chromium$/m);
  assert.match(control, /^Suggests: .*chromium-driver/m);

  const root = path.join(work, 'root');
  run('dpkg-deb', ['-x', deb, root]);
  const bin = path.join(root, 'usr/bin');
  const share = path.join(root, 'usr/share/lemmascope');
  for (const alias of ['lscope-h', 'lscope-e', 'lscope-r']) {
    assert.equal(fs.readlinkSync(path.join(bin, alias)), 'lscope', `${alias} is a symlink to lscope`);
  }
  assert.deepEqual(sorted(path.join(share, 'schemas'), /\.json$/), sorted(path.join(sourceDir, 'schemas'), /\.json$/));
  // The extension as the build writes it: its source files and the scanner files it injects.
  const shipped = sorted(path.join(share, 'extension'), /./);
  assert.deepEqual(shipped, sorted(path.join(buildDir, 'extension'), /./));
  for (const f of [...sorted(path.join(sourceDir, 'transports/extension/chrome'), /./), 'scanner-world.js', 'registry-fn.js']) {
    assert.ok(shipped.includes(f), `the extension ships ${f}`);
  }
  assert.ok(fs.existsSync(path.join(share, 'lemmascope-extension.zip')));
  for (const pack of sorted(path.join(sourceDir, 'packs'), /\./).filter((d) => fs.statSync(path.join(sourceDir, 'packs', d)).isDirectory())) {
    assert.ok(fs.existsSync(path.join(share, 'packs', pack, 'pack.yaml')), `pack ${pack}`);
  }
  assert.ok(fs.existsSync(path.join(root, 'usr/share/doc/lemmascope/copyright')));

  const lscope = path.join(bin, 'lscope');
  assert.equal(run(lscope, ['--version']).out.trim(), version);
  assert.equal(run(path.join(bin, 'lscope-h'), ['--version']).out.trim(), version);
  assert.equal(doctorExtensionDir(lscope), path.join(share, 'extension'));
  await signIn(lscope);
  await checkCoreIntentsFrom(share, lscope);
});

test('the .mcpb: valid manifest, unpacked by the official CLI, sha256 in server.json, serves its tools', async () => {
  const out = path.join(work, 'mcpb');
  fs.mkdirSync(out);
  run(cmake, [`-DBUILD_DIR=${buildDir}`, `-DOUT_DIR=${out}`, `-DSOURCE_DIR=${sourceDir}`, `-DVERSION=${version}`,
    `-DPROCESSOR=${processor}`, '-P', path.join(sourceDir, 'cmake/mcpb.cmake')]);
  const bundles = sorted(out, /\.mcpb$/);
  assert.equal(bundles.length, 1, `one bundle: ${bundles}`);
  const bundle = path.join(out, bundles[0]);

  // server.json: the repository's, with the bundle's real sha256 in its mcpb package.
  const template = JSON.parse(fs.readFileSync(path.join(sourceDir, 'server.json'), 'utf8'));
  const written = JSON.parse(fs.readFileSync(path.join(out, 'server.json'), 'utf8'));
  const pkg = written.packages.find((p) => p.registryType === 'mcpb');
  const sha = crypto.createHash('sha256').update(fs.readFileSync(bundle)).digest('hex');
  assert.equal(pkg.fileSha256, sha);
  assert.ok(pkg.identifier.endsWith(`/${bundles[0]}`), `${pkg.identifier} names ${bundles[0]}`);
  delete pkg.fileSha256;
  for (const p of template.packages) delete p.fileSha256;
  assert.deepEqual(written, template, 'every other field as in the repository');

  const dir = path.join(work, 'bundle');
  run(mcpbCli, ['unpack', bundle, dir]);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const validated = run(mcpbCli, ['validate', path.join(dir, 'manifest.json')]);
  assert.match(validated.out, /passes/);
  assert.equal(manifest.manifest_version, '0.3');
  assert.equal(manifest.name, 'lemmascope');
  assert.equal(manifest.version, version);
  assert.equal(manifest.server.type, 'binary');
  assert.equal(manifest.server.mcp_config.command, `\${__dirname}/${manifest.server.entry_point}`);
  const lscope = path.join(dir, manifest.server.entry_point);
  fs.accessSync(lscope, fs.constants.X_OK);
  assert.equal(run(lscope, ['--version']).out.trim(), version);

  // Started as a client starts it: ${__dirname} is where the bundle was unpacked.
  const command = manifest.server.mcp_config.command.replace('${__dirname}', dir);
  const client = await connect(command, manifest.server.mcp_config.args);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name);
    for (const tool of manifest.tools) assert.ok(names.includes(tool.name), `the manifest's ${tool.name} is served: ${names}`);
  } finally {
    await client.close();
  }
  const share = path.join(dir, 'share/lemmascope');
  assert.equal(doctorExtensionDir(lscope), path.join(share, 'extension'));
  await signIn(command);
  await checkCoreIntentsFrom(share, command);
});
