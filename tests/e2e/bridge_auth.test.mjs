// The bridge's authorization plumbing (issue 15) in a real browser, below the page's UI:
// from the bridge's own origin, the relayed protected server's 401 challenge is readable,
// /api/oauth-fetch reaches the real authorization server (oidc-provider), Chromium logs in
// through its login and consent forms, and the page's own token for the remote
// (Mcpg-Remote-Authorization) gets `whoami` answered while the bridge token stays home.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrl, closeBrowser, openPage } from './support.mjs';

const asUrl = process.env.MCPG_E2E_AS_URL;
const mcpUrl = process.env.MCPG_E2E_AUTH_MCP_URL;
const bridgeToken = new URL(baseUrl).searchParams.get('token');
const origin = new URL(baseUrl).origin;
const redirectUri = `${origin}/oauth-callback.html`;

const initialize = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
};

/**
 * Runs `fetch` inside the page (same origin as the bridge) and returns status, headers,
 * text. Each request has 30 s (the slowest takes well under one): a request that hangs
 * fails the test naming itself, not after the runner's five minutes.
 */
async function pageFetch(page, url, init) {
  const started = Date.now();
  const r = await page.evaluate(async ([u, i]) => {
    try {
      const r = await fetch(u, { ...i, signal: AbortSignal.timeout(30_000) });
      return { status: r.status, headers: Object.fromEntries(r.headers.entries()), text: await r.text() };
    } catch (e) {
      return { failed: `${e.name}: ${e.message}` };
    }
  }, [url, init]);
  assert.ok(!r.failed, `${init.method} ${url} (${init.body?.slice(0, 80)}): ${r.failed} after ${Date.now() - started} ms`);
  return r;
}

/** `/api/oauth-fetch` with the bridge token; the relayed answer. */
async function viaBridge(page, ask) {
  const r = await pageFetch(page, '/api/oauth-fetch', {
    method: 'POST',
    headers: { authorization: `Bearer ${bridgeToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(ask),
  });
  assert.equal(r.status, 200, r.text);
  return JSON.parse(r.text);
}

/** POST to the relayed protected server with the bridge token and `extra` headers. */
function relay(page, message, extra = {}) {
  return pageFetch(page, '/relay/protected', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bridgeToken}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...extra,
    },
    body: JSON.stringify(message),
  });
}

describe('the bridge in front of a protected server and its authorization server', () => {
  after(closeBrowser);

  it('relays the challenge, fetches for the page, and forwards the page token after a real login', async () => {
    assert.ok(asUrl && mcpUrl, 'MCPG_E2E_AS_URL and MCPG_E2E_AUTH_MCP_URL come from cargo xtask e2e');
    const p = await openPage(baseUrl);
    try {
      const refused = await relay(p.page, initialize);
      assert.equal(refused.status, 401);
      assert.match(refused.headers['www-authenticate'], /resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/);

      const meta = await viaBridge(p.page, { method: 'GET', url: `${asUrl}/.well-known/oauth-authorization-server` });
      assert.equal(meta.status, 200);
      const as = JSON.parse(meta.body);
      assert.equal(as.issuer, asUrl);
      const reg = await viaBridge(p.page, {
        method: 'POST', url: as.registration_endpoint,
        headers: [['content-type', 'application/json']],
        body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', client_name: 'e2e' }),
      });
      assert.equal(reg.status, 201, reg.body);
      const clientId = JSON.parse(reg.body).client_id;

      // PKCE S256 with the browser's own crypto.
      const verifier = 'e2e-verifier-'.padEnd(64, 'x');
      const challenge = await p.page.evaluate(async (v) => {
        const d = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(v)));
        return btoa(String.fromCharCode(...d)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      }, verifier);
      const authorize = new URL(as.authorization_endpoint);
      for (const [k, v] of Object.entries({
        response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'mcp:tools',
        state: 'e2e-state', code_challenge: challenge, code_challenge_method: 'S256', resource: mcpUrl,
      })) authorize.searchParams.set(k, v);

      // The user's leg, in a second tab: the AS's login form, then its consent form.
      const tab = await p.page.context().newPage();
      await tab.goto(authorize.toString());
      await tab.fill('input[name=login]', 'alice');
      await tab.fill('input[name=password]', 'any');
      await tab.click('button[type=submit]');
      await tab.locator('input[name=prompt][value=consent]').waitFor({ state: 'attached' });
      // The redirect itself is what counts; oauth-callback.html then loads in the tab,
      // through the page's service worker.
      const redirected = tab.waitForRequest((r) => r.url().startsWith(`${redirectUri}?`));
      await tab.click('button[type=submit]');
      const back = new URL((await redirected).url());
      // The tab is not closed here but with its context, and only once the callback's
      // script has run: a close sent while the callback page was committing under
      // the service worker was accepted by Chromium and never carried out, and
      // Playwright's close waited for good (CI's five-minute timeouts in this file).
      await tab.waitForFunction(() => /Signed in/.test(document.getElementById('msg')?.textContent ?? ''));
      assert.equal(back.searchParams.get('state'), 'e2e-state');
      assert.equal(back.searchParams.get('iss'), asUrl);

      const form = new URLSearchParams({
        grant_type: 'authorization_code', code: back.searchParams.get('code'), redirect_uri: redirectUri,
        client_id: clientId, code_verifier: verifier, resource: mcpUrl,
      });
      const tokenAnswer = await viaBridge(p.page, {
        method: 'POST', url: as.token_endpoint,
        headers: [['content-type', 'application/x-www-form-urlencoded']], body: form.toString(),
      });
      assert.equal(tokenAnswer.status, 200, tokenAnswer.body);
      const accessToken = JSON.parse(tokenAnswer.body).access_token;

      const bearer = { 'mcpg-remote-authorization': `Bearer ${accessToken}` };
      const init = await relay(p.page, initialize, bearer);
      assert.equal(init.status, 200, init.text);
      const session = { ...bearer, 'mcp-session-id': init.headers['mcp-session-id'] };
      await relay(p.page, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
      const who = await relay(p.page, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } }, session);
      assert.equal(who.status, 200);
      assert.match(who.text, /\\"subject\\": \\"alice\\"/);
    } finally {
      await p.close();
    }
  });
});
