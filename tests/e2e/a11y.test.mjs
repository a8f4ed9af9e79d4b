// Accessibility of the page's main states, checked by axe-core: no serious or
// critical violation on the empty page, mid-loop, with a result, and with a
// tool error. (Lessons and presenter mode are checked in their own files.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { a11yViolations, expectNoSeriousA11y } from './axe.mjs';
import { baseUrl, stepsSettled, suitePage, tid } from './support.mjs';

describe('accessibility (axe-core)', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('the checker itself finds a planted violation (so a pass means something)', async () => {
    const { page } = p;
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.id = 'planted';
      img.src = 'data:,';
      document.body.append(img);
      const b = document.createElement('button');
      b.id = 'planted-button';
      document.body.append(b);
    });
    const ids = (await a11yViolations(page)).map((v) => v.id);
    assert.ok(ids.includes('image-alt'), ids.join(', '));
    assert.ok(ids.includes('button-name'), ids.join(', '));
    await page.evaluate(() => {
      document.getElementById('planted')?.remove();
      document.getElementById('planted-button')?.remove();
    });
  });

  it('the empty page', async () => {
    await expectNoSeriousA11y(p.page, 'empty');
    assert.deepEqual(p.errors, []);
  });

  it('mid-loop (step mode, after the model picked a tool)', async () => {
    const { page } = p;
    await page.fill(tid('prompt'), "What's the weather in Austin?");
    for (const count of [1, 2, 3]) {
      await page.click(tid('step-button'));
      await stepsSettled(page, count);
    }
    await expectNoSeriousA11y(page, 'mid-loop');
    assert.deepEqual(p.errors, []);
  });

  it('a result, on each tab', async () => {
    const { page } = p;
    for (const count of [5, 6]) {
      await page.click(tid('step-button'));
      await stepsSettled(page, count);
    }
    await page.waitForSelector(tid('answer'));
    await expectNoSeriousA11y(page, 'result');
    for (const tab of ['tab-result', 'tab-tools', 'tab-form', 'tab-server', 'tab-wire']) {
      await page.click(tid(tab));
      await expectNoSeriousA11y(page, tab);
    }
    assert.deepEqual(p.errors, []);
  });
});
