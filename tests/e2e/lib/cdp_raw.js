// A minimal DevTools Protocol client over node's own sockets (node 20 has no WebSocket client):
// the extension tests use it to act as the user or the browser would (close a tab, reload the
// extension, quit), and to hand-craft WebSocket handshakes for the security tests.
import net from 'node:net';
import crypto from 'node:crypto';

// Sends a WebSocket upgrade to ws://host:port/path with the given headers; resolves with the
// HTTP status line's code (101 when the server accepted) and the open socket.
export function handshake(port, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const key = crypto.randomBytes(16).toString('base64');
    const { Host: host = `127.0.0.1:${port}`, ...rest } = headers;
    const extra = Object.entries(rest).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    sock.on('error', reject);
    sock.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
               `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`);
    let buf = Buffer.alloc(0);
    const onData = (d) => {
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      sock.off('data', onData);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(buf.toString())?.[1] || 0);
      resolve({ status, head: buf.subarray(0, end).toString(), rest: buf.subarray(end + 4), sock });
    };
    sock.on('data', onData);
  });
}

// A client WebSocket (masked text frames) over an upgraded socket.
export class Socket {
  constructor(sock, rest = Buffer.alloc(0)) {
    this.sock = sock;
    this.buf = rest;
    this.handlers = new Set();
    this.closed = false;
    sock.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.pump(); });
    sock.on('close', () => { this.closed = true; });
    this.pump();
  }
  send(text) {
    const p = Buffer.from(text);
    const mask = crypto.randomBytes(4);
    let h;
    if (p.length < 126) h = Buffer.from([0x81, 0x80 | p.length]);
    else if (p.length < 65536) { h = Buffer.alloc(4); h[0] = 0x81; h[1] = 0x80 | 126; h.writeUInt16BE(p.length, 2); }
    else { h = Buffer.alloc(10); h[0] = 0x81; h[1] = 0x80 | 127; h.writeBigUInt64BE(BigInt(p.length), 2); }
    this.sock.write(Buffer.concat([h, mask, Buffer.from(p.map((x, i) => x ^ mask[i % 4]))]));
  }
  pump() {
    while (this.buf.length >= 2) {
      let len = this.buf[1] & 0x7f, off = 2;
      if (len === 126) { if (this.buf.length < 4) return; len = this.buf.readUInt16BE(2); off = 4; }
      else if (len === 127) { if (this.buf.length < 10) return; len = Number(this.buf.readBigUInt64BE(2)); off = 10; }
      if (this.buf.length < off + len) return;
      const opcode = this.buf[0] & 0x0f;
      const payload = this.buf.subarray(off, off + len).toString();
      this.buf = this.buf.subarray(off + len);
      if (opcode === 1) for (const h of this.handlers) h(payload);
    }
  }
  close() { this.sock.destroy(); }
}

// A DevTools Protocol session on a browser's ws:// endpoint.
export async function cdpConnect(wsUrl) {
  const u = new URL(wsUrl);
  const { status, rest, sock } = await handshake(Number(u.port), u.pathname);
  if (status !== 101) throw new Error(`DevTools handshake answered ${status}`);
  const ws = new Socket(sock, rest);
  let next = 0;
  const waiting = new Map();
  ws.handlers.add((text) => {
    const m = JSON.parse(text);
    if (m.id && waiting.has(m.id)) { waiting.get(m.id)(m); waiting.delete(m.id); }
  });
  return {
    send(method, params = {}, sessionId) {
      const id = ++next;
      ws.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
      return new Promise((resolve, reject) => waiting.set(id, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result))));
    },
    // Calls fn with each event ({method, params, sessionId}) from now on.
    onEvent(fn) {
      ws.handlers.add((text) => {
        const m = JSON.parse(text);
        if (m.method) fn(m);
      });
    },
    close() { ws.close(); },
  };
}
