// Advice on known refusals (#31) in the page: a Python SDK 2.x tool that asks the
// classic way (`ctx.session.list_roots()`, tests/peers/python/classic_asks.py,
// through the bridge) fails under 2026-07-28 with the SDK's -32600 "no
// back-channel"; step 5's card says why and names the page's way out, the Server
// panel's revision picker at "2025-11-25 only", under which the same call works.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectNoSeriousA11y } from './axe.mjs';
import { suitePage, tid, urlWith } from './support.mjs';
import { STEP4, lastResult, start, waiting } from './asks_support.mjs';

const STEP5 = '[data-testid=step][data-step="5"]';

describe('advice on a known refusal (the Python SDK through the bridge)', () => {
  const p = suitePage(urlWith({ server: 'python-classic' }), 'python-classic-asks');

  it('no back-channel under 2026-07-28: step 5 says why and names the revision picker; under 2025-11-25 the call works', async () => {
    const { page } = p;
    await start(page, 'list my roots');
    const note = page.locator(`${STEP5} ${tid('advice')}`);
    await note.waitFor();
    assert.equal(await note.getAttribute('data-advice'), 'no-back-channel');
    assert.match(await note.textContent(), /2026-07-28 has no server-to-client requests outside input_required/);
    assert.match(await note.locator(tid('advice-fix')).textContent(), /Protocol revision in the Server panel to "2025-11-25 only"/);
    // The server's own words stay in the JSON block, not in the note.
    assert.doesNotMatch(await note.textContent(), /transport context/);
    await expectNoSeriousA11y(page, 'advice note');
    // The fix, as the note says it.
    await page.click(tid('tab-server'));
    await page.selectOption(tid('revision-select'), '2025-11-25');
    await page.waitForFunction(() => document.querySelector('[data-testid=server-protocol]')?.textContent === '2025-11-25');
    await start(page, 'list my roots');
    const card = page.locator(`${STEP4} ${waiting('roots/list')}`);
    await card.waitFor();
    await card.locator(tid('roots-edit')).fill('file:///home/learner/advice');
    await card.locator(tid('roots-send')).click();
    assert.match(await lastResult(page), /file:\/\/\/home\/learner\/advice/);
    assert.equal(await page.locator(`${STEP5} ${tid('advice')}`).count(), 0);
    assert.deepEqual(p.errors, []);
  });
});
