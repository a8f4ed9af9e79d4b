// A shared session in which the server asked: the embedded demo's 2026-07-28
// booking (input_required) answered by the learner, shared by link, and replayed
// offline: the replay answers the question as the learner did, from the recording,
// with the same steps and answer and no request.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectNoSeriousA11y } from './axe.mjs';
import { closeBrowser, connected, tid } from './support.mjs';
import { recordThenReplay, shownSteps } from './replay_support.mjs';
import { STEP4, askCard, lastResult, start, waiting } from './asks_support.mjs';

describe('sharing a loop in which the server asked', () => {
  after(closeBrowser);

  it('replays offline, answering the booking as the learner did', () => recordThenReplay(async (rec, o) => {
    const { page } = rec;
    await start(page, 'Reserve a table for dinner');
    const card = page.locator(`${STEP4} ${waiting('elicitation/create')}`);
    await card.waitFor();
    await card.locator('#field-party').fill('5');
    await card.locator(tid('elicit-accept')).click();
    const answer = await lastResult(page);
    assert.match(answer, /for 5/);
    const recorded = await shownSteps(page);
    await page.click(tid('share-button'));
    const link = await page.inputValue(tid('share-link'));

    await o.page.goto(link);
    await o.page.waitForSelector(tid('replay-banner'));
    await connected(o.page, 'mcpg-demo');
    await o.page.click(tid('run-button'));
    // Nobody answers in the replay: the recording does, as the learner did.
    assert.equal(await lastResult(o.page), answer);
    const kept = o.page.locator(`${STEP4} ${askCard('elicitation/create', 'answered')}`);
    assert.equal(await kept.count(), 1);
    assert.match(await kept.textContent(), /"party": 5/);
    const replayed = await shownSteps(o.page);
    assert.deepEqual(replayed.map((x) => x.n), recorded.map((x) => x.n));
    await expectNoSeriousA11y(o.page, 'replayed booking');
  }));
});
