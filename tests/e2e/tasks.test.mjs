// A tool that runs as a task (2025-11-25), in the page, against server-everything's
// `simulate-research-query` (execution.taskSupport "required") over stdio through
// the bridge: the loop asks it as a task, step 5 shows the task handle, the first
// tasks/get poll (later ones counted) and tasks/result, and Cancel sends
// tasks/cancel. An ambiguous query goes to input_required and asks its question
// through tasks/result: the page's server-questions card answers it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeBrowser, connected, openPage, tid, urlWith } from './support.mjs';
import { STEP4, waiting } from './asks_support.mjs';

const PROMPT = 'call simulate-research-query {"topic": "tides"}';

/** The labels of step 5's blocks. */
function step5Labels(page) {
  return page.$$eval('[data-step="5"] summary', (els) => els.map((e) => e.textContent));
}

describe('tasks in the loop (server-everything)', () => {
  let p;
  before(async () => {
    p = await openPage(urlWith({ server: 'everything' }));
    await connected(p.page, 'mcp-servers/everything');
  });
  after(async () => {
    await p?.close();
    await closeBrowser();
  });

  it('a task followed to its result', async () => {
    const { page } = p;
    await page.click(tid('reset-button'));
    await page.fill(tid('prompt'), PROMPT);
    await page.click(tid('run-button'));
    await page.waitForSelector(tid('answer'), { timeout: 30_000 });
    const step4 = await page.$eval('[data-step="4"] [data-testid=json]', (e) => e.textContent);
    assert.match(step4, /"task":\s*\{/, 'step 4 asks for a task');
    const labels = (await step5Labels(page)).join('\n');
    assert.match(labels, /the task handle \(CreateTaskResult\)/);
    assert.match(labels, /→ tasks\/get: the host polls the task/);
    assert.match(labels, /→ tasks\/result/);
    // Four stages of one second each: several polls, one shown.
    assert.equal(labels.match(/→ tasks\/get/g).length, 1, labels);
    await page.click(tid('tab-result'));
    assert.match(await page.textContent(tid('result-panel')), /tides/i);
    assert.deepEqual(p.errors, []);
  });

  it('a task cancelled with the Cancel button', async () => {
    const { page } = p;
    await page.click(tid('reset-button'));
    await page.fill(tid('prompt'), PROMPT);
    await page.click(tid('run-button'));
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-step="5"] summary')].some((s) => /task handle/.test(s.textContent)));
    const explanation = await page.textContent('[data-step="5"]');
    assert.match(explanation, /The server made this call a task/);
    await page.click(tid('tab-result'));
    await page.click(tid('cancel-button'));
    await page.waitForSelector(tid('answer'), { timeout: 30_000 });
    const labels = (await step5Labels(page)).join('\n');
    assert.match(labels, /→ tasks\/cancel: the host cancels the task/);
    assert.match(await page.textContent(tid('result-line')), /cancel/i);
    assert.deepEqual(p.errors, []);
  });

  it('a task that needs input asks through the server-questions card', async () => {
    const { page } = p;
    await page.click(tid('reset-button'));
    await page.fill(tid('prompt'), 'call simulate-research-query {"topic": "python", "ambiguous": true}');
    await page.click(tid('run-button'));
    const card = page.locator(`${STEP4} ${waiting('elicitation/create')}`);
    await card.waitFor({ timeout: 30_000 });
    assert.match(await card.textContent(), /python/);
    assert.match(await page.textContent('[data-step="5"]'), /input_required/);
    // A oneOf of consts: a choice among titled options.
    await card.locator('#field-interpretation').selectOption({ label: 'Python snake species (snake)' });
    await card.locator(tid('elicit-accept')).click();
    await page.waitForSelector(tid('answer'), { timeout: 30_000 });
    await page.click(tid('tab-result'));
    assert.match(await page.textContent(tid('result-panel')), /python \(snake\)/);
    assert.deepEqual(p.errors, []);
  });
});
