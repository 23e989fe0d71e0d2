// MCP cost and speed (issue: tools/list <= 2,200 o200k tokens; spawn -> initialize < 20 ms;
// server RSS without the browser < 15 MB idle). Prints each figure; exits 0 whatever they are.
//   node bench/mcp_bench.mjs [--runs 20]        (npm ci in bench/ first)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = process.env.LSCOPE_BIN || path.resolve(here, '../build/lscope');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 20;

// Starts a stdio MCP server, initializes it and asks tools/list; resolves the timings, the
// tools and the process (still running) for the caller to inspect and end.
function session(command, args) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let buf = '';
    let initMs = null;
    p.on('error', reject);
    p.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        if (msg.id === 1) {
          initMs = Number(process.hrtime.bigint() - t0) / 1e6;
          p.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
          p.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + '\n');
        } else if (msg.id === 2) {
          resolve({ initMs, tools: msg.result.tools, proc: p });
        }
      }
    });
    p.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }) + '\n');
  });
}

const tokens = (tools) => encode(JSON.stringify(tools)).length;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const rssKb = (pid) => Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
const end = (p) => new Promise((r) => { p.once('exit', r); p.stdin.end(); });

console.log('tools/list (o200k tokens of the tools array)');
for (const profile of ['default', 'all']) {
  const s = await session(bin, ['--tools', profile]);
  console.log(`  lscope --tools ${profile.padEnd(8)} ${String(s.tools.length).padStart(3)} tools  ${tokens(s.tools)} tokens`);
  await end(s.proc);
}
const pw = path.resolve(here, 'node_modules/.bin/playwright-mcp');
if (fs.existsSync(pw)) {
  const s = await session(pw, ['--headless']);
  const version = JSON.parse(fs.readFileSync(path.resolve(here, 'node_modules/@playwright/mcp/package.json'))).version;
  console.log(`  Playwright MCP ${version.padEnd(8)} ${String(s.tools.length).padStart(3)} tools  ${tokens(s.tools)} tokens`);
  s.proc.kill();
}

const init = [];
let rss = 0;
for (let i = 0; i < runs; i++) {
  const s = await session(bin, []);
  init.push(s.initMs);
  if (i === runs - 1) rss = rssKb(s.proc.pid);  // after initialize and tools/list, no browser yet
  await end(s.proc);
}
console.log(`\nspawn -> initialize result (${runs} runs): median ${median(init).toFixed(1)} ms, min ${Math.min(...init).toFixed(1)} ms`);
console.log(`server RSS, idle, browser not started: ${(rss / 1024).toFixed(1)} MB`);
