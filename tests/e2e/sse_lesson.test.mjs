// Issue #30: the demo over the old HTTP+SSE transport, played inside the page
// (`mcpg-demo-sse`), and the lesson "Why HTTP+SSE was replaced". From a fresh page
// the lesson is walked by its own words: its Transport row says the POST was
// answered 405 and the stream named its endpoint, a loop's answer arrives on the
// stream, and the switch to the same demo over Streamable HTTP changes the row.
// Then the same demo by URL, with no lesson. Nothing of it reaches the network:
// its origin is under `.invalid`, answered in the page.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrl, closeBrowser, connected, openPage, runLoop, tid, urlWith } from './support.mjs';

const SSE_URL = 'https://mcp.demo-sse.invalid/sse';
const MCP_URL = 'https://mcp.demo-sse.invalid/mcp';
const need = (n) => `${tid('lesson-need')}:nth-child(${n + 1})`;
const OLD_ROW = /^Streamable HTTP POST answered 405; fell back to HTTP\+SSE \(2024-11-05\): endpoint \/messages\/\?session_id=\w{4}…$/;
const NEW_ROW = 'Streamable HTTP: a POST answered 200';

/** Opens a page and counts the requests that left the browser for the demo. */
async function open(url) {
  const p = await openPage(url);
  p.escaped = [];
  p.page.on('request', (r) => {
    if (r.url().includes('demo-sse.invalid')) p.escaped.push(r.url());
  });
  return p;
}

async function row(page, re) {
  await page.click(tid('tab-server'));
  await page.waitForFunction(
    (src) => new RegExp(src).test(document.querySelector('[data-testid=server-transport]')?.textContent ?? ''),
    re.source,
  );
  return page.textContent(tid('server-transport'));
}

async function protocol(page) {
  await page.click(tid('tab-server'));
  return page.textContent(tid('server-protocol'));
}

describe('the demo over HTTP+SSE, in the page', () => {
  after(closeBrowser);

  it('the lesson from a fresh page, by its own words', async () => {
    const p = await open(`${baseUrl}#lesson=http-sse`);
    const { page } = p;
    try {
      await page.waitForSelector(`${tid('lesson')}[data-slug="http-sse"]`);
      await connected(page, 'mcpg-demo');
      assert.match(await page.textContent(tid('lesson-setup')), /the demo over HTTP\+SSE \(2024-11-05, in this page\)/);
      // Locked, nothing ticked on a page just set up.
      assert.equal(await page.locator(`${tid('lesson-need')}[data-seen="true"]`).count(), 0);
      assert.equal(await page.isVisible(tid('lesson-check-locked')), true);
      assert.equal(await page.getAttribute(tid('lesson-connect-sse'), 'aria-pressed'), 'true');

      // “Run the loop”: the call's answer comes on the GET stream.
      await page.click(tid('run-button'));
      await page.waitForSelector(tid('answer'));
      await page.waitForSelector(`${need(0)}[data-seen="true"]`);
      await page.waitForSelector(`${need(1)}[data-seen="true"]`);
      const step5 = await page.$eval('[data-step="5"] [data-testid=json]', (e) => e.textContent);
      assert.match(step5, /Paris/);
      // “read the Transport row in the Server tab”: what need 1 says it says.
      assert.match(await row(page, OLD_ROW), OLD_ROW);
      assert.ok((await page.textContent(need(1))).includes('fell back to HTTP+SSE (2024-11-05)'));
      assert.equal(await protocol(page), '2024-11-05', 'the old server answered initialize with its revision');
      assert.equal(await page.locator(`${need(2)}[data-seen="true"]`).count(), 0);

      // “Connect over Streamable HTTP”: the same demo at /mcp.
      await page.click(tid('lesson-connect-streamable'));
      assert.equal(await row(page, new RegExp(`^${NEW_ROW}$`)), NEW_ROW);
      await page.waitForSelector(`${need(2)}[data-seen="true"]`);
      assert.ok((await page.textContent(need(2))).includes(`“${NEW_ROW}”`));
      await connected(page, 'mcpg-demo');
      assert.equal(await protocol(page), '2026-07-28');
      assert.equal(await page.getAttribute(tid('lesson-connect-streamable'), 'aria-pressed'), 'true');
      assert.equal(await page.locator(`${need(3)}[data-seen="true"]`).count(), 0, 'the earlier answer does not count');

      // “run the loop again”: the answer is the POST's own response.
      await runLoop(page, "What's the weather in Paris?");
      await page.waitForSelector(`${need(3)}[data-seen="true"]`);
      await page.waitForSelector(tid('lesson-check'));
      await page.locator('.lesson-check label.choice', { hasText: 'Browsers cannot read an event stream' }).locator('input').check();
      await page.click(tid('lesson-submit'));
      assert.equal(await page.getAttribute(tid('lesson-feedback'), 'data-right'), 'false');
      await page.locator('.lesson-check label.choice', { hasText: 'a dropped stream loses the answers' }).locator('input').check();
      await page.click(tid('lesson-submit'));
      assert.equal(await page.getAttribute(tid('lesson-feedback'), 'data-right'), 'true');
      assert.deepEqual(p.escaped, [], 'answered in the page');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });

  it('by URL, with no lesson: the Transport row, a loop, and back over Streamable HTTP', async () => {
    const p = await open(urlWith({ url: SSE_URL }));
    const { page } = p;
    try {
      await connected(page, 'mcpg-demo');
      assert.match(await row(page, OLD_ROW), OLD_ROW);
      await runLoop(page, "What's the weather in Tokyo?");
      const step5 = await page.$eval('[data-step="5"] [data-testid=json]', (e) => e.textContent);
      assert.match(step5, /Tokyo/);
      await page.fill(tid('url-input'), MCP_URL);
      await page.click(tid('connect-button'));
      assert.equal(await row(page, new RegExp(`^${NEW_ROW}$`)), NEW_ROW);
      await runLoop(page, "What's the weather in Tokyo?");
      assert.deepEqual(p.escaped, []);
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
