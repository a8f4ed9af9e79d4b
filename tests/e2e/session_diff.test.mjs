// The session diff (Share → Compare two sessions): two recordings of the demo, one
// edited as a changed server would answer (a changed description, an added
// property, a removed tool, a changed result), compared side by side in the page;
// a session and its own link are the same; a bad session is one clear message; a
// hostile tool name is text, never markup. The panel is fetched only when opened.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { baseUrl, closeBrowser, connected, openPage, shot, tid } from './support.mjs';
import { stepThrough } from './replay_support.mjs';

/** `doc` with every received tools/list page and call result passed through `edit`. */
function edited(doc, edit) {
  const copy = structuredClone(doc);
  for (const w of copy.wire) {
    if (w.d !== 'r' || typeof w.x !== 'string') continue;
    const m = JSON.parse(w.x);
    edit(m);
    w.x = JSON.stringify(m);
  }
  return copy;
}

/** The diff table's rows as `{kind, tool, where, a, b}`. */
const rows = (page) => page.$$eval('[data-testid="diff-row"]', (els) => els.map((e) => ({
  kind: e.dataset.kind,
  tool: e.querySelector('[data-testid="diff-tool"]').textContent,
  where: e.querySelector('[data-testid="diff-where"]').textContent,
  a: e.querySelector('[data-testid="diff-a"]').textContent,
  b: e.querySelector('[data-testid="diff-b"]').textContent,
})));

/** Puts `doc` in side `side` as a picked session file. */
const pick = (page, side, doc) => page.setInputFiles(tid(`diff-${side}-file`), {
  name: `${side}.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)),
});

/** Clicks Compare and waits for the comparison (a result or an error). */
async function compare(page) {
  await page.click(tid('diff-compare'));
  await page.waitForSelector(`${tid('diff-result')}, ${tid('diff-error')}`);
}

describe('comparing two sessions', () => {
  let rec;
  let doc;
  let link;
  before(async () => {
    rec = await openPage(baseUrl);
    await connected(rec.page, 'mcpg-demo');
    await rec.page.fill(tid('prompt'), "What's the weather in Austin?");
    await stepThrough(rec.page);
    await rec.page.click(tid('share-button'));
    link = await rec.page.inputValue(tid('share-link'));
    const [download] = await Promise.all([
      rec.page.waitForEvent('download'),
      rec.page.click(tid('export-button')),
    ]);
    doc = JSON.parse(readFileSync(await download.path(), 'utf8'));
  });
  after(async () => {
    await rec.close();
    await closeBrowser();
  });

  it('the panel comes only when opened', async () => {
    assert.equal(await rec.page.locator(tid('diff-panel')).count(), 0);
    await rec.page.click(tid('diff-open'));
    await rec.page.waitForSelector(tid('diff-panel'));
    assert.equal(await rec.page.getAttribute(tid('diff-open'), 'aria-expanded'), 'true');
  });

  it('a changed tool and a changed result, side by side', async () => {
    const { page } = rec;
    const b = edited(doc, (m) => {
      const tools = m.result?.tools;
      if (Array.isArray(tools)) {
        for (const t of tools) {
          if (t.name === 'get_weather') {
            t.description = 'Current weather for a city.';
            t.inputSchema.properties.units = { type: 'string' };
          }
        }
        m.result.tools = tools.filter((t) => t.name !== 'say_hello');
      }
      const text = m.result?.content?.[0]?.text;
      if (typeof text === 'string' && text.includes('Austin')) m.result.content[0].text = 'Austin: 75F, cloudy';
    });
    // A: this page's own session; B: the edited recording, as a file.
    await page.click(tid('diff-a-page'));
    assert.match(await page.inputValue(tid('diff-a-text')), /^\{/);
    await pick(page, 'b', b);
    await page.waitForFunction(() => document.querySelector('[data-testid="diff-b-text"]').value.startsWith('{'));
    await compare(page);
    const summary = await page.textContent(tid('diff-summary'));
    assert.match(summary, /A: (\d+) tools, 1 calls · B: \d+ tools, 1 calls · 3 differences · 1 calls compared/);
    const [, before] = summary.match(/A: (\d+) tools/);
    assert.match(summary, new RegExp(`B: ${Number(before) - 1} tools`));
    const got = await rows(page);
    assert.deepEqual(got.filter((r) => r.kind === 'removed'), [
      { kind: 'removed', tool: 'say_hello', where: 'tool', a: 'say_hello', b: '—' },
    ]);
    const changed = got.filter((r) => r.kind === 'changed');
    assert.deepEqual(changed.map((r) => r.where), ['description /description', 'inputSchema /inputSchema/properties/units']);
    assert.ok(changed.every((r) => r.tool === 'get_weather'));
    assert.match(changed[0].a, /^"Current weather for a city\. Knows Austin/);
    assert.equal(changed[0].b, '"Current weather for a city."');
    assert.deepEqual([changed[1].a, changed[1].b], ['(absent)', '{"type":"string"}']);
    const results = got.filter((r) => r.kind === 'result');
    assert.equal(results.length, 1, JSON.stringify(got));
    assert.equal(results[0].tool, 'get_weather');
    assert.equal(results[0].where, 'get_weather({"city":"Austin"}) /content/0/text');
    assert.equal(results[0].b, '"Austin: 75F, cloudy"');
    assert.match(results[0].a, /^"Austin: 91F/);
    await page.locator(tid('diff-panel')).scrollIntoViewIfNeeded();
    await shot(page, 'session-diff.png');
    assert.deepEqual(rec.errors, []);
  });

  it('a session and its own link show the same server', async () => {
    const { page } = rec;
    await page.fill(tid('diff-a-text'), link);
    await pick(page, 'b', doc);
    await page.waitForFunction(() => document.querySelector('[data-testid="diff-b-text"]').value.startsWith('{'));
    await compare(page);
    await page.waitForSelector(tid('diff-none'));
    assert.match(await page.textContent(tid('diff-summary')), / 0 differences · 1 calls compared/);
    assert.equal(await page.locator(tid('diff-row')).count(), 0);
    assert.deepEqual(rec.errors, []);
  });

  it('a bad session is one clear message', async () => {
    const { page } = rec;
    await page.fill(tid('diff-a-text'), JSON.stringify(doc));
    await page.fill(tid('diff-b-text'), '#s1.%%%');
    await compare(page);
    await page.waitForSelector(tid('diff-error'));
    assert.match(await page.textContent(tid('diff-error')), /session B cannot be read: .*corrupted/);
    await page.fill(tid('diff-b-text'), JSON.stringify({ v: 2, connection: { kind: 'embedded' } }));
    await compare(page);
    await page.waitForFunction(() => /recorded no tools\/list/.test(document.querySelector('[data-testid="diff-error"]')?.textContent ?? ''));
    assert.deepEqual(rec.errors, []);
  });

  it('a hostile tool name is shown as text, never markup', async () => {
    const { page } = rec;
    const evil = '<img src=x onerror="window.__pwned=1">\u001b[2J';
    const b = edited(doc, (m) => {
      if (Array.isArray(m.result?.tools) && m.result.tools.some((t) => t.name === 'get_weather')) {
        m.result.tools.push({ name: evil, description: '<b>bold</b>', inputSchema: { type: 'object' } });
      }
    });
    await page.fill(tid('diff-a-text'), JSON.stringify(doc));
    await page.fill(tid('diff-b-text'), JSON.stringify(b));
    await compare(page);
    await page.waitForSelector(`${tid('diff-row')}[data-kind="added"]`);
    const added = (await rows(page)).filter((r) => r.kind === 'added');
    assert.deepEqual(added, [{ kind: 'added', tool: evil, where: 'tool', a: '—', b: evil }]);
    assert.equal(await page.locator(`${tid('diff-panel')} img`).count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.deepEqual(rec.errors, []);
  });
});
