// Streamable HTTP straight from the page, through the driver's `HttpMachine` and
// the browser's fetch executor: `Mcp-Param-*` on a 2026-07-28 call (rmcp refuses
// the call without it), the GET stream delivering `list_changed` (server-everything),
// a cut SSE answer resumed with `Last-Event-ID`, and an oversized answer.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser, connected, openPage, runLoop, tid, urlWith } from './support.mjs';

const rmcpUrl = process.env.MCPG_E2E_RMCP_URL;
const everythingUrl = process.env.MCPG_E2E_EVERYTHING_URL;
const resumableUrl = process.env.MCPG_E2E_RESUMABLE_URL;

/**
 * What the browser logs on its own with the resumable server: the server/discover
 * probe refused (404, no session), the GET stream refused (405), the cut stream.
 */
const expectedFailure = /status of 40[45]|ERR_INCOMPLETE_CHUNKED_ENCODING/;

/** The wire log's text (the Wire tab shows it). */
async function wireText(page) {
  await page.click(tid('tab-wire'));
  return page.textContent(tid('wire-log'));
}

/** The result panel's text once the call has an outcome. */
async function resultText(page) {
  await page.click(tid('tab-result'));
  await page.waitForSelector(tid('result-kind'));
  return page.textContent(tid('result-panel'));
}

describe('Streamable HTTP through the machine', () => {
  after(closeBrowser);

  it('a 2026-07-28 tool with x-mcp-header: rmcp gets Mcp-Param-City', async () => {
    const p = await openPage(urlWith({ url: rmcpUrl }));
    try {
      await connected(p.page, 'rmcp-peer');
      await runLoop(p.page, 'forecast for Zürich');
      const step3 = await p.page.$eval('[data-step="3"] [data-testid=json]', (e) => e.textContent);
      assert.match(step3, /forecast/);
      assert.match(await resultText(p.page), /Zürich: sunny tomorrow/);
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });

  it('list_changed arrives on the GET stream right after initialized', async () => {
    const p = await openPage(urlWith({ url: everythingUrl }));
    try {
      await connected(p.page, 'mcp-servers/everything');
      await p.page.click(tid('tab-wire'));
      await p.page.waitForFunction(() =>
        /notifications\/tools\/list_changed/.test(document.querySelector('[data-testid=wire-log]')?.textContent ?? ''));
      // server-everything answers the server/discover probe with an HTTP error first.
      assert.deepEqual(p.errors.filter((e) => !/status of 4\d\d/.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('a cut SSE answer is resumed with Last-Event-ID', async () => {
    const p = await openPage(urlWith({ url: resumableUrl }));
    try {
      await connected(p.page, 'resumable-http');
      await runLoop(p.page, 'slow report for Oslo');
      assert.match(await resultText(p.page), /Oslo: the report survived a broken stream/);
      assert.match(await wireText(p.page), /resum/i);
      assert.deepEqual(p.errors.filter((e) => !expectedFailure.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('an oversized answer fails the call at once, with its size and the limit', async () => {
    const p = await openPage(urlWith({ url: resumableUrl }));
    try {
      await connected(p.page, 'resumable-http');
      await p.page.click(tid('reset-button'));
      await p.page.fill(tid('prompt'), 'huge report for Bergen');
      const t0 = Date.now();
      await p.page.click(tid('run-button'));
      await p.page.waitForSelector('[data-step="5"][data-status="failed"]');
      console.log(`# oversized answer reported after ${Date.now() - t0} ms`);
      const step5 = await p.page.textContent('[data-step="5"]');
      assert.match(step5, /40000000/, step5);
      assert.match(step5, /33554432/, step5);
      assert.match(await wireText(p.page), /a message of 40000000 bytes, over the 33554432-byte limit; it was dropped/);
      // The page keeps working: the next call succeeds.
      await runLoop(p.page, 'slow report for Oslo');
      assert.match(await resultText(p.page), /Oslo: the report survived a broken stream/);
      assert.deepEqual(p.errors.filter((e) => !expectedFailure.test(e)), []);
    } finally {
      await p.close();
    }
  });
});
