// The built page from a plain static file server under a path prefix
// (`/playground/`), with no bridge anywhere: the walkthrough on the embedded server
// with the mock model, a Streamable HTTP URL straight from the browser, and the
// connections that need the bridge saying so. The page asks its host for its own
// files and nothing else.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { expectNoSeriousA11y } from './axe.mjs';
import { openHostPage, startStaticHost } from './static_host.mjs';
import {
  closeBrowser, connected, distDir, runLoop, shot, steps, stepsSettled, tid,
} from './support.mjs';

const everythingUrl = process.env.MCPG_E2E_EVERYTHING_URL;
const plainUrl = process.env.MCPG_E2E_PLAIN_URL;
const SIDES = ['mcp', 'host', 'host', 'mcp', 'mcp', 'host'];

describe('the page on a plain static host under /playground/, no bridge', () => {
  let host;
  before(async () => {
    host = await startStaticHost(distDir);
  });
  after(async () => {
    await closeBrowser();
    await host?.stop();
  });

  /** Fails unless every request the host saw was for one of dist/'s files, and served. */
  function onlyOwnFiles() {
    const files = new Set(['/playground/', ...readdirSync(distDir).map((f) => `/playground/${f}`)]);
    const other = host.requests.filter((r) => r.method !== 'GET' || !files.has(r.path.split('?')[0]) || r.status >= 400);
    assert.deepEqual(other, [], 'the host was asked only for the page\'s own files');
  }

  it('the walkthrough: the embedded server and the mock model through the six steps', async () => {
    const p = await openHostPage(host.url);
    try {
      await connected(p.page, 'mcpg-demo');
      await p.page.fill(tid('prompt'), "What's the weather in Austin?");
      for (const count of [1, 2, 3, 5, 6]) {
        await p.page.click(tid('step-button'));
        await stepsSettled(p.page, count);
      }
      const s = await steps(p.page);
      assert.deepEqual(s.map((x) => x.n), [1, 2, 3, 4, 5, 6]);
      assert.deepEqual(s.map((x) => x.side), SIDES);
      assert.ok(s.every((x) => x.status === 'done'), JSON.stringify(s));
      assert.match(await p.page.textContent(tid('answer')), /Austin: 91F, sunny/);
      // Everything came from under the prefix: nothing else was fetched.
      assert.deepEqual(p.requests.filter((u) => !u.startsWith(host.url)), []);
      assert.deepEqual(p.sockets, []);
      onlyOwnFiles();
      await expectNoSeriousA11y(p.page, 'static host, after the walkthrough');
      await shot(p.page, 'static-host.png');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });

  it('a Streamable HTTP URL straight from the browser: server-everything get-sum', async () => {
    assert.ok(everythingUrl, 'MCPG_E2E_EVERYTHING_URL is set by the e2e stage');
    const p = await openHostPage(host.url);
    try {
      await connected(p.page, 'mcpg-demo');
      await p.page.selectOption(tid('source-select'), 'url');
      await p.page.fill(tid('url-input'), everythingUrl);
      await p.page.click(tid('connect-button'));
      await connected(p.page, 'mcp-servers/everything');
      await runLoop(p.page, 'get the sum of 4 and 5');
      await p.page.click(tid('tab-result'));
      assert.match(await p.page.textContent(tid('result-content')), /The sum of 4 and 5 is 9/);
      const elsewhere = p.requests.filter((u) => !u.startsWith(host.url) && !u.startsWith(everythingUrl));
      assert.deepEqual(elsewhere, [], 'only the page\'s files and the server the learner named');
      onlyOwnFiles();
      // server-everything answers the server/discover probe with an HTTP error before
      // the client falls back to initialize: the browser logs that one.
      assert.deepEqual(p.errors.filter((e) => !/status of 4\d\d/.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('a server without CORS headers: the notice says a bridge would relay it, naming `mcpg serve`', async () => {
    assert.ok(plainUrl, 'MCPG_E2E_PLAIN_URL is set by the e2e stage');
    const p = await openHostPage(`${host.url}?url=${encodeURIComponent(plainUrl)}`);
    try {
      const notice = p.page.locator(tid('notice'));
      await notice.waitFor();
      const text = await notice.textContent();
      assert.match(text, /most likely CORS/);
      assert.ok(text.includes(`No bridge serves this page: run \`mcpg serve --page-origin ${host.url}\``), text);
      // No relay to offer without a bridge.
      assert.equal(await p.page.locator(tid('use-relay')).count(), 0);
      onlyOwnFiles();
      // The browser itself logs the blocked request.
      assert.deepEqual(p.errors.filter((e) => !/CORS|ERR_FAILED/.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('stdio servers and relays say they need `mcpg serve`, and nothing is asked of the host', async () => {
    const p = await openHostPage(host.url);
    try {
      await connected(p.page, 'mcpg-demo');
      assert.match(await p.page.textContent(tid('bridge-needed')), /need `mcpg serve`/);
      const choice = await p.page.$eval('option[value="needs-bridge"]', (o) => ({ disabled: o.disabled, text: o.textContent }));
      assert.equal(choice.disabled, true);
      assert.match(choice.text, /need `mcpg serve`/);
      await expectNoSeriousA11y(p.page, 'static host, no bridge');
      // A link naming a bridge server or a relayed remote, as `cargo xtask play` makes.
      for (const [query, what] of [['server=everything', /"everything" is a stdio server of the bridge/], ['relay=plain', /"plain" is a remote the bridge relays/]]) {
        await p.page.goto(`${host.url}?${query}`);
        await p.page.waitForFunction(
          (sel) => /needs the bridge/.test(document.querySelector(sel)?.textContent ?? ''),
          tid('conn-status'),
        );
        assert.equal(await p.page.textContent(tid('conn-status')), 'not connected: needs the bridge: `mcpg serve`');
        // The notice says it whole: which server, why, and the command.
        const notice = await p.page.textContent(tid('notice'));
        assert.match(notice, what);
        assert.ok(notice.includes(`no bridge serves this page. Run \`mcpg serve --page-origin ${host.url}\``), notice);
        // The status line shows its text whole (not cut by an ellipsis).
        assert.ok(await p.page.$eval(tid('conn-status'), (e) => e.scrollWidth <= e.clientWidth), 'status not cut');
      }
      await expectNoSeriousA11y(p.page, 'static host, a bridge server asked for');
      await shot(p.page, 'static-host-needs-bridge.png');
      assert.deepEqual(p.sockets, [], 'no WebSocket to the static host');
      assert.deepEqual(p.requests.filter((u) => !u.startsWith(host.url)), []);
      onlyOwnFiles();
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
