// OAuth in the page (issue 15), against a real authorization server (oidc-provider)
// in front of a protected MCP server (the Python SDK's auth support): connect, 401,
// "Sign in" (nothing fetched before the click), the popup through the AS's login and
// consent forms, back, tools listed, `whoami` called; the exchange cards; a refresh
// after the token expired; a step-up on `admin_report`; and the secrets: no token in
// the DOM, the wire view, the export, the share link, storage or the console.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { tmpdir } from 'node:os';

import { signInAt, startAuthPeers, startRelayBridge } from './auth_support.mjs';
import { expectNoSeriousA11y } from './axe.mjs';
import { closeBrowser, connected, distDir, openPage, root, shotsDir, tid, urlWith } from './support.mjs';

/** Access tokens live this long (seconds): the refresh test waits it out. */
const TTL = 12;

/** What Chromium logs on its own for the refused requests (401, 403). */
const expectedConsole = /status of 40[13]/;

/** The result panel's text once the call has an outcome. */
async function callTool(page, name) {
  await page.click(tid('reset-button'));
  await page.click(tid('tab-tools'));
  await page.click(`[data-tool="${name}"] [data-testid=tool-use]`);
  await page.click(tid('form-send'));
}

async function resultText(page, pattern) {
  await page.click(tid('tab-result'));
  await page.waitForFunction(
    (src) => new RegExp(src).test(document.querySelector('[data-testid=result-panel]')?.textContent ?? ''),
    pattern.source,
  );
  return page.textContent(tid('result-panel'));
}

/** The steps of the cards shown (`data-step`). */
const cardSteps = (page) => page.$$eval(tid('oauth-card'), (els) => els.map((e) => e.dataset.step));

/**
 * A page connected to nothing yet that records its requests and console. `tokens`
 * are the access tokens the AS has issued and `secrets` the codes and refresh
 * tokens: the AS prints what it issues (`--print-issued`), so no response body has
 * to be read in the browser, which Chromium may already have dropped on a busy machine.
 */
async function authPage(peers) {
  const p = await openPage(peers.url ?? urlWith({ url: peers.mcpUrl }));
  p.console = [];
  p.page.on('console', (m) => p.console.push(m.text()));
  p.asRequests = [];
  p.tokens = peers.issued.access;
  const codes = [];
  Object.defineProperty(p, 'secrets', { get: () => [...codes, ...peers.issued.refresh] });
  p.page.context().on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.endsWith('/oauth-callback.html') && u.searchParams.get('code')) codes.push(u.searchParams.get('code'));
  });
  p.page.on('request', (r) => {
    if (r.url().startsWith(peers.asUrl) || r.url().includes('/.well-known/')) p.asRequests.push(r.url());
  });
  return p;
}

/**
 * Through the sign-in window: the AS's forms, back to the page, signed in. The
 * window has no opener (issue 26): the AS's pages in it cannot navigate this tab.
 */
async function signIn(page) {
  await page.waitForSelector(tid('oauth-open'));
  const [popup] = await Promise.all([page.context().waitForEvent('page'), page.click(tid('oauth-open'))]);
  assert.equal(await popup.evaluate(() => window.opener), null, 'the sign-in window has no opener');
  await signInAt(popup);
  await page.waitForSelector(`${tid('oauth-status')}.ok`);
}

/** Every place a secret must not be: the DOM's text and form values, storage, the wire view, the export, the share link, the console. */
async function everywhere(page, p) {
  const dom = await page.evaluate(() => [
    document.body.innerText,
    ...[...document.querySelectorAll('input, textarea')].map((e) => e.value),
    JSON.stringify({ ...localStorage }),
    JSON.stringify({ ...sessionStorage }),
    location.href,
  ].join('\n'));
  await page.click(tid('tab-wire'));
  const wire = await page.textContent(tid('wire-log'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(tid('export-button'))]);
  const exported = readFileSync(await download.path(), 'utf8');
  await page.click(tid('share-button'));
  await page.waitForFunction(() => document.querySelector('[data-testid=share-link]')?.value);
  const link = await page.inputValue(tid('share-link'));
  return { dom, wire, exported, link, console: p.console.join('\n') };
}

describe('OAuth in the page', () => {
  let peers;
  before(async () => {
    peers = await startAuthPeers({ ttl: TTL });
  });
  after(async () => {
    await peers?.stop();
    await closeBrowser();
  });

  it('401, sign in through the AS, whoami; the cards; refresh after expiry; no token anywhere', async () => {
    const p = await authPage(peers);
    const { page } = p;
    try {
      await page.waitForSelector(tid('auth-needed'));
      assert.match(await page.textContent(tid('auth-challenge')), /resource_metadata=/);
      // Nothing is fetched from the metadata or the AS before the click.
      assert.deepEqual(p.asRequests, []);
      await expectNoSeriousA11y(page, 'the server wants authorization');

      await page.click(tid('sign-in'));
      await page.waitForSelector(tid('oauth-open'));
      const before = await cardSteps(page);
      assert.deepEqual(before.slice(0, 1), ['prm'], `${before}`);
      assert.ok(before.includes('asm') && before.includes('registration'), `${before}`);
      // The popup is opened only by the second click.
      assert.equal(page.context().pages().length, 1);
      assert.match(await page.textContent(tid('oauth-authorize-url')), /code_challenge_method=S256/);
      assert.match(await page.textContent(tid('oauth-authorize-url')), /resource=/);
      await expectNoSeriousA11y(page, 'the authorization URL');
      await signIn(page);
      await connected(page, 'python-protected');
      const steps = await cardSteps(page);
      assert.ok(steps.includes('token'), `${steps}`);
      await expectNoSeriousA11y(page, 'signed in, the cards');

      await callTool(page, 'whoami');
      const who = await resultText(page, /learner/);
      assert.match(who, /mcp:tools/);

      // The token expires; the next call is refused (401) and the page refreshes it
      // without a click, then the call goes through.
      const issued = p.tokens.length;
      assert.ok(issued >= 1, 'the page got an access token');
      await page.waitForFunction((ms) => Date.now() > ms, Date.now() + TTL * 1000 + 1000, { polling: 500, timeout: (TTL + 10) * 1000 });
      await callTool(page, 'whoami');
      await page.waitForSelector(`${tid('oauth-card')}[data-step=refresh]`);
      await resultText(page, /learner/);
      // The AS's line saying what it issued may come a moment after the page has the token.
      for (let waited = 0; p.tokens.length <= issued && waited < 5000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(p.tokens.length > issued, 'a new access token came from the refresh');

      const seen = await everywhere(page, p);
      assert.ok(p.secrets.length >= 2, 'a code and a refresh token were seen');
      for (const token of [...p.tokens, ...p.secrets]) {
        for (const [where, text] of Object.entries(seen)) {
          assert.ok(!text.includes(token), `the access token is in the ${where}`);
          assert.ok(!text.includes(token.slice(0, 16)), `part of a secret is in the ${where}`);
        }
      }
      assert.ok(!/Bearer [A-Za-z0-9._-]{12,}/.test(seen.wire + seen.exported + seen.dom), 'a bearer token is shown');
      assert.deepEqual(p.errors.filter((e) => !expectedConsole.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('a step-up: admin_report is refused with 403 insufficient_scope, signing in again gets it', async () => {
    const p = await authPage(peers);
    const { page } = p;
    try {
      await page.waitForSelector(tid('sign-in'));
      await page.click(tid('sign-in'));
      await signIn(page);
      await connected(page, 'python-protected');
      await callTool(page, 'admin_report');
      const outcome = await Promise.race([
        page.waitForSelector(tid('auth-needed'), { timeout: 20_000 }).then(() => 'step-up'),
        resultText(page, /admin report for/).then(() => 'granted'),
      ]);
      if (outcome === 'step-up') {
        assert.match(await page.textContent(tid('auth-needed')), /403/);
        assert.match(await page.textContent(tid('auth-challenge')), /insufficient_scope/);
        await page.click(tid('sign-in'));
        await signIn(page);
        assert.match(await page.textContent(tid('oauth-status')), /mcp:admin/);
      }
      assert.equal(outcome, 'step-up', 'the first token had no mcp:admin, so the server asked for a step-up');
      await resultText(page, /admin report for learner/);
      assert.deepEqual(p.errors.filter((e) => !expectedConsole.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('step mode stops between exchanges; the lesson cards (README screenshot)', async () => {
    const p = await authPage(peers);
    const { page } = p;
    try {
      await page.waitForSelector(tid('sign-in'));
      await page.check(tid('oauth-step-mode'));
      await page.click(tid('sign-in'));
      await page.waitForSelector(tid('oauth-next'));
      assert.equal((await cardSteps(page)).length, 1);
      // Stopped after the resource metadata: the authorization server is not asked
      // until the click (without step mode its metadata request follows at once).
      assert.ok(!p.asRequests.some((u) => u.startsWith(peers.asUrl)), `${p.asRequests}`);
      assert.equal((await cardSteps(page)).length, 1);
      for (let n = 2; n <= 3; n += 1) {
        await page.click(tid('oauth-next'));
        await page.waitForFunction((c) => document.querySelectorAll('[data-testid=oauth-card]').length >= c, n);
      }
      const card = page.locator(tid('oauth-card')).first();
      assert.match(await card.locator(tid('oauth-spec')).textContent(), /RFC 9728|Protected Resource Metadata/i);
      assert.ok((await card.locator(tid('oauth-why')).textContent()).length > 20);
      await expectNoSeriousA11y(page, 'step mode');
      // The cards themselves, as the README shows them.
      const path = join(shotsDir, 'oauth-lesson.png');
      const box = await page.locator(tid('oauth-cards')).boundingBox();
      const top = box.y + (await page.evaluate(() => window.scrollY));
      await page.screenshot({ path, fullPage: true, clip: { ...box, y: top, height: Math.min(box.height, 1100) } });
      if (process.env.MCPG_UPDATE_SCREENSHOT === '1') {
        mkdirSync(join(root, 'docs'), { recursive: true });
        copyFileSync(path, join(root, 'docs', 'oauth-lesson.png'));
      }
      assert.deepEqual(p.errors.filter((e) => !expectedConsole.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('a forged state in the redirect is refused', async () => {
    const p = await authPage(peers);
    const { page } = p;
    try {
      await page.waitForSelector(tid('sign-in'));
      await page.click(tid('sign-in'));
      await page.waitForSelector(tid('oauth-open'));
      // A window message is not how the redirect comes back any more (issue 26):
      // nothing happens.
      await page.evaluate(() => window.postMessage(
        { mcpgOAuthRedirect: new URL('oauth-callback.html?code=stolen&state=forged', location.href).href },
        location.origin,
      ));
      await page.waitForTimeout(300);
      assert.equal(await page.$(`${tid('oauth-status')}.bad`), null, 'a window message is ignored');
      // What a forged callback would hand back on the channel: a code with a state
      // the page never sent.
      await page.evaluate(() => new BroadcastChannel('mcpg-oauth').postMessage(
        { mcpgOAuthRedirect: new URL('oauth-callback.html?code=stolen&state=forged', location.href).href },
      ));
      await page.waitForSelector(`${tid('oauth-status')}.bad`);
      assert.match(await page.textContent(tid('oauth-status')), /state/);
      assert.ok(!p.asRequests.some((u) => /token/.test(u)), 'no token request for a forged redirect');
    } finally {
      await p.close();
    }
  });

  it('the callback page posts only to its own origin', async () => {
    const p = await openPage(`${peers.asUrl}/.well-known/openid-configuration`);
    try {
      const callback = new URL('oauth-callback.html?code=c&state=s', urlWith({})).href;
      // A window of another origin opens the callback: it must hear nothing.
      const heard = await p.page.evaluate(async (url) => {
        const got = [];
        window.addEventListener('message', (e) => got.push(e.origin));
        // Nor on the channel of the same name in this other origin.
        new BroadcastChannel('mcpg-oauth').onmessage = (e) => got.push(`channel ${e.origin}`);
        const w = window.open(url, 'cb');
        await new Promise((resolve) => {
          const t = setInterval(() => { if (w.closed) { clearInterval(t); resolve(); } }, 50);
        });
        return got;
      }, callback);
      assert.deepEqual(heard, []);
    } finally {
      await p.close();
    }
  });

  it('an AS that refuses web pages (no CORS): the page says so and signs in through the bridge', async () => {
    const closed = await startAuthPeers({ ttl: 600, asCors: false });
    const p = await openPage(urlWith({ url: closed.mcpUrl }));
    try {
      const { page } = p;
      await page.waitForSelector(tid('sign-in'));
      await page.click(tid('sign-in'));
      await page.waitForSelector(tid('oauth-via-bridge'));
      assert.match(await page.textContent(tid('oauth-cors')), /CORS/);
      await expectNoSeriousA11y(page, 'the CORS advice');
      await page.click(tid('oauth-via-bridge'));
      await signIn(page);
      await connected(page, 'python-protected');
      await callTool(page, 'whoami');
      await resultText(page, /learner/);
      // The browser's own CORS refusals are expected here; nothing else.
      assert.deepEqual(p.errors.filter((e) => !expectedConsole.test(e) && !/CORS|Failed to fetch|ERR_FAILED/.test(e)), []);
    } finally {
      await p.close();
      await closed.stop();
    }
  });

  it("through the relay: the remote's 401 comes back, the token goes as Mcpg-Remote-Authorization", async () => {
    const bridge = await startRelayBridge(peers.mcpUrl, distDir, tmpdir());
    const u = new URL(bridge.pageUrl);
    u.searchParams.set('relay', 'protected');
    const p = await authPage({ ...peers, url: u.toString() });
    try {
      const { page } = p;
      await page.waitForSelector(tid('sign-in'));
      assert.match(await page.textContent(tid('auth-challenge')), /resource_metadata=/);
      await page.click(tid('sign-in'));
      await signIn(page);
      await connected(page, 'python-protected');
      await callTool(page, 'whoami');
      await resultText(page, /learner/);
      assert.deepEqual(p.errors.filter((e) => !expectedConsole.test(e)), []);
    } finally {
      await p.close();
      await bridge.stop();
    }
  });

  it('headers: a typed Bearer token is sent, masked, and kept nowhere but memory', async () => {
    const first = await authPage(peers);
    let token;
    try {
      await first.page.click(tid('sign-in'));
      await signIn(first.page);
      token = first.tokens.at(-1);
    } finally {
      await first.close();
    }
    const p = await openPage(urlWith({}));
    try {
      const { page } = p;
      await page.selectOption(tid('source-select'), 'url');
      await page.fill(tid('url-input'), peers.mcpUrl);
      await page.click(`${tid('conn-headers')} summary`);
      await page.fill(tid('bearer-input'), token);
      await page.press(tid('bearer-input'), 'Tab');
      assert.equal(await page.getAttribute(tid('header-value'), 'type'), 'password');
      await expectNoSeriousA11y(page, 'the headers box');
      await page.click(tid('connect-button'));
      await connected(page, 'python-protected');
      assert.equal(await page.$(tid('auth-needed')), null);
      const text = await page.evaluate(() => document.body.innerText + JSON.stringify({ ...localStorage, ...sessionStorage }));
      assert.ok(!text.includes(token));
      await page.click(tid('tab-wire'));
      assert.ok(!(await page.textContent(tid('wire-log'))).includes(token));
    } finally {
      await p.close();
    }
  });
});

describe('OAuth in the page: a client ID registered by hand', () => {
  let peers;
  before(async () => {
    // The same real AS with dynamic registration turned off: its metadata names no
    // registration endpoint, and oidc-provider offers no client ID metadata documents.
    peers = await startAuthPeers({ ttl: 3600, registration: false });
  });
  after(async () => {
    await peers?.stop();
    await closeBrowser();
  });

  it('no way to register: the page asks for a client ID with its redirect URI, then signs in with it', async () => {
    const p = await authPage(peers);
    const { page } = p;
    try {
      await page.waitForSelector(tid('sign-in'));
      await page.click(tid('sign-in'));
      await page.waitForSelector(tid('oauth-client-id'));
      const asked = await page.textContent(tid('oauth-status'));
      assert.match(asked, /no dynamic registration/);
      // The redirect URI to register is this page's own oauth-callback.html.
      const redirect = new URL('oauth-callback.html', new URL(page.url())).href;
      assert.ok(asked.includes(redirect), `${asked} names ${redirect}`);
      // The registration step's card says why there was none, with its rule id.
      const steps = await cardSteps(page);
      assert.ok(steps.includes('asm') && steps.includes('registration'), `${steps}`);
      assert.match(await page.textContent(`${tid('oauth-card')}[data-step=registration]`), /auth-no-registration/);
      assert.ok(!p.asRequests.some((u) => new URL(u).pathname === '/reg'), 'no registration was tried');
      await expectNoSeriousA11y(page, 'asking for a client ID');

      // `mcpg-public` is registered in as.mjs for loopback redirects (any port, RFC 8252).
      await page.fill(tid('oauth-client-id'), '  mcpg-public ');
      await page.click(tid('oauth-use-client'));
      await page.waitForSelector(tid('oauth-open'));
      const authorize = new URL(await page.textContent(tid('oauth-authorize-url')));
      assert.equal(authorize.searchParams.get('client_id'), 'mcpg-public');
      assert.equal(authorize.searchParams.get('redirect_uri'), redirect);
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      await signIn(page);
      await connected(page, 'python-protected');

      await callTool(page, 'whoami');
      assert.match(await resultText(page, /learner/), /mcp:tools/);
      assert.ok(p.tokens.length >= 1, 'the page got an access token for the hand-entered client');
      assert.deepEqual(p.errors.filter((e) => !expectedConsole.test(e)), []);
    } finally {
      await p.close();
    }
  });
});
