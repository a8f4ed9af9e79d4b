// The old HTTP+SSE transport (2024-11-05) in the page, against the Python SDK's own
// `sse_app` (tests/peers/python/server.py --sse PORT --cors): the machine POSTs
// `initialize` as Streamable HTTP, gets 405, falls back to the GET stream and its
// `endpoint` event, and the Server panel says so. Directly (the peer sends CORS
// headers) and through the bridge's relay, which alone resolves the endpoint.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser, connected, openPage, runLoop, tid, urlWith } from './support.mjs';

const sseUrl = process.env.MCPG_E2E_SSE_URL;

/** What the browser logs on its own: the Streamable HTTP probe's 405. */
const expectedFailure = /status of 405/;

async function transportText(page) {
  await page.click(tid('tab-server'));
  return page.textContent(tid('server-transport'));
}

async function resultText(page) {
  await page.click(tid('tab-result'));
  await page.waitForSelector(tid('result-kind'));
  return page.textContent(tid('result-panel'));
}

/** The loop over the old transport: a tool call and its answer on the SSE stream. */
async function loopWorks(page) {
  await runLoop(page, 'add 2 and 3');
  const step4 = await page.$eval('[data-step="4"] [data-testid=json]', (e) => e.textContent);
  assert.match(step4, /"name":\s*"add"/);
  assert.match(await resultText(page), /\b5\b/);
}

describe('HTTP+SSE (2024-11-05) against the Python SDK', () => {
  after(closeBrowser);

  it('directly: 405 on the POST, then the GET stream; the Server panel says why', async () => {
    assert.ok(sseUrl, 'MCPG_E2E_SSE_URL is set by cargo xtask e2e');
    const p = await openPage(urlWith({ url: sseUrl }));
    try {
      await connected(p.page, 'python-peer');
      const transport = await transportText(p.page);
      assert.match(transport, /Streamable HTTP POST answered 405; fell back to HTTP\+SSE \(2024-11-05\): endpoint \/messages\/\?session_id=/);
      // The session id is cut: it lets anyone post into the session.
      assert.match(transport, /session_id=\w{4}…$/);
      await loopWorks(p.page);
      await p.page.click(tid('tab-wire'));
      assert.match(await p.page.textContent(tid('wire-log')), /fell back to HTTP\+SSE/);
      assert.deepEqual(p.errors.filter((e) => !expectedFailure.test(e)), []);
    } finally {
      await p.close();
    }
  });

  it('through the relay: the endpoint goes back to the bridge, which resolves it', async () => {
    const p = await openPage(urlWith({ relay: 'python-sse' }));
    try {
      await connected(p.page, 'python-peer');
      assert.match(await transportText(p.page), /fell back to HTTP\+SSE \(2024-11-05\): endpoint \/messages\/\?session_id=\w{4}…$/);
      await loopWorks(p.page);
      assert.deepEqual(p.errors.filter((e) => !expectedFailure.test(e)), []);
    } finally {
      await p.close();
    }
  });
});
