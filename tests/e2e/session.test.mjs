// Sharing a session: record the walkthrough, open its link in a fresh browser context
// where every request but the page's own static files is blocked, and replay it step
// by step; export and import; bad links; and no secret in any link or export.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  baseUrl, closeBrowser, connected, openPage, shot, tid,
} from './support.mjs';
import { offlinePage, recordThenReplay, shownSteps, stepThrough } from './replay_support.mjs';

const origin = new URL(baseUrl).origin;
const bridgeToken = new URL(baseUrl).searchParams.get('token');

/** Waits until the app has mounted (its share bar exists). */
const mounted = (page) => page.waitForSelector(tid('share-bar'));

/** A link fragment from a session document, as the playground encodes it. */
const pack = (doc) => `s1.${deflateRawSync(Buffer.from(JSON.stringify(doc))).toString('base64url')}`;
/** The session JSON a link carries. */
const unpack = (link) => inflateRawSync(Buffer.from(link.split('#s1.')[1], 'base64url')).toString();

/** The text of step `step`'s JSON block labelled `label`, opened if it was closed. */
async function blockText(page, step, label) {
  const block = page.locator(`[data-step="${step}"] details`, { hasText: label }).first();
  if (!(await block.evaluate((d) => d.open))) await block.locator('summary').click();
  await block.locator(tid('json')).waitFor();
  return block.textContent();
}

describe('sharing a prompt-seeded loop', () => {
  after(closeBrowser);

  it('replays offline with the prompt\'s messages in step 2', () => recordThenReplay(async (rec, o) => {
    const { page } = rec;
    await page.click(tid('tab-prompts'));
    await page.waitForSelector(tid('prompts-panel'));
    await page.locator(`${tid('prompt')}[data-name="plan_trip"] ${tid('prompt-choose')}`).click();
    await page.locator(`${tid('prompt-form')} ${tid('argument-input')}[data-name="city"]`).fill('Paris');
    await page.click(tid('prompt-get'));
    await page.waitForSelector(tid('prompt-message'));
    await page.click(tid('use-in-loop'));
    await page.waitForSelector(tid('answer'));
    const seeded = /weather in Paris\? Tell me what to pack/;
    assert.match(await blockText(page, 2, "the prompt's messages"), seeded);
    const recorded = await shownSteps(page);
    await page.click(tid('share-button'));
    const link = await page.inputValue(tid('share-link'));
    const doc = JSON.parse(unpack(link));
    assert.equal(doc.v, 2);
    assert.equal(doc.seeds.length, 1);
    assert.equal(doc.seeds[0][0].role, 'user');
    assert.match(doc.seeds[0][0].text, seeded);

    await o.page.goto(link);
    await o.page.waitForSelector(tid('replay-banner'));
    await connected(o.page, 'mcpg-demo');
    await stepThrough(o.page);
    assert.match(await blockText(o.page, 2, "the prompt's messages"), seeded);
    const replayed = await shownSteps(o.page);
    assert.deepEqual(replayed.map((x) => x.n), recorded.map((x) => x.n));
    for (let i = 0; i < recorded.length; i += 1) {
      assert.deepEqual(replayed[i].json, recorded[i].json, `step ${recorded[i].n}`);
    }
    assert.equal(await o.page.textContent(tid('answer')), await page.textContent(tid('answer')));
  }));
});

describe('sharing a session', () => {
  let rec;
  let recorded;
  let link;
  before(async () => {
    rec = await openPage(baseUrl);
    await connected(rec.page, 'mcpg-demo');
    await rec.page.fill(tid('prompt'), "What's the weather in Austin?");
    await stepThrough(rec.page);
    recorded = await shownSteps(rec.page);
    await rec.page.click(tid('share-button'));
    link = await rec.page.inputValue(tid('share-link'));
  });
  after(async () => {
    await rec.close();
    await closeBrowser();
  });

  it('the link carries the session in its fragment, with no token', () => {
    console.log(`e2e: walkthrough share link is ${link.length} characters`);
    assert.ok(link.startsWith(`${origin}/#s1.`), link.slice(0, 80));
    assert.ok(link.length < 2000, `${link.length} characters`);
    const doc = JSON.parse(unpack(link));
    assert.equal(doc.v, 2);
    assert.equal(doc.seeds, undefined, 'a loop from a message records no seed');
    assert.deepEqual(doc.connection, { kind: 'embedded' });
    assert.deepEqual(doc.messages, ["What's the weather in Austin?"]);
    assert.equal(doc.script.length, 2, 'step 3 and step 6 are in the script');
    assert.ok(bridgeToken && !link.includes(bridgeToken) && !unpack(link).includes(bridgeToken));
    assert.deepEqual(recorded.map((s) => s.n), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(rec.errors, []);
  });

  it('replays offline in a fresh context: the same steps and JSON, no request', async () => {
    const o = await offlinePage();
    try {
      await o.page.goto(link);
      await o.page.waitForSelector(tid('replay-banner'));
      await connected(o.page, 'mcpg-demo');
      assert.equal(await o.page.inputValue(tid('prompt')), "What's the weather in Austin?");
      await stepThrough(o.page);
      const replayed = await shownSteps(o.page);
      assert.equal(replayed.length, recorded.length);
      for (let i = 0; i < recorded.length; i += 1) {
        assert.deepEqual(replayed[i], recorded[i], `step ${recorded[i].n}`);
      }
      assert.equal(await o.page.textContent(tid('answer')), await rec.page.textContent(tid('answer')));
      await o.page.evaluate(() => window.scrollTo(0, 0));
      await shot(o.page, 'session-replay.png');
      assert.deepEqual(o.blocked, [], 'the replay made no request');
      assert.deepEqual(o.sockets, []);
      assert.deepEqual(o.errors, []);
    } finally {
      await o.close();
    }
  });

  it('"Run it live" names where it connects and waits for the click', async () => {
    const o = await offlinePage();
    try {
      await o.page.goto(link);
      await o.page.waitForSelector(tid('replay-banner'));
      await o.page.click(tid('run-live'));
      assert.match(await o.page.textContent(tid('run-live-target')), /embedded demo server/);
      await o.page.click(tid('run-live-cancel'));
      assert.equal(await o.page.locator(tid('replay-banner')).count(), 1, 'cancel keeps the replay');
      await o.page.click(tid('run-live'));
      await o.page.click(tid('run-live-confirm'));
      await o.page.waitForSelector(tid('replay-banner'), { state: 'detached' });
      await connected(o.page, 'mcpg-demo');
      await stepThrough(o.page);
      const live = await shownSteps(o.page);
      assert.deepEqual(live.map((s) => s.json), recorded.map((s) => s.json));
      // The embedded demo lives in the page: running live needs no network either.
      assert.deepEqual(o.blocked, []);
      assert.deepEqual(o.errors, []);
    } finally {
      await o.close();
    }
  });

  it('export then import (file picker and drag-and-drop) replays the same session', async () => {
    const [download] = await Promise.all([
      rec.page.waitForEvent('download'),
      rec.page.click(tid('export-button')),
    ]);
    assert.equal(download.suggestedFilename(), 'mcp-session.json');
    const text = readFileSync(await download.path(), 'utf8');
    const doc = JSON.parse(text);
    assert.equal(doc.v, 2);
    assert.ok(doc.wire.every((w) => typeof w.x === 'string'), 'a file keeps every message');
    assert.ok(!text.includes(bridgeToken));
    for (const how of ['picker', 'drop']) {
      const o = await offlinePage();
      try {
        await o.page.goto(`${origin}/`);
        await connected(o.page, 'mcpg-demo');
        if (how === 'picker') {
          await o.page.setInputFiles(tid('import-file'), {
            name: 'mcp-session.json', mimeType: 'application/json', buffer: Buffer.from(text),
          });
        } else {
          await o.page.evaluate((t) => {
            const dt = new DataTransfer();
            dt.items.add(new File([t], 'mcp-session.json', { type: 'application/json' }));
            document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
          }, text);
        }
        await o.page.waitForSelector(tid('replay-banner'));
        await stepThrough(o.page);
        assert.deepEqual(await shownSteps(o.page), recorded, how);
        assert.deepEqual(o.blocked, []);
        assert.deepEqual(o.errors, []);
      } finally {
        await o.close();
      }
    }
  });

  it('a bad file gets a clear message and the page keeps working', async () => {
    const o = await offlinePage();
    try {
      await o.page.goto(`${origin}/`);
      await connected(o.page, 'mcpg-demo');
      await o.page.setInputFiles(tid('import-file'), {
        name: 'future.json', mimeType: 'application/json', buffer: Buffer.from('{"v": 99, "connection": {"kind": "embedded"}}'),
      });
      await o.page.waitForSelector(tid('notice'));
      assert.match(await o.page.textContent(tid('notice')), /cannot be opened: .*newer playground/);
      assert.equal(await o.page.locator(tid('replay-banner')).count(), 0);
      await stepThrough(o.page);
      assert.deepEqual(o.errors, []);
    } finally {
      await o.close();
    }
  });

  it('a real-model session: no API key in its link or export, and it replays offline', async () => {
    const PROVIDER = process.env.MCPG_E2E_PROVIDER_URL;
    assert.ok(PROVIDER, 'MCPG_E2E_PROVIDER_URL is set by cargo xtask e2e');
    const KEY = 'sk-test-e2e-NEVER-SHARE-7f3a9c';
    const p = await openPage(baseUrl);
    try {
      const { page } = p;
      await connected(page, 'mcpg-demo');
      await page.selectOption(tid('provider-select'), 'anthropic');
      await page.selectOption(tid('model-select'), 'real');
      await page.fill(tid('model-base'), `${PROVIDER}/anthropic`);
      await page.fill(tid('model-name'), 'fake-model');
      await page.fill(tid('model-key'), KEY);
      await page.fill(tid('prompt'), "What's the weather in Austin?");
      await page.click(tid('run-button'));
      await page.waitForSelector(tid('answer'));
      const answer = await page.textContent(tid('answer'));
      assert.match(answer, /Austin: 91F/);
      await page.click(tid('share-button'));
      const l = await page.inputValue(tid('share-link'));
      const doc = JSON.parse(unpack(l));
      assert.ok(!l.includes(KEY) && !unpack(l).includes(KEY), 'the link carries no key');
      assert.equal(doc.model.kind, 'anthropic');
      assert.equal(doc.model.settings.model, 'fake-model');
      assert.equal(doc.script.length, 2, 'both model turns are recorded');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(tid('export-button'))]);
      const text = readFileSync(await download.path(), 'utf8');
      assert.ok(!text.includes(KEY), 'the export carries no key');
      assert.ok(!text.includes(bridgeToken), 'the export carries no bridge token');
      assert.deepEqual(p.errors, []);

      // The recorded model turns stand in for the model: no request to the provider.
      const o = await offlinePage();
      try {
        await o.page.goto(l);
        await o.page.waitForSelector(tid('replay-banner'));
        await connected(o.page, 'mcpg-demo');
        await stepThrough(o.page);
        assert.equal(await o.page.textContent(tid('answer')), answer);
        assert.deepEqual(o.blocked, [], 'the replay asked no model and no server');
        assert.ok(!(await o.page.content()).includes(KEY));
        assert.deepEqual(o.errors, []);
      } finally {
        await o.close();
      }
    } finally {
      await p.close();
    }
  });
});

describe('bad links', () => {
  let good;
  before(async () => {
    const p = await openPage(baseUrl);
    await connected(p.page, 'mcpg-demo');
    await p.page.click(tid('share-button'));
    good = (await p.page.inputValue(tid('share-link'))).split('#')[1];
    await p.close();
  });
  after(closeBrowser);

  const doc = (extra = {}) => ({
    v: 1, connection: { kind: 'embedded' }, model: { kind: 'mock' }, messages: ['hi'], wire: [], steps: [], cursor: 0, ...extra,
  });
  const cases = [
    ['corrupted', () => 's1.!!!not*base64!!!', /corrupted/],
    ['truncated', () => good.slice(0, Math.floor(good.length / 2)), /truncated or damaged/],
    ['oversized', () => `s1.${'A'.repeat(70_000)}`, /too large/],
    ['compression bomb', () => `s1.${deflateRawSync(Buffer.alloc(8 * 1024 * 1024, 32)).toString('base64url')}`, /unpacks to more than/],
    ['future version', () => pack(doc({ v: 99 })), /newer playground/],
    ['future link format', () => 's2.AAAA', /newer playground/],
    ['smuggled key', () => pack(doc({ model: { kind: 'mock', settings: { api_key: 'sk-x' } } })), /looks like a secret/],
    ['command as connection', () => pack(doc({ connection: { kind: 'command', command: 'rm -rf /' } })), /could not be read/],
  ];
  for (const [name, make, message] of cases) {
    it(`${name}: a clear message, nothing else happens`, async () => {
      const o = await offlinePage();
      try {
        await o.page.goto(`${origin}/#${make()}`);
        await o.page.waitForSelector(tid('notice'));
        const text = await o.page.textContent(tid('notice'));
        assert.match(text, /This session link cannot be opened/);
        assert.match(text, message);
        assert.match(text, /Nothing was loaded or connected/);
        assert.equal(await o.page.locator(tid('replay-banner')).count(), 0);
        assert.doesNotMatch(await o.page.textContent(tid('conn-status')), /connected to/);
        assert.deepEqual(o.blocked, [], 'no request');
        assert.deepEqual(o.sockets, []);
        assert.deepEqual(o.errors, []);
      } finally {
        await o.close();
      }
    });
  }

  it('a link pasted into an open page: a bad one leaves the page as it was, a good one replays', async () => {
    const o = await offlinePage();
    try {
      await o.page.goto(`${origin}/`);
      await connected(o.page, 'mcpg-demo');
      await o.page.evaluate(() => { window.location.hash = 's1.!!!'; });
      await o.page.waitForSelector(tid('notice'));
      assert.match(await o.page.textContent(tid('notice')), /corrupted/);
      await connected(o.page, 'mcpg-demo');
      assert.equal(await o.page.locator(tid('replay-banner')).count(), 0);
      // An ordinary anchor (the skip link) is not a session.
      await o.page.evaluate(() => { window.location.hash = 'loop'; });
      await o.page.evaluate((g) => { window.location.hash = g; }, good);
      await o.page.waitForSelector(tid('replay-banner'));
      assert.deepEqual(o.blocked, []);
      assert.deepEqual(o.errors, []);
    } finally {
      await o.close();
    }
  });

  it('HTML and script in fields show as text', async () => {
    const evil = '<img src=x onerror="window.__pwned=1;alert(1)"><script>window.__pwned=2</script>';
    const o = await offlinePage();
    try {
      await o.page.goto(`${origin}/#${pack(doc({
        connection: { kind: 'url', url: `https://example.invalid/${evil}` },
        messages: [evil],
        script: [{ answer: evil, why: evil }],
      }))}`);
      await o.page.waitForSelector(tid('replay-banner'));
      assert.ok((await o.page.textContent(tid('replay-banner'))).includes(evil));
      assert.equal(await o.page.inputValue(tid('prompt')), evil);
      await o.page.click(tid('script-editor'));
      assert.ok((await o.page.inputValue(tid('script-text'))).includes('onerror'));
      assert.equal(await o.page.locator('img[src="x"]').count(), 0);
      assert.equal(await o.page.evaluate(() => [...document.scripts].filter((s) => s.text.includes('__pwned')).length), 0);
      assert.equal(await o.page.evaluate(() => window.__pwned), undefined);
      assert.deepEqual(o.dialogs, []);
      // The URL server is not contacted: the replay stands in for it.
      assert.deepEqual(o.blocked, []);
      assert.deepEqual(o.errors, []);
    } finally {
      await o.close();
    }
  });

  it('a link naming a bridge server starts nothing', async () => {
    const o = await offlinePage();
    try {
      await o.page.goto(`${origin}/#${pack(doc({ connection: { kind: 'bridge', server: 'everything' } }))}`);
      await o.page.waitForSelector(tid('replay-banner'));
      await o.page.click(tid('run-live'));
      assert.match(await o.page.textContent(tid('run-live-target')), /bridge server everything/);
      await o.page.click(tid('run-live-cancel'));
      assert.deepEqual(o.sockets, [], 'no /ws');
      assert.deepEqual(o.blocked, [], 'no request to the bridge');
      assert.deepEqual(o.errors, []);
    } finally {
      await o.close();
    }
  });
});

describe('the model script', () => {
  after(closeBrowser);

  it('a pasted script steers the loop, then the mock takes over; a bad one is refused with the reason', async () => {
    const p = await openPage(baseUrl);
    try {
      const { page } = p;
      await connected(page, 'mcpg-demo');
      await page.click('[data-testid="script-editor"] summary');
      await page.fill(tid('script-text'), '[{"calls": [{"name": "get_weather", "arguments": "Paris"}]}]');
      await page.click(tid('script-apply'));
      assert.match(await page.textContent(tid('script-status')), /Not applied: model turn 1: call 1: "arguments" must be an object/);
      await page.fill(tid('script-text'), JSON.stringify([
        { calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], why: 'Scripted: the presenter picked Paris.' },
      ]));
      await page.click(tid('script-apply'));
      assert.match(await page.textContent(tid('script-status')), /1 model turn/);
      await page.fill(tid('prompt'), "What's the weather in Austin?");
      await stepThrough(page);
      assert.match(await page.textContent('[data-step="3"] [data-testid=step-explanation]'), /Scripted: the presenter picked Paris\./);
      assert.match(await page.textContent('[data-step="4"] [data-testid=json]'), /"city": "Paris"/);
      // Step 6 had no scripted turn left: the mock answered from Paris's result.
      assert.match(await page.textContent(tid('answer')), /Paris/);
      // The share link carries the turns as played (the script's, then the mock's).
      await page.click(tid('share-button'));
      const doc = JSON.parse(unpack(await page.inputValue(tid('share-link'))));
      assert.equal(doc.script.length, 2);
      assert.equal(doc.script[0].why, 'Scripted: the presenter picked Paris.');
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
