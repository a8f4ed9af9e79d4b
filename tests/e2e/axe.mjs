// Accessibility checks with axe-core (pinned in tests/e2e/package.json): the
// checker runs inside the page, on the DOM as the learner sees it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, 'package.json'));
const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts the suite refuses; minor and moderate ones are printed only. */
const REFUSED = ['serious', 'critical'];

/**
 * Runs axe-core on `page` (every rule, WCAG 2.x A/AA and best practices) and
 * returns its violations, each as `{ id, impact, help, targets }`.
 */
export async function a11yViolations(page) {
  // Evaluated through the DevTools protocol, as @axe-core/playwright does: the
  // page's Content-Security-Policy (issue 26) refuses an inline script element,
  // which is the point of it.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.evaluate(source);
  }
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
  });
  return result;
}

/**
 * Fails when axe-core finds a serious or critical violation on `page`, naming
 * each with the elements it hit; prints the milder ones under `label`.
 */
export async function expectNoSeriousA11y(page, label) {
  const found = await a11yViolations(page);
  const refused = found.filter((v) => REFUSED.includes(v.impact));
  const milder = found.filter((v) => !REFUSED.includes(v.impact));
  const rows = milder.map((v) => v.id).join(', ') || 'none';
  console.log(`a11y ${label}: ${refused.length} serious/critical, minor/moderate: ${rows}`);
  assert.deepEqual(
    refused,
    [],
    `axe-core on "${label}":\n${refused.map((v) => `- ${v.impact} ${v.id}: ${v.help} at ${v.targets.join(' | ')}`).join('\n')}`,
  );
}
