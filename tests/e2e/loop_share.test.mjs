// `mcpg loop --share`: the link the command line prints opens in the page as a
// replay, with no network: the same steps, statuses and explanations as the
// terminal printed, the same JSON, and the same answer.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { baseUrl, closeBrowser, connected, tid } from './support.mjs';
import { offlinePage, shownSteps, stepThrough } from './replay_support.mjs';

const mcpg = process.env.MCPG_E2E_MCPG;
if (!mcpg) throw new Error('MCPG_E2E_MCPG is not set: run with `cargo xtask e2e`');
const origin = new URL(baseUrl).origin;

/** `mcpg loop … --json --share`: the steps it printed and its link fragment. */
function cliLoop(message) {
  const out = execFileSync(mcpg, [
    'loop', message, '--stdio', `${mcpg} demo`, '--name', 'demo', '--json', '--share',
  ], { encoding: 'utf8' });
  const lines = out.trim().split('\n').map((l) => JSON.parse(l));
  return { steps: lines.filter((l) => l.step), link: lines.find((l) => l.share).share };
}

describe('a link from mcpg loop --share', () => {
  after(closeBrowser);

  it('opens in the page as a replay of the same steps, with no request', async () => {
    const cli = cliLoop("What's the weather in Austin?");
    assert.deepEqual(cli.steps.map((s) => s.step), [1, 2, 3, 4, 5, 6]);
    assert.match(cli.link, /^#s1\./);
    const o = await offlinePage();
    try {
      await o.page.goto(`${origin}/${cli.link}`);
      await o.page.waitForSelector(tid('replay-banner'));
      await connected(o.page, 'mcpg-demo');
      assert.equal(await o.page.inputValue(tid('prompt')), "What's the weather in Austin?");
      await stepThrough(o.page);
      // A block's JSON is drawn when its <details> opens: open them all.
      const opened = await o.page.$$eval('[data-testid="step"] details', (ds) => {
        for (const d of ds) d.open = true;
        return ds.length;
      });
      await o.page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="step"] [data-testid="json"]').length === n,
        opened,
      );
      const shown = await shownSteps(o.page);
      assert.deepEqual(shown.map((s) => s.n), cli.steps.map((s) => s.step));
      for (const [i, s] of shown.entries()) {
        const want = cli.steps[i];
        assert.equal(s.status, want.status, `step ${s.n}`);
        assert.equal(s.explanation.trim(), want.explanation.trim(), `step ${s.n}`);
        // The page shows the same JSON blocks (each indented the same way).
        // Step 2's tools are drawn by the reshape view, not as a JSON block.
        const blocks = s.n === 2 ? want.blocks.slice(1) : want.blocks;
        const texts = blocks.map((b) => (typeof b.json === 'string' ? b.json : JSON.stringify(b.json, null, 2)));
        assert.deepEqual(s.json.map((j) => j.trim()), texts.map((t) => t.trim()), `step ${s.n}`);
      }
      assert.match(await o.page.textContent(tid('answer')), /Austin: 91F, sunny/);
      assert.equal(await o.page.locator(tid('notice')).count(), 0, 'no "not in the recording" notice');
      assert.deepEqual(o.sockets, []);
      assert.deepEqual(o.errors, []);
      assert.deepEqual(o.blocked, [], 'the replay made no request');
    } finally {
      await o.close();
    }
  });
});
