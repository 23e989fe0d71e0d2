// The demo's MCP part: the official client spawns lscope over stdio, lists its tools and
// signs in on the fixture page, printing what the agent would see.
import { connect, text } from './lscope.js';

const base = process.argv[2];
const { client } = await connect();
const { tools } = await client.listTools();
console.log(`tools/list: ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}\n`);
const calls = [
  ['goto', { url: `${base}/login.html` }],
  ['type', { target: 'email', text: 'ada@example.com' }],
  ['type', { target: 'password', text: 'correct horse battery staple' }],
  ['click', { target: 'Sign in' }],
];
for (const [name, args] of calls) {
  const shown = { ...args };
  if (name === 'type' && args.target === 'password') shown.text = '…';
  console.log(`> tools/call ${name} ${JSON.stringify(shown)}`);
  console.log(text(await client.callTool({ name, arguments: args })));
}
await client.close();
