// Offline after one load: the page from a plain static host (under /playground/),
// loaded once online; the service worker takes charge of that very page once it
// has cached the page's files (no second load needed), then the browser goes
// offline, the page reloads and the loop runs on the embedded server with the mock
// model, the OAuth lesson signs in to the demo behind OAuth (both servers
// answered inside the page), and the HTTP+SSE lesson runs over both transports. And a new version on the host replaces the cached one on the next online
// load, old files forgotten.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectNoSeriousA11y } from './axe.mjs';
import { controlled, openHostPage, startStaticHost } from './static_host.mjs';
import { closeBrowser, connected, distDir, runLoop, shot, steps, tid } from './support.mjs';

/** The URLs the page's origin keeps in Cache Storage (all caches). */
const cachedUrls = (page) => page.evaluate(async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    urls.push(...(await cache.keys()).map((r) => r.url));
  }
  return urls;
});

/** The version marker a test writes into index.html (null in the built page). */
const marker = (page) => page.evaluate(() => document.querySelector('meta[name="mcpg-e2e-version"]')?.content ?? null);

/** The custom property the new stylesheet sets ('' with the built one). */
const styleMark = (page) => page.evaluate(
  () => getComputedStyle(document.documentElement).getPropertyValue('--mcpg-e2e-version').trim(),
);

describe('offline after one load', () => {
  let host;
  before(async () => {
    host = await startStaticHost(distDir);
  });
  after(async () => {
    await closeBrowser();
    await host?.stop();
  });

  it('loaded once online, then offline: a reload still runs the loop', async () => {
    const p = await openHostPage(host.url);
    try {
      await connected(p.page, 'mcpg-demo');
      await controlled(p.page);
      const cached = await cachedUrls(p.page);
      // oauth-callback.js belongs to oauth-callback.html, the sign-in's landing page,
      // which only an online sign-in reaches.
      const offlineFiles = (n) => /\.(js|wasm|css)$/.test(n) && n !== 'sw.js' && n !== 'oauth-callback.js';
      for (const f of readdirSync(distDir).filter(offlineFiles)) {
        assert.ok(cached.includes(`${host.url}${f}`), `${f} is cached: ${cached.join(', ')}`);
      }
      assert.ok(cached.includes(host.url), 'the page itself is cached');
      assert.ok(cached.every((u) => !u.includes('?')), 'no query (and so no token) in a cache key');

      await p.context.setOffline(true);
      const seen = host.requests.length;
      await p.page.reload();
      await connected(p.page, 'mcpg-demo');
      assert.equal(await p.page.evaluate(() => navigator.onLine), false);
      await runLoop(p.page, "What's the weather in Austin?");
      assert.deepEqual((await steps(p.page)).map((s) => s.n), [1, 2, 3, 4, 5, 6]);
      assert.match(await p.page.textContent(tid('answer')), /Austin: 91F, sunny/);
      assert.equal(host.requests.length, seen, 'the host heard nothing while offline');
      await shot(p.page, 'offline-loop.png');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });

  it('offline, the OAuth lesson signs in to the demo behind OAuth: nothing leaves the page', async () => {
    const p = await openHostPage(host.url);
    try {
      await connected(p.page, 'mcpg-demo');
      await controlled(p.page);
      await p.context.setOffline(true);
      const seen = host.requests.length;
      await p.page.goto(`${host.url}#lesson=oauth`);
      await p.page.reload();
      await p.page.waitForSelector(`${tid('lesson')}[data-slug="oauth"]`);
      // The protected server refused: the sign-in waits for the learner.
      await p.page.waitForSelector(tid('auth-needed'));
      assert.match(await p.page.textContent(tid('auth-challenge')), /resource_metadata="https:\/\/mcp\.demo-oauth\.invalid\//);
      // Denied first: the sign-in stops with the server's reason, and can start again.
      await p.page.click(tid('sign-in'));
      await p.page.click(tid('demo-consent-deny'));
      await p.page.waitForFunction(() => /^Sign-in stopped: authorization denied: access_denied/.test(document.querySelector('[data-testid=oauth-status]')?.textContent ?? ''));
      assert.equal(await p.page.locator(`${tid('lesson-need')}[data-seen="true"]`).count(), 1, 'no token: only “Press Sign in” is seen');
      await p.page.click(tid('sign-in'));
      await p.page.waitForSelector(tid('demo-consent'));
      assert.equal(await p.page.textContent(tid('demo-consent-scope')), 'weather:read');
      await expectNoSeriousA11y(p.page, 'the demo authorization server\'s consent screen');
      await shot(p.page, 'oauth-consent.png');
      await p.page.click(tid('demo-consent-approve'));
      await p.page.waitForFunction(() => /^Signed in/.test(document.querySelector('[data-testid=oauth-status]')?.textContent ?? ''));
      const cards = await p.page.locator(tid('oauth-card')).count();
      assert.equal(cards, 5, 'metadata, AS metadata, registration, authorization, token');
      await connected(p.page, 'mcpg-demo');
      await runLoop(p.page, "What's the weather in Paris?");
      assert.deepEqual((await steps(p.page)).map((s) => s.n), [1, 2, 3, 4, 5, 6]);
      assert.match(await p.page.textContent(tid('answer')), /Paris/);
      assert.equal(await p.page.locator(`${tid('lesson-need')}[data-seen="true"]`).count(), 3);
      // Answered inside the page: no request for the demo's hosts, none to the host.
      assert.deepEqual(p.requests.filter((u) => u.includes('demo-oauth.invalid')), []);
      assert.equal(host.requests.length, seen, 'the host heard nothing while offline');
      await shot(p.page, 'offline-oauth.png');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });

  it('offline, the HTTP+SSE lesson runs over both transports: nothing leaves the page', async () => {
    const p = await openHostPage(host.url);
    try {
      await connected(p.page, 'mcpg-demo');
      await controlled(p.page);
      await p.context.setOffline(true);
      const seen = host.requests.length;
      await p.page.goto(`${host.url}#lesson=http-sse`);
      await p.page.reload();
      await p.page.waitForSelector(`${tid('lesson')}[data-slug="http-sse"]`);
      await connected(p.page, 'mcpg-demo');
      await runLoop(p.page, "What's the weather in Paris?");
      assert.match(await p.page.textContent(tid('answer')), /Paris/);
      await p.page.waitForSelector(`${tid('lesson-need')}:nth-child(2)[data-seen="true"]`);
      await p.page.click(tid('lesson-connect-streamable'));
      await p.page.waitForSelector(`${tid('lesson-need')}:nth-child(3)[data-seen="true"]`);
      await runLoop(p.page, "What's the weather in Paris?");
      assert.equal(await p.page.locator(`${tid('lesson-need')}[data-seen="true"]`).count(), 4);
      assert.deepEqual(p.requests.filter((u) => u.includes('demo-sse.invalid')), []);
      // The browser's own update check of the service worker may run on a
      // navigation (Playwright's offline mode does not cover it): not the page's.
      const heard = host.requests.slice(seen).filter((r) => !r.path.endsWith('/sw.js'));
      assert.deepEqual(heard, [], 'the host heard nothing from the page while offline');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });

  it('a new version on the host replaces the cached one on the next online load', async () => {
    const p = await openHostPage(host.url);
    try {
      await connected(p.page, 'mcpg-demo');
      await controlled(p.page);
      assert.equal(await marker(p.page), null);
      assert.equal(await styleMark(p.page), '');

      // Version 2: a marker in index.html and the stylesheet under a new hashed name
      // with one more rule (its integrity attribute, if any, dropped with the old name).
      const index = join(host.site, 'index.html');
      const oldCss = readdirSync(host.site).find((f) => /^style-[0-9a-f]+\.css$/.test(f));
      assert.ok(oldCss, 'the build has a hashed stylesheet');
      const newCss = 'style-00000000e2e00002.css';
      const css = readFileSync(join(host.site, oldCss), 'utf8');
      writeFileSync(join(host.site, newCss), `${css}\n:root { --mcpg-e2e-version: 2; }\n`);
      const html = readFileSync(index, 'utf8')
        .replace(new RegExp(`<link[^>]*${oldCss.replace('.', '\\.')}[^>]*>`), (tag) =>
          tag.replace(oldCss, newCss).replace(/\s+integrity="[^"]*"/, ''))
        .replace('</head>', '<meta name="mcpg-e2e-version" content="2"></head>');
      assert.ok(html.includes(newCss));
      writeFileSync(index, html);
      // http.server answers If-Modified-Since to the second: make the change newer.
      const later = new Date(Date.now() + 60_000);
      utimesSync(index, later, later);

      await p.page.reload();
      await connected(p.page, 'mcpg-demo');
      assert.equal(await marker(p.page), '2');
      assert.equal(await styleMark(p.page), '2');
      // The worker keeps the new stylesheet and has forgotten the old one.
      await p.page.waitForFunction(async ([o, n]) => {
        const urls = [];
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          urls.push(...(await cache.keys()).map((r) => r.url));
        }
        return urls.some((u) => u.endsWith(n)) && !urls.some((u) => u.endsWith(o));
      }, [oldCss, newCss]);

      // Offline, the new version is the one that opens.
      await p.context.setOffline(true);
      await p.page.reload();
      await connected(p.page, 'mcpg-demo');
      assert.equal(await marker(p.page), '2');
      assert.equal(await styleMark(p.page), '2');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
