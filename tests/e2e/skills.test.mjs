// MCP Skills in the page, against the embedded demo (2026-07-28 declares the
// Skills extension): the Skills panel lists weather-report and its two files with
// their digests, "Read and verify" reads each with resources/read and checks its
// size and SHA-256, and "Use in the loop" puts the verified SKILL.md into the
// system prompt, which step 2 shows beside the tools.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrl, closeBrowser, connected, openPage, runLoop, tid } from './support.mjs';
import { expectNoSeriousA11y } from './axe.mjs';

describe('skills (the demo)', () => {
  after(closeBrowser);

  it('a skill read, verified and used in the loop', async () => {
    const p = await openPage(baseUrl);
    try {
      const { page } = p;
      await connected(page, 'mcpg-demo');
      await page.click(tid('tab-skills'));
      const skill = '[data-testid=skill][data-name="weather-report"]';
      await page.waitForSelector(skill);
      const paths = await page.$$eval(`${skill} [data-testid=skill-file]`, (els) => els.map((e) => e.dataset.path));
      assert.deepEqual(paths, ['SKILL.md', 'references/cities.md']);
      assert.match(await page.textContent(skill), /sha256:[0-9a-f]{64}/);
      assert.ok(await page.isDisabled(`${skill} [data-testid=skill-use]`), 'not usable before it is verified');
      await page.click(`${skill} [data-testid=skill-read]`);
      await page.waitForFunction((sel) =>
        [...document.querySelectorAll(`${sel} [data-testid=skill-file-check]`)].every((e) => /^verified/.test(e.textContent)), skill);
      await page.click(tid('tab-wire'));
      const wire = await page.textContent(tid('wire-log'));
      assert.match(wire, /skills\/list/);
      assert.match(wire, /resources\/read/);
      await page.click(tid('tab-skills'));
      await expectNoSeriousA11y(page, 'the Skills panel, verified');
      await page.check(`${skill} [data-testid=skill-use]`);
      await runLoop(page, "What's the weather in Austin?");
      const labels = await page.$$eval('[data-step="2"] summary', (els) => els.map((e) => e.textContent));
      assert.ok(labels.some((l) => /system prompt, with the skill\(s\) in use \(weather-report\)/.test(l)), labels.join('\n'));
      const step2 = await page.textContent('[data-step="2"]');
      assert.match(step2, /# Skill: weather-report/);
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
