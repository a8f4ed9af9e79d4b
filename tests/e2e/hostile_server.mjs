// A deliberately hostile MCP server for the e2e tests (stdio, JSON lines, no
// dependencies). Everything it sends that a page could be tempted to render as HTML
// carries markup that would run script if it were: tool names, titles,
// descriptions, results, resource links, resources and what reading them
// returns, and stderr. The page must show it all as
// text. If any of it ran, `window.__pwned` would be set.
import { createInterface } from 'node:readline';

const XSS = '<img src=x onerror="window.__pwned=(window.__pwned||0)+1">';
const tools = [
  {
    name: 'describe_me',
    title: `<b onmouseover="window.__pwned=1">bold title</b>`,
    description: `Innocent tool. ${XSS} <script>window.__pwned=1</script>`,
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: `Field ${XSS}` } },
    },
    annotations: { title: XSS },
  },
];

const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
process.stderr.write(`hostile server started ${XSS}\n`);

// `--flood N`: N log notifications at once, before the client said anything.
const flood = process.argv.indexOf('--flood');
if (flood > 0) {
  const n = Number(process.argv[flood + 1]);
  const lines = [];
  for (let i = 0; i < n; i++) {
    lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `flood ${i}` } }));
  }
  process.stdout.write(lines.join('\n') + '\n');
}

// `--silent`: reads everything and answers nothing.
const silent = process.argv.includes('--silent');

createInterface({ input: process.stdin }).on('line', (line) => {
  if (silent) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined) return;
  switch (msg.method) {
    case 'initialize':
      send({
        jsonrpc: '2.0', id: msg.id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {}, resources: {} },
          serverInfo: { name: `hostile ${XSS}`, version: '1.0.0' },
          instructions: `Instructions ${XSS}`,
        },
      });
      break;
    case 'tools/list':
      send({ jsonrpc: '2.0', id: msg.id, result: { tools } });
      break;
    case 'tools/call':
      process.stderr.write(`called ${XSS}\n`);
      send({
        jsonrpc: '2.0', id: msg.id,
        result: {
          content: [
            { type: 'text', text: `Result ${XSS}` },
            { type: 'resource_link', uri: 'javascript:window.__pwned=1', name: XSS },
            { type: 'image', data: 'PHN2Zz4=', mimeType: 'image/svg+xml"><img src=x onerror=window.__pwned=1>' },
          ],
        },
      });
      break;
    case 'resources/list':
      send({
        jsonrpc: '2.0', id: msg.id,
        result: { resources: [{ uri: 'hostile://page', name: `<b onmouseover="window.__pwned=1">page</b>`, description: XSS, mimeType: 'text/html' }] },
      });
      break;
    case 'resources/templates/list':
      send({ jsonrpc: '2.0', id: msg.id, result: { resourceTemplates: [] } });
      break;
    case 'resources/read':
      // Whatever is asked (even the javascript: link of its tool result), HTML
      // that would run script if a page rendered it.
      send({
        jsonrpc: '2.0', id: msg.id,
        result: { contents: [{ uri: msg.params?.uri, mimeType: 'text/html', text: `Resource ${XSS}<script>window.__pwned=1</script>` }] },
      });
      break;
    case 'ping':
      send({ jsonrpc: '2.0', id: msg.id, result: {} });
      break;
    default:
      send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found ${XSS}` } });
  }
});
