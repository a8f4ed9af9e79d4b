// A minimal Streamable HTTP MCP server for the e2e tests that sends no CORS
// headers, like most servers: a page cannot call it directly, the bridge's relay can.
// JSON responses only, no sessions. Usage: node plain_http_server.mjs PORT
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const tools = [{
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
}];

function answer(msg) {
  switch (msg.method) {
    case 'initialize':
      return { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'plain-http', version: '1.0.0' } };
    case 'tools/list':
      return { tools };
    case 'tools/call': {
      const { a, b } = msg.params?.arguments ?? {};
      return { content: [{ type: 'text', text: `${a} + ${b} = ${a + b}` }] };
    }
    case 'ping':
      return {};
    default:
      return null;
  }
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    let msg;
    try {
      msg = JSON.parse(body);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (msg.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const result = answer(msg);
    const reply = result === null
      ? { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } }
      : { jsonrpc: '2.0', id: msg.id, result };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  });
});
server.listen(port, '127.0.0.1', () => {
  console.log(`plain-http listening on http://127.0.0.1:${server.address().port}/mcp`);
});
