// Step 2's portability warnings on the embedded demo: for the chosen provider, what
// its API would reject, rewrite or drop of the tools as the server wrote them
// (mcpg_host::lint), rejections first and set apart, each with its rule and the
// provider's page; switching provider changes them at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrl, runLoop, shot, stepsSettled, suitePage, tid } from './support.mjs';

/** The warnings shown, in order. */
async function findings(page) {
  return page.$$eval('[data-testid="lint-finding"]', (els) => els.map((e) => ({
    tool: e.dataset.tool,
    rule: e.dataset.rule,
    severity: e.dataset.severity,
    host: e.dataset.host,
    reject: e.classList.contains('lint-reject'),
    text: e.textContent,
    doc: e.querySelector('[data-testid="lint-rule"]').getAttribute('href'),
  })));
}

describe('step 2 warns what each provider would reject, rewrite or drop', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('anthropic: the dotted name is refused, and this host renames it', async () => {
    const { page } = p;
    await page.selectOption(tid('provider-select'), 'anthropic');
    await runLoop(page, "What's the weather in Austin?");
    await stepsSettled(page, 6);
    await page.waitForSelector(tid('lint-findings'));
    const f = await findings(page);
    assert.deepEqual(f.map(({ tool, rule, severity, host, reject }) => ({ tool, rule, severity, host, reject })), [
      { tool: 'math.square', rule: 'name-characters', severity: 'reject', host: 'renames', reject: true },
    ]);
    assert.match(f[0].text, /REJECTS|rejects/i);
    assert.match(f[0].text, /the name has characters Anthropic Messages does not allow: '\.'/);
    assert.match(f[0].text, /the host renames it \(name-characters\)$/);
    assert.equal(f[0].doc, 'https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use');
    assert.equal(await page.textContent(tid('lint-summary')), '1 refused with a 400 as written, 0 changed or dropped.');
    // The same name is among the host's rewrites beside it.
    assert.match(await page.textContent(tid('name-changes')), /math\.square → math_square/);
    assert.deepEqual(p.errors, []);
  });

  it('gemini: the date format would be refused as written, and this host removes it; rejections come first', async () => {
    const { page } = p;
    await page.selectOption(tid('provider-select'), 'gemini');
    await page.waitForFunction(() => document.querySelector('[data-testid="lint-finding"][data-rule="gemini-string-format"]'));
    const f = await findings(page);
    const date = f.find((x) => x.rule === 'gemini-string-format');
    assert.equal(date.tool, 'book_table');
    assert.equal(date.severity, 'reject');
    assert.equal(date.host, 'removes');
    assert.match(date.text, /Gemini takes only "enum" and "date-time" as a string format, not "date"/);
    assert.match(date.text, /the host removes it, so the model is not told the format/);
    // The host's own schema changes beside it say the same.
    assert.match(await page.textContent(tid('schema-changes')), /book_table \/properties\/date: removed format "date"/);
    assert.equal(date.doc, 'https://ai.google.dev/api/caching#Schema');
    // additionalProperties: refused as written, removed by this host.
    assert.ok(f.some((x) => x.rule === 'gemini-unknown-keyword' && x.host === 'removes'), JSON.stringify(f));
    const firstOther = f.findIndex((x) => x.severity !== 'reject');
    const lastReject = f.map((x) => x.severity).lastIndexOf('reject');
    assert.ok(firstOther === -1 || lastReject < firstOther, JSON.stringify(f.map((x) => x.severity)));
    assert.ok(f.every((x) => x.reject === (x.severity === 'reject')));
    await page.locator(tid('lint-findings')).scrollIntoViewIfNeeded();
    await shot(page, 'lint-gemini.png');
    assert.deepEqual(p.errors, []);
  });

  it('ollama: nothing refused, keywords dropped', async () => {
    const { page } = p;
    await page.selectOption(tid('provider-select'), 'ollama');
    await page.waitForFunction(() => document.querySelector('[data-testid="lint-finding"][data-rule="ollama-dropped-keyword"]'));
    const f = await findings(page);
    assert.ok(f.every((x) => x.severity !== 'reject'), JSON.stringify(f));
    assert.ok(f.some((x) => x.rule === 'ollama-dropped-keyword' && x.severity === 'drop'
      && /"minimum"/.test(x.text)), JSON.stringify(f));
    assert.match(await page.textContent(tid('lint-summary')), /none refused\.$/);
    await page.selectOption(tid('provider-select'), 'anthropic');
    assert.deepEqual(p.errors, []);
  });
});
