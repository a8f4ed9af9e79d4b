// Issue 26: hostile servers cannot reach past the page. A protected server whose
// authorization server hands the page a `javascript:` or `data:` sign-in URL, or
// names a loopback "authorization server" for the bridge to read; a server that
// redirects a request carrying the learner's headers to another origin; and the
// page's own defences (its Content-Security-Policy and the headers `mcpg serve`
// sends, the bridge token gone from the address bar, the sign-in window without an
// opener, which auth.test.mjs checks on every sign-in).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';

import { startBridge } from './auth_support.mjs';
import { startHostileAs } from './hostile_as.mjs';
import { baseUrl, closeBrowser, distDir, openPage, tid, urlWith } from './support.mjs';

/** The OAuth panel's words: its status and every card. */
const panelText = (page) => page.textContent(tid('oauth-panel'));

describe('a hostile authorization server', () => {
  let peers;
  before(async () => {
    peers = await startHostileAs();
  });
  after(async () => {
    await peers?.stop();
    await closeBrowser();
  });

  for (const variant of ['js', 'data']) {
    it(`a ${variant === 'js' ? 'javascript:' : 'data:'} authorization endpoint: the sign-in click runs nothing, a refused step names the rule`, async () => {
      const p = await openPage(urlWith({ url: peers.mcpUrl(variant) }));
      const { page } = p;
      try {
        const opened = [];
        page.context().on('page', (w) => opened.push(w.url()));
        await page.waitForSelector(tid('sign-in'));
        await page.click(tid('sign-in'));
        // The flow stops on a refusal: the URL is never offered to open.
        await page.waitForSelector(`${tid('oauth-status')}.bad`, { timeout: 20_000 });
        const text = await panelText(page);
        assert.match(text, /https/, `the refusal names the rule: ${text}`);
        assert.match(text, /loopback/, `the refusal names the rule: ${text}`);
        assert.equal(await page.$(tid('oauth-open')), null, 'no button opens the URL');
        assert.equal(await page.$(tid('oauth-open-link')), null, 'no link to the URL');
        // Nothing ran: no flag in the page, no request to the trap, no window.
        await page.waitForTimeout(500);
        assert.equal(await page.evaluate(() => window.pwned), undefined);
        assert.deepEqual(peers.hits.filter((h) => /-ran/.test(h.path)), []);
        assert.deepEqual(opened, []);
      } finally {
        await p.close();
      }
    });
  }

  it('an authorization server whose metadata never ends: the page stops reading at its ceiling and says so', async () => {
    const p = await openPage(urlWith({ url: peers.mcpUrl('huge') }));
    const { page } = p;
    try {
      await page.waitForSelector(tid('sign-in'));
      await page.click(tid('sign-in'));
      await page.waitForSelector(`${tid('oauth-status')}.bad`, { timeout: 30_000 });
      const text = await panelText(page);
      assert.match(text, /over|too large|limit/i, `the refusal says the answer is too large: ${text}`);
      assert.equal(await page.$(tid('oauth-open')), null);
    } finally {
      await p.close();
    }
  });

  it('a loopback "authorization server": the bridge started without --allow-private-auth fetches nothing from it', async () => {
    const bridge = await startBridge('# no servers: the page connects to the hostile URL itself\n', distDir, tmpdir(), { allowPrivateAuth: false });
    const u = new URL(bridge.pageUrl);
    u.searchParams.set('url', peers.mcpUrl('loopback'));
    const p = await openPage(u.toString());
    const { page } = p;
    try {
      const before = peers.hits.length;
      await page.waitForSelector(tid('sign-in'));
      await page.click(tid('sign-in'));
      // The page's own request to the trap is refused by the browser (no CORS);
      // the page then offers the bridge, which must refuse a private address.
      await page.waitForSelector(tid('oauth-via-bridge'), { timeout: 20_000 });
      await page.click(tid('oauth-via-bridge'));
      await page.waitForSelector(`${tid('oauth-status')}.bad`, { timeout: 20_000 });
      await page.waitForFunction(() => !document.querySelector('[data-testid=oauth-status]')?.textContent.includes('Talking'));
      const text = await panelText(page);
      assert.match(text, /private|loopback|allow-private-auth/i, `the refusal says why: ${text}`);
      const through = peers.hits.slice(before).filter((h) => !h.browser);
      assert.deepEqual(through, [], 'the loopback service got a request through the bridge');
      assert.ok(!text.includes('local-only'), 'the local service answer never reached the page');
    } finally {
      await p.close();
      await bridge.stop();
    }
  });
});

describe('secrets stay where they were sent', () => {
  let peers;
  before(async () => {
    peers = await startHostileAs();
  });
  after(async () => {
    await peers?.stop();
    await closeBrowser();
  });

  it("a redirect to another origin does not carry the learner's header", async () => {
    const p = await openPage(urlWith({}));
    const { page } = p;
    try {
      await page.selectOption(tid('source-select'), 'url');
      await page.fill(tid('url-input'), peers.mcpUrl('redirect'));
      await page.click(`${tid('conn-headers')} summary`);
      await page.click(tid('header-add'));
      await page.fill(tid('header-name'), 'X-Api-Key');
      await page.fill(tid('header-value'), 'very-secret-value');
      await page.press(tid('header-value'), 'Tab');
      await page.click(tid('connect-button'));
      await page.waitForFunction(() => /redirect/i.test(document.body.innerText), null, { timeout: 20_000 });
      await page.waitForTimeout(500);
      const leaked = peers.hits.filter((h) => Object.values(h.headers).some((v) => String(v).includes('very-secret-value')));
      assert.deepEqual(leaked, [], 'the header went to the redirect target');
      assert.deepEqual(peers.hits.filter((h) => h.method === 'POST'), [], 'the redirect was not followed');
    } finally {
      await p.close();
    }
  });
});

describe('the page defends itself', () => {
  after(closeBrowser);

  it('mcpg serve sends the policy, frame-ancestors, no-referrer and nosniff; the page carries the policy too', async () => {
    const res = await fetch(baseUrl);
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const part of ["script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      assert.ok(csp.includes(part), `${part} in ${csp}`);
    }
    assert.ok(!csp.includes('unsafe-inline'), csp);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const html = await res.text();
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="[^"]*script-src 'self' 'wasm-unsafe-eval'/);
    assert.match(html, /<meta name="referrer" content="no-referrer">/);
    assert.ok(!/<script(?![^>]*\ssrc=)[^>]*>/.test(html), 'no inline script in index.html');
    const callback = await (await fetch(new URL('oauth-callback.html', baseUrl))).text();
    assert.ok(!/<script(?![^>]*\ssrc=)[^>]*>/.test(callback), 'no inline script in oauth-callback.html');
  });

  it('an injected inline script does not run; the page itself runs', async () => {
    const p = await openPage(urlWith({}));
    const { page } = p;
    try {
      await page.waitForSelector(tid('conn-status'));
      const outcome = await page.evaluate(async () => {
        const violations = [];
        document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
        const s = document.createElement('script');
        s.textContent = 'window.injected = 1';
        document.head.append(s);
        const img = document.createElement('img');
        img.src = 'data:,x';
        img.setAttribute('onerror', 'window.injected = 2');
        document.body.append(img);
        await new Promise((r) => setTimeout(r, 300));
        return { injected: window.injected, violations };
      });
      assert.equal(outcome.injected, undefined);
      assert.ok(outcome.violations.some((v) => v.startsWith('script-src')), `${outcome.violations}`);
      // The page's own files run under the same policy: the later parts' styles too.
      assert.ok(await page.evaluate(() => document.adoptedStyleSheets.length >= 0));
      assert.deepEqual(p.errors.filter((e) => !/Content Security Policy/.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('the bridge token is gone from the address bar once read; other parameters stay; a reload still reaches the bridge', async () => {
    const token = new URL(baseUrl).searchParams.get('token');
    assert.ok(token);
    const p = await openPage(urlWith({ keep: 'me' }));
    const { page } = p;
    try {
      await page.waitForFunction(() => !location.search.includes('token'));
      assert.equal(await page.evaluate(() => location.search), '?keep=me');
      assert.ok(!(await page.evaluate(() => location.href)).includes(token));
      await page.reload();
      await page.waitForSelector('[data-testid=source-select] option[value="bridge:everything"]', { state: 'attached', timeout: 20_000 });
      assert.ok(!(await page.evaluate(() => location.href)).includes(token));
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
