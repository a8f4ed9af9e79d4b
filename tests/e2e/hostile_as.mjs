// A hostile protected MCP server and its hostile authorization servers for the e2e
// tests (issue 26), started in the test's own process (node:http, no dependencies),
// next to hostile_server.mjs (the stdio server whose markup must stay text).
//
// - `POST /mcp/VARIANT` answers 401 with a `resource_metadata` naming this server's
//   Protected Resource Metadata, which names an authorization server:
//   - `js`: metadata whose `authorization_endpoint` is a `javascript:` URL that
//     would set `window.pwned` and call the trap;
//   - `data`: the same as a `data:text/html,…` page with a script;
//   - `huge`: metadata of 2 MiB, streamed without a length (the page must stop
//     reading at its ceiling, not hold it all);
//   - `loopback`: the trap itself, a "local service" on loopback that answers
//     anything with 200 and JSON but sends no CORS headers, so only the bridge's
//     go-between could read it.
//   Everything but the trap sends permissive CORS headers, as a real remote server
//   a learner points the page at would.
// - `redirect` (for headers, not OAuth): `POST /mcp/redirect` answers 307 to the
//   trap's `/mcp`, which would be another origin; the trap counts what arrives
//   and with which headers.
//
// The trap records every request: its path, whether a browser made it (browsers
// send `Sec-Fetch-Mode`, the bridge's reqwest does not) and its headers.
import { createServer } from 'node:http';

/** Listens on a free loopback port; resolves with the server and its base URL. */
function listen(handler) {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${server.address().port}` }));
  });
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': 'www-authenticate, mcp-session-id, location',
};

function json(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts the trap and the hostile server; `stop()` closes both. */
export async function startHostileAs() {
  const hits = [];
  const trap = await listen((req, res) => {
    hits.push({
      path: req.url,
      method: req.method,
      browser: req.headers['sec-fetch-mode'] !== undefined,
      headers: { ...req.headers },
    });
    // A local service's answer: what a remote server must never read through the
    // bridge. No CORS headers, except for the redirect's target, which must look
    // like a server that would take the headers if they were sent on.
    if (req.url.startsWith('/mcp')) {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS);
        res.end();
        return;
      }
      json(res, 401, { error: 'caught' }, CORS);
      return;
    }
    json(res, 200, {
      issuer: trap.base,
      authorization_endpoint: `${trap.base}/authorize`,
      token_endpoint: `${trap.base}/token`,
      secret_of_the_local_service: 'local-only',
    });
  });

  const payloads = {
    js: `javascript:window.pwned=1;fetch('${trap.base}/js-ran');//`,
    data: `data:text/html,<script>fetch('${trap.base}/data-ran')</script>`,
  };

  const hostile = await listen((req, res) => {
    const url = new URL(req.url, 'http://x');
    const base = hostile.base;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    let m = url.pathname.match(/^\/mcp\/(\w+)$/);
    if (m && m[1] === 'redirect') {
      res.writeHead(307, { ...CORS, location: `${trap.base}/mcp` });
      res.end();
      return;
    }
    if (m) {
      // Drain the body first (the page's initialize).
      req.resume();
      req.on('end', () => {
        res.writeHead(401, {
          ...CORS,
          'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp/${m[1]}"`,
        });
        res.end();
      });
      return;
    }
    m = url.pathname.match(/^\/\.well-known\/oauth-protected-resource\/mcp\/(\w+)$/);
    if (m) {
      const as = m[1] === 'loopback' ? trap.base : `${base}/as/${m[1]}`;
      json(res, 200, { resource: `${base}/mcp/${m[1]}`, authorization_servers: [as] }, CORS);
      return;
    }
    m = url.pathname.match(/^\/\.well-known\/(?:oauth-authorization-server|openid-configuration)\/as\/(\w+)$/)
      ?? url.pathname.match(/^\/as\/(\w+)\/\.well-known\/(?:oauth-authorization-server|openid-configuration)$/);
    if (m && m[1] === 'huge') {
      // Chunked, no Content-Length: the page cannot refuse it by its declared size.
      res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
      res.write(`{"issuer":"${base}/as/huge","padding":"`);
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 32) {
          sent += 1;
          if (!res.write(chunk)) {
            res.once('drain', more);
            return;
          }
        }
        res.end('"}');
      };
      res.on('error', () => {});
      more();
      return;
    }
    if (m && payloads[m[1]]) {
      const issuer = `${base}/as/${m[1]}`;
      json(res, 200, {
        issuer,
        authorization_endpoint: payloads[m[1]],
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/reg`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      }, CORS);
      return;
    }
    m = url.pathname.match(/^\/as\/(\w+)\/reg$/);
    if (m && req.method === 'POST') {
      let body = '';
      req.on('data', (d) => { body += d; });
      req.on('end', () => {
        let asked = {};
        try {
          asked = JSON.parse(body);
        } catch {
          // An empty registration is answered all the same.
        }
        json(res, 201, { ...asked, client_id: 'hostile-client', token_endpoint_auth_method: 'none' }, CORS);
      });
      return;
    }
    json(res, 404, { error: 'not found' }, CORS);
  });

  return {
    /** The MCP endpoint of `variant` (`js`, `data`, `loopback`, `redirect`). */
    mcpUrl: (variant) => `${hostile.base}/mcp/${variant}`,
    trapUrl: trap.base,
    /** Every request the trap received so far. */
    hits,
    stop: async () => {
      for (const s of [hostile.server, trap.server]) {
        s.closeAllConnections?.();
        await new Promise((r) => s.close(r));
      }
    },
  };
}
