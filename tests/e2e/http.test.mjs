// Streamable HTTP: a URL straight from the browser (server-everything sends CORS
// headers), a server without CORS headers (the page says so and offers the relay),
// and the relay itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser, connected, openPage, runLoop, shot, tid, urlWith } from './support.mjs';

const everythingUrl = process.env.MCPG_E2E_EVERYTHING_URL;
const plainUrl = process.env.MCPG_E2E_PLAIN_URL;

describe('Streamable HTTP', () => {
  after(closeBrowser);

  it('a URL straight from the browser: server-everything get-sum', async () => {
    const p = await openPage(urlWith({ url: everythingUrl }));
    try {
      await connected(p.page, 'mcp-servers/everything');
      await runLoop(p.page, 'get the sum of 4 and 5');
      await p.page.click(tid('tab-result'));
      assert.match(await p.page.textContent(tid('result-content')), /The sum of 4 and 5 is 9/);
      // The page's own requests are the only ones allowed to fail here: server-everything
      // answers the server/discover probe with an HTTP error before the client falls back.
      assert.deepEqual(p.errors.filter((e) => !/status of 4\d\d/.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('a server without CORS headers: the page says so and offers the relay', async () => {
    const p = await openPage(urlWith({ url: plainUrl }));
    try {
      const notice = p.page.locator(tid('notice'));
      await notice.waitFor();
      assert.match(await notice.textContent(), /most likely CORS/);
      // The advice names the relay once the bridge's list of remotes has loaded,
      // which may come after the blocked request (the notice follows it live).
      await p.page.waitForFunction(
        (sel) => /"plain"/.test(document.querySelector(sel)?.textContent ?? ''),
        tid('notice'),
        { timeout: 10000 },
      );
      await shot(p.page, 'cors-notice.png');
      await p.page.click(tid('use-relay'));
      await connected(p.page, 'plain-http');
      await runLoop(p.page, 'add 2 and 40');
      await p.page.click(tid('tab-result'));
      assert.match(await p.page.textContent(tid('result-content')), /2 \+ 40 = 42/);
      // The browser itself logs the blocked requests, and the plain server's 405 to
      // the standalone GET stream (it offers none, as the spec allows); nothing else
      // may fail.
      assert.deepEqual(p.errors.filter((e) => !/CORS|ERR_FAILED|status of 405/.test(e)), []);
    } finally {
      await p.close();
    }
  });
});
