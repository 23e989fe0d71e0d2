// `lscope serve --http` for the tests, and official MCP clients over Streamable HTTP.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { lscopeBin, waitExit } from './lscope.js';

// Starts `lscope serve --http` on a free port; resolves {url, child, stop}.
export async function startHttpServer(args = [], { env = {} } = {}) {
  const child = spawn(lscopeBin, ['serve', '--http', '127.0.0.1:0', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      // The whole line: stderr can arrive in pieces ("…on http://127.0.0.1" then ":PORT/mcp").
      const m = err.match(/MCP Streamable HTTP on (http:\/\/\S+)\n/);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`lscope serve exited (${code}): ${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    stop: async () => { child.kill('SIGTERM'); await waitExit(child); },
  };
}

export async function httpClient(url, opts = {}) {
  const client = new Client({ name: 'lemmascope-http-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), opts);
  await client.connect(transport);
  return { client, transport };
}

