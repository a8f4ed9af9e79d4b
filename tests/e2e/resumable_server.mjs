// A Streamable HTTP MCP server (2025-11-25, with sessions and CORS) whose answer to
// `tools/call` is an SSE stream cut right after its priming event: a client that
// follows the spec reconnects with GET and `Last-Event-ID` after `retry` and gets
// the answer there. Its `huge_report` answers with ~40 MB of JSON, over the page's
// 32 MiB limit. Everything else is answered as plain JSON.
// Usage: node resumable_server.mjs PORT
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const port = Number(process.argv[2] ?? 0);
const tools = [{
  name: 'slow_report',
  description: 'A weather report for a city, sent on a stream that breaks once and must be resumed.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}, {
  name: 'huge_report',
  description: 'A weather report far too large to read: about 40 MB of text.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}];
/** The size of `huge_report`'s answer, over the page's 32 MiB limit. */
const HUGE = 40_000_000;
// Answers held back from a cut stream, by the event id the client will resume after.
const held = new Map();
const sessions = new Set();
const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-expose-headers': 'mcp-session-id',
};

function answer(msg) {
  switch (msg.method) {
    case 'initialize':
      return { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'resumable-http', version: '1.0.0' } };
    case 'tools/list':
      return { tools };
    case 'ping':
      return {};
    default:
      return null;
  }
}

function send(res, status, headers = {}, body = undefined) {
  res.writeHead(status, { ...cors, ...headers });
  res.end(body);
}

function onPost(req, res, msg) {
  const sid = req.headers['mcp-session-id'];
  if (msg.method !== 'initialize' && !sessions.has(sid)) return send(res, 404);
  if (msg.id === undefined) return send(res, 202);
  if (msg.method === 'tools/call' && msg.params?.name === 'huge_report') {
    // Declared up front, then streamed in 1 MB chunks (the reader stops early).
    const head = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: '' }] } });
    const open = head.slice(0, head.indexOf('""') + 1);
    const close = head.slice(head.indexOf('""') + 1);
    const filler = HUGE - open.length - close.length;
    res.writeHead(200, { ...cors, 'content-type': 'application/json', 'content-length': String(HUGE) });
    res.write(open);
    const chunk = 'x'.repeat(1 << 20);
    let left = filler;
    const more = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!res.write(n === chunk.length ? chunk : chunk.slice(0, n))) {
          res.once('drain', more);
          return;
        }
      }
      res.end(close);
    };
    res.on('error', () => {});
    more();
    return undefined;
  }
  if (msg.method === 'tools/call') {
    const city = msg.params?.arguments?.city ?? 'nowhere';
    const eventId = `${randomUUID()}-1`;
    held.set(eventId, {
      jsonrpc: '2.0', id: msg.id,
      result: { content: [{ type: 'text', text: `${city}: the report survived a broken stream` }] },
    });
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // The priming event: an id to resume from and a short retry; then the cut. The
    // cut waits 400 ms: with 20 ms, once, on a busy machine (a full test run beside
    // a build and another browser run), the page's reader met the reset without
    // the event, so the call ended with no id to resume from.
    res.write(`id: ${eventId}\nretry: 100\ndata: \n\n`, () => setTimeout(() => res.destroy(), 400));
    return undefined;
  }
  const result = answer(msg);
  const headers = { 'content-type': 'application/json' };
  if (msg.method === 'initialize') {
    const id = randomUUID();
    sessions.add(id);
    headers['mcp-session-id'] = id;
  }
  const reply = result === null
    ? { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } }
    : { jsonrpc: '2.0', id: msg.id, result };
  return send(res, 200, headers, JSON.stringify(reply));
}

function onGet(req, res) {
  const last = req.headers['last-event-id'];
  const reply = last && held.get(last);
  // No standalone stream here: only a resumption gets a stream.
  if (!reply) return send(res, 405);
  held.delete(last);
  res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(`id: ${last.replace(/-1$/, '-2')}\nevent: message\ndata: ${JSON.stringify(reply)}\n\n`);
  return undefined;
}

const server = createServer((req, res) => {
  if (req.method === 'OPTIONS') return send(res, 204);
  if (req.method === 'GET') return onGet(req, res);
  if (req.method === 'DELETE') {
    sessions.delete(req.headers['mcp-session-id']);
    return send(res, 200);
  }
  if (req.method !== 'POST') return send(res, 405);
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    let msg;
    try {
      msg = JSON.parse(body);
    } catch {
      send(res, 400);
      return;
    }
    onPost(req, res, msg);
  });
  return undefined;
});
server.listen(port, '127.0.0.1', () => {
  console.log(`resumable-http listening on http://127.0.0.1:${server.address().port}/mcp`);
});
