// The Server panel's Doctor (mcpg-doctor's browser run): against a plain HTTP
// server with no CORS headers (the browser blocks the POST; a no-cors request shows
// the server is up, so CORS fails with the relay's fix), against server-everything
// over Streamable HTTP (permissive CORS: the handshake and the tools pass), and
// against the demo over HTTP that the page answers itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as netServer } from 'node:net';
import { join } from 'node:path';
import { closeBrowser, openPage, root, tid, urlWith } from './support.mjs';

/** What the browser logs on its own for a blocked or refused fetch. */
const expected = /CORS policy|Failed to load resource|net::ERR_FAILED|status of 4\d\d/;

/** A server that answers MCP's initialize but sends no CORS header at all. */
function plainServer() {
  const seen = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, contentType: req.headers['content-type'] });
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        jsonrpc: '2.0', id: 0,
        result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'no-cors', version: '1' } },
      }));
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, seen, url: `http://127.0.0.1:${server.address().port}/mcp` })));
}

/** A server that allows CORS and refuses every request with markup in its message. */
function hostileServer() {
  const server = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'POST, GET, DELETE',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      let id = null;
      try { id = JSON.parse(body).id ?? null; } catch { /* answered with a null id */ }
      res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({
        jsonrpc: '2.0', id,
        error: { code: -32603, message: '<img src=x onerror="window.__pwned=1">' },
      }));
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${server.address().port}/mcp` })));
}

/** A free port (server-everything wants a fixed one). */
function freePort() {
  return new Promise((ok, fail) => {
    const s = netServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/** server-everything over Streamable HTTP: `cargo xtask e2e`'s, or one started here. */
async function everything() {
  if (process.env.MCPG_E2E_EVERYTHING_URL) return { url: process.env.MCPG_E2E_EVERYTHING_URL, stop: () => {} };
  const port = await freePort();
  const js = join(root, 'tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  const child = spawn('node', [js, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url, { method: 'GET' }).then((r) => r.body?.cancel());
      return { url, stop: () => child.kill() };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill();
  throw new Error('server-everything did not start');
}

/** Runs the Doctor against `url` from a fresh page; the rows by check id. */
async function doctor(url) {
  const p = await openPage(urlWith());
  await p.page.selectOption(tid('source-select'), 'url');
  await p.page.fill(tid('url-input'), url);
  await p.page.click(tid('tab-server'));
  await p.page.click(tid('doctor-run'));
  await p.page.waitForSelector(`${tid('doctor-summary')}[data-state="done"]`, { timeout: 60_000 });
  const rows = await p.page.$$eval(tid('doctor-check'), (els) => els.map((e) => ({
    id: e.dataset.check,
    verdict: e.dataset.verdict,
    evidence: e.querySelector('[data-testid=doctor-evidence]')?.textContent ?? '',
    fix: e.querySelector('[data-testid=doctor-fix]')?.textContent ?? '',
  })));
  const summary = await p.page.$eval(tid('doctor-summary'), (e) => e.dataset.verdict);
  return { p, rows: Object.fromEntries(rows.map((r) => [r.id, r])), order: rows.map((r) => r.id), summary };
}

const ALL = ['dns', 'tcp', 'tls', 'http-post', 'http-accept', 'cors', 'auth-discovery', 'server-discover',
  'initialize', 'revisions', 'tools-list', 'x-mcp-header', 'tool-schemas', 'capabilities'];

describe('the Doctor in the Server panel', () => {
  let plain;
  let every;
  let hostile;
  before(async () => {
    plain = await plainServer();
    every = await everything();
    hostile = await hostileServer();
  });
  after(async () => {
    plain?.server.close();
    hostile?.server.close();
    every?.stop();
    await closeBrowser();
  });

  it('a server with no CORS headers: the POST is blocked, CORS fails with the relay fix', async () => {
    const { p, rows, order, summary } = await doctor(plain.url);
    try {
      assert.deepEqual(order, ALL);
      assert.equal(summary, 'fail');
      assert.equal(rows.cors.verdict, 'fail');
      assert.match(rows.cors.evidence, /blocked the POST/);
      assert.match(rows.cors.fix, /mcpg serve --config bridge\.toml/);
      assert.match(rows.cors.fix, new RegExp(`url = "${plain.url.replace(/[.]/g, '\\.')}"`));
      assert.match(rows.cors.fix, /\/relay\/my-remote/);
      assert.equal(rows.tcp.verdict, 'pass');
      assert.equal(rows['http-post'].verdict, 'skip');
      assert.equal(rows['tools-list'].verdict, 'skip');
      assert.match(rows['tools-list'].evidence, /CORS/);
      // The page fetched only the URL in the box: the blocked POST (a preflight
      // first, which the server answers 405) and the no-cors POST (text/plain).
      assert.ok(plain.seen.length > 0);
      assert.ok(plain.seen.every((s) => s.url === '/mcp'), JSON.stringify(plain.seen));
      assert.ok(plain.seen.some((s) => s.method === 'POST' && /text\/plain/.test(s.contentType ?? '')));
      assert.deepEqual(p.errors.filter((e) => !expected.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('a server behind a sign-in: the Doctor finds where to sign in (its metadata and the authorization server\'s)', async () => {
    const mcpUrl = process.env.MCPG_E2E_AUTH_MCP_URL;
    assert.ok(mcpUrl, 'MCPG_E2E_AUTH_MCP_URL comes from cargo xtask e2e');
    const { p, rows } = await doctor(mcpUrl);
    try {
      const auth = rows['auth-discovery'];
      assert.ok(['pass', 'warn'].includes(auth.verdict), `${auth.verdict}: ${auth.evidence}`);
      assert.match(auth.evidence, /HTTP 401 with WWW-Authenticate: Bearer/);
      assert.match(auth.evidence, /protected resource metadata at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource/);
      assert.match(auth.evidence, /authorization server metadata at http:\/\/127\.0\.0\.1:\d+\//);
      assert.match(auth.fix, /sign/i);
      assert.equal(rows.initialize.verdict, 'skip');
      assert.deepEqual(p.errors.filter((e) => !expected.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('server-everything over Streamable HTTP: the handshake and the tools pass', async () => {
    const { p, rows, order, summary } = await doctor(every.url);
    try {
      assert.deepEqual(order, ALL);
      for (const id of ['dns', 'tcp', 'http-post', 'http-accept', 'cors', 'initialize', 'revisions', 'tools-list', 'tool-schemas']) {
        assert.equal(rows[id].verdict, 'pass', `${id}: ${rows[id].evidence}`);
      }
      assert.equal(rows.tls.verdict, 'skip');
      assert.match(rows.tls.evidence, /plain http/);
      assert.equal(rows['auth-discovery'].verdict, 'skip');
      // It speaks only initialize's revisions: server/discover warns, naming the fallback.
      assert.equal(rows['server-discover'].verdict, 'warn');
      assert.match(rows['tools-list'].evidence, /tool/);
      assert.notEqual(summary, 'fail');
      assert.deepEqual(p.errors.filter((e) => !expected.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('the demo over HTTP, answered inside the page: every session check runs', async () => {
    const { p, rows, summary } = await doctor('https://mcp.demo-sse.invalid/mcp');
    try {
      for (const id of ['http-post', 'cors', 'initialize', 'revisions', 'tools-list', 'tool-schemas', 'capabilities']) {
        assert.equal(rows[id].verdict, 'pass', `${id}: ${rows[id].evidence}`);
      }
      // No network was involved, and the Doctor does not claim one passed.
      for (const id of ['dns', 'tcp', 'tls']) {
        assert.equal(rows[id].verdict, 'skip', `${id}: ${rows[id].evidence}`);
        assert.match(rows[id].evidence, /answered inside this page/);
      }
      assert.notEqual(summary, 'fail');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });

  it('what a server says is shown as text, never as HTML', async () => {
    const { p, rows, summary } = await doctor(hostile.url);
    try {
      assert.equal(summary, 'fail');
      assert.equal(rows.initialize.verdict, 'fail');
      assert.match(rows.initialize.evidence, /-32603: <img src=x onerror=/);
      assert.equal(await p.page.$(`${tid('doctor')} img`), null);
      assert.equal(await p.page.evaluate(() => window.__pwned), undefined);
    } finally {
      await p.close();
    }
  });

  it('with no URL in the box it says what it checks', async () => {
    const p = await openPage(urlWith());
    try {
      await p.page.click(tid('tab-server'));
      await p.page.click(tid('doctor-run'));
      assert.match(await p.page.textContent(tid('doctor-note')), /http\(s\) URL/);
      assert.equal(await p.page.$(tid('doctor-check')), null);
    } finally {
      await p.close();
    }
  });
});
