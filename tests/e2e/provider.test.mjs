// Real models from the browser, against the strict fake provider (fake_provider.mjs):
// the full loop in each of the five API formats and an OpenAI-compatible endpoint,
// parallel calls, a malformed arguments string, a bad key, an unreachable server;
// the key never leaks; playing the model; the mock in step mode in every format.
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  baseUrl, connected, shot, steps, stepsSettled, suitePage, tid,
} from './support.mjs';

const PROVIDER = process.env.MCPG_E2E_PROVIDER_URL;
if (!PROVIDER) throw new Error('MCPG_E2E_PROVIDER_URL is not set: run with `cargo xtask e2e`');

// [format id, route prefix on the fake, the fake's path, key needed]
const FORMATS = [
  ['anthropic', 'anthropic', '/anthropic/v1/messages', true],
  ['openai-chat', 'openai', '/openai/v1/chat/completions', true],
  ['openai-responses', 'openai', '/openai/v1/responses', true],
  ['gemini', 'gemini', '/gemini/v1beta/models/fake-model:generateContent', true],
  ['ollama', 'ollama', '/ollama/api/chat', false],
];

async function fake(path, method = 'GET') {
  const r = await fetch(`${PROVIDER}${path}`, { method });
  return r.json();
}

/** Points the page at the fake for `format`, with `key`. */
async function useReal(page, format, prefix, key = 'test-key-0001') {
  await page.selectOption(tid('provider-select'), format);
  await page.selectOption(tid('model-select'), 'real');
  await page.fill(tid('model-base'), `${PROVIDER}/${prefix}`);
  await page.fill(tid('model-name'), 'fake-model');
  await page.fill(tid('model-key'), key);
}

/** Runs the loop with `message` until the answer, or until a step fails. */
async function run(page, message) {
  await page.click(tid('reset-button'));
  await page.fill(tid('prompt'), message);
  await page.click(tid('run-button'));
  await page.waitForSelector(`${tid('answer')}, [data-testid=step][data-status=failed][data-side=host]`);
}

const explanation = (page, n) =>
  page.$$eval(`[data-step="${n}"] [data-testid=step-explanation]`, (els) => els.at(-1).textContent);

describe('real models through the fake provider', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');
  beforeEach(async () => {
    await fake('/__reset', 'POST');
  });

  it('the full loop in each format, with no violation of the API', async () => {
    const { page } = p;
    for (const [format, prefix, path, keyed] of FORMATS) {
      assert.deepEqual(await fake('/__violations'), []);
      await fake('/__reset', 'POST');
      await useReal(page, format, prefix);
      await run(page, "What's the weather in Austin?");
      const s = await steps(page);
      assert.deepEqual(s.map((x) => x.n), [1, 2, 3, 4, 5, 6], format);
      assert.ok(s.every((x) => x.status === 'done'), `${format}: ${JSON.stringify(s)}`);
      assert.match(await page.textContent(tid('answer')), /Here is what the tools said: Austin: 91F/, format);
      assert.match(await explanation(page, 3), /The host read 1 tool call\(s\) out of/, format);
      const requests = await fake('/__requests');
      assert.deepEqual(requests.map((r) => r.path), [path, path], format);
      if (!keyed) assert.equal(requests[0].headers.authorization, undefined, format);
    }
    // Any OpenAI-compatible endpoint: Chat Completions at its own base URL.
    assert.deepEqual(await fake('/__violations'), []);
    await fake('/__reset', 'POST');
    await useReal(page, 'openai-chat', 'ollama/v1');
    await run(page, "What's the weather in Tokyo?");
    assert.match(await page.textContent(tid('answer')), /Tokyo/);
    assert.deepEqual((await fake('/__requests')).map((r) => r.path), ['/ollama/v1/chat/completions', '/ollama/v1/chat/completions']);
    assert.deepEqual(await fake('/__violations'), []);
    await shot(page, 'real-model.png');
    assert.deepEqual(p.errors, []);
  });

  it('parallel calls are run in order and fed back together; the conversation grows', async () => {
    const { page } = p;
    for (const [format, prefix] of FORMATS) {
      await useReal(page, format, prefix);
      await run(page, "What's the weather in Paris and Austin?");
      assert.deepEqual((await steps(page)).map((x) => x.n), [1, 2, 3, 4, 5, 4, 5, 6], format);
      assert.match(await page.textContent(tid('answer')), /Paris: [^|]+\| Austin: 91F/, format);
      const roles = await page.$$eval(tid('turn'), (els) => els.map((e) => e.dataset.role));
      assert.deepEqual(roles, ['user', 'model', 'model', 'tool', 'tool', 'model'], format);
      assert.match(await page.textContent(tid('rounds')), /round 1 of at most 5/);
    }
    assert.deepEqual(await fake('/__violations'), []);
    await shot(page, 'parallel-calls.png');
    assert.deepEqual(p.errors, []);
  });

  it('a malformed arguments string is a clear host error in step 3, and the page keeps working', async () => {
    const { page } = p;
    for (const format of ['openai-chat', 'openai-responses']) {
      await useReal(page, format, 'openai');
      await run(page, 'malformed: weather in Austin');
      assert.equal(await page.getAttribute('[data-step="3"]', 'data-status'), 'failed');
      const why = await explanation(page, 3);
      assert.match(why, /arguments of call .* are not valid JSON/, format);
      assert.match(why, /no tools\/call was sent/);
      assert.equal(await page.locator('[data-step="4"]').count(), 0);
      await page.$eval('[data-step="3"]', (e) => e.scrollIntoView({ block: 'start' }));
      await shot(page, `malformed-${format}.png`);
      await run(page, "What's the weather in Austin?");
      assert.match(await page.textContent(tid('answer')), /Austin: 91F/, format);
    }
    assert.deepEqual(await fake('/__violations'), []);
    assert.deepEqual(p.errors, []);
  });

  it("a bad key shows the provider's error in step 3; asking again with a good key works", async () => {
    const { page } = p;
    const said = {
      anthropic: /HTTP 401.*invalid x-api-key.*check the API key/,
      'openai-chat': /HTTP 401.*Incorrect API key provided/,
      'openai-responses': /HTTP 401.*Incorrect API key provided/,
      gemini: /HTTP 400.*API key not valid/,
    };
    for (const [format, prefix] of FORMATS.filter((f) => f[3])) {
      await useReal(page, format, prefix, 'bad-key');
      await run(page, "What's the weather in Austin?");
      assert.equal(await page.getAttribute('[data-step="3"]', 'data-status'), 'failed', format);
      assert.match(await explanation(page, 3), said[format], format);
      // The loop is kept: a good key and one more click finish it.
      await page.fill(tid('model-key'), 'test-key-0001');
      await page.click(tid('run-button'));
      await page.waitForSelector(tid('answer'));
      assert.deepEqual((await steps(page)).map((x) => x.n), [1, 2, 3, 3, 4, 5, 6], format);
    }
    await shot(page, 'bad-key.png');
    // Browsers log failed HTTP statuses themselves; nothing else may fail.
    assert.deepEqual(p.errors.filter((e) => !/status of 40[01]/.test(e)), []);
    p.errors.length = 0;
  });

  it('an unreachable server: CORS or down, and OLLAMA_ORIGINS for Ollama', async () => {
    const { page } = p;
    await page.selectOption(tid('provider-select'), 'ollama');
    await page.selectOption(tid('model-select'), 'real');
    await page.fill(tid('model-base'), 'http://127.0.0.1:9');
    await run(page, "What's the weather in Austin?");
    const why = await explanation(page, 3);
    assert.match(why, /CORS refusal and a server that is down look exactly the same/);
    assert.match(why, /OLLAMA_ORIGINS=http:\/\/127\.0\.0\.1:\d+ ollama serve/);
    assert.match(await page.textContent(tid('llm-advice')), /OLLAMA_ORIGINS=/);
    assert.deepEqual(p.errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
    p.errors.length = 0;
  });

  it('the key never appears in the wire log, the DOM or storage unless asked', async () => {
    const { page } = p;
    const key = 'sk-e2e-SECRET-7f3a9c1d5e';
    await useReal(page, 'openai-chat', 'openai', key);
    await run(page, "What's the weather in Austin?");
    // It was used…
    const requests = await fake('/__requests');
    assert.equal(requests[0].headers.authorization, `Bearer ${key}`);
    // …shown masked…
    const step3 = await page.$$eval('[data-step="3"] summary', (els) => els.map((e) => e.textContent));
    assert.ok(step3.includes('→ HTTP request (key masked)'), step3.join('\n'));
    await page.$$eval('[data-step="3"] details', (ds) => ds.forEach((d) => { d.open = true; }));
    await page.waitForFunction(() => document.querySelector('[data-step="3"]').textContent.includes('Bearer ••••1d5e'));
    // …and found nowhere else.
    await page.click(tid('tab-wire'));
    assert.doesNotMatch(await page.textContent(tid('wire-log')), /SECRET/);
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    assert.ok(!html.includes(key) && !html.includes('SECRET'), 'the key is in the DOM');
    assert.equal(await page.inputValue(tid('model-key')), key);
    const stored = () => page.evaluate(() => ({
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
    }));
    let s = await stored();
    assert.ok(!s.local.includes(key) && !s.session.includes(key), JSON.stringify(s));
    // This tab: sessionStorage only.
    await page.selectOption(tid('key-keep'), 'tab');
    s = await stored();
    assert.ok(s.session.includes(key) && !s.local.includes(key), JSON.stringify(s));
    // This browser: localStorage only.
    await page.selectOption(tid('key-keep'), 'browser');
    s = await stored();
    assert.ok(s.local.includes(key) && !s.session.includes(key), JSON.stringify(s));
    // Back to memory only: gone from both.
    await page.selectOption(tid('key-keep'), 'memory');
    s = await stored();
    assert.ok(!s.local.includes(key) && !s.session.includes(key), JSON.stringify(s));
    assert.deepEqual(p.errors, []);
  });

  it('a key kept in this tab survives a reload; one kept nowhere does not', async () => {
    const { page } = p;
    await page.selectOption(tid('provider-select'), 'anthropic');
    await page.selectOption(tid('model-select'), 'real');
    await page.fill(tid('model-key'), 'sk-ant-kept-in-tab-42');
    await page.selectOption(tid('key-keep'), 'tab');
    await page.reload();
    await connected(page, 'mcpg-demo');
    await page.selectOption(tid('model-select'), 'real');
    assert.equal(await page.inputValue(tid('model-key')), 'sk-ant-kept-in-tab-42');
    assert.equal(await page.inputValue(tid('key-keep')), 'tab');
    await page.selectOption(tid('key-keep'), 'memory');
    await page.reload();
    await connected(page, 'mcpg-demo');
    await page.selectOption(tid('model-select'), 'real');
    assert.equal(await page.inputValue(tid('model-key')), '');
    assert.deepEqual(p.errors, []);
  });
});

describe('the mock model and playing the model', () => {
  const p = suitePage(baseUrl, 'mcpg-demo');

  it('the mock in step mode in every format: two calls, isError, no tool fits', async () => {
    const { page } = p;
    for (const [format] of FORMATS) {
      await page.selectOption(tid('provider-select'), format);
      await page.click(tid('reset-button'));
      await page.fill(tid('prompt'), "What's the weather in Paris and Austin?");
      for (const count of [1, 2, 3, 5, 7, 8]) {
        await page.click(tid('step-button'));
        await stepsSettled(page, count);
      }
      assert.match(await page.textContent(tid('answer')), /get_weather says: Paris.*get_weather says: Austin: 91F/, format);
      // Run mode: isError, then no tool fits.
      await page.click(tid('reset-button'));
      await page.fill(tid('prompt'), "What's the weather in Atlantis?");
      await page.click(tid('run-button'));
      await page.waitForSelector(tid('answer'));
      assert.match(await page.textContent(tid('answer')), /failed: city not found: Atlantis/, format);
      await page.click(tid('reset-button'));
      await page.fill(tid('prompt'), 'Tell me a joke');
      await page.click(tid('run-button'));
      await page.waitForSelector(tid('answer'));
      assert.deepEqual((await steps(page)).map((x) => x.n), [1, 2, 3], format);
    }
    await page.selectOption(tid('provider-select'), 'anthropic');
    assert.deepEqual(p.errors, []);
  });

  it('playing the model: a tool call through the form, then an answer in words', async () => {
    const { page } = p;
    await page.selectOption(tid('provider-select'), 'openai-chat');
    await page.selectOption(tid('model-select'), 'play');
    await page.click(tid('reset-button'));
    await page.fill(tid('prompt'), "What's the weather in Austin?");
    await page.click(tid('run-button'));
    await page.waitForSelector(tid('play-box'));
    await stepsSettled(page, 2);
    // The loop waits for the learner: the step button says so and does nothing.
    assert.ok(await page.isDisabled(tid('step-button')));
    assert.match(await page.textContent(tid('step-button')), /Your turn as the model/);
    // Step 3: the learner calls a tool through the generated form.
    await page.click(tid('play-tool'));
    await page.click('[data-tool="get_weather"] [data-testid=tool-use]');
    await page.fill('#field-city', 'Austin');
    // The form shows the reply this call makes, in the chosen format, before sending.
    await page.click(`${tid('tool-form')} details > summary`);
    assert.match(await page.textContent(tid('form-preview')), /"tool_calls"[\s\S]*"arguments": "\{\\"city\\":\\"Austin\\"\}"/);
    await page.click(tid('form-send'));
    // Step 6: the learner answers in words, and sees the reply it makes first.
    await page.waitForSelector(tid('play-box'));
    await stepsSettled(page, 5);
    await page.fill(tid('play-answer'), 'It is 91F and sunny in Austin.');
    await page.click(`${tid('play-box')} summary`);
    assert.match(await page.textContent(tid('play-preview')), /"choices"[\s\S]*"It is 91F and sunny in Austin."/);
    await page.click(tid('play-send'));
    await page.waitForSelector(tid('answer'));
    assert.equal(await page.textContent(`${tid('answer')} p`), 'It is 91F and sunny in Austin.');
    assert.deepEqual((await steps(page)).map((x) => x.n), [1, 2, 3, 4, 5, 6]);
    assert.match(await explanation(page, 6), /You played the model: you answered in words/);
    const step6 = await page.$$eval('[data-step="6"] [data-testid=json]', (els) => els.map((e) => e.textContent).join('\n'));
    assert.match(step6, /"finish_reason": "stop"/);
    await shot(page, 'play-the-model-answer.png');
    await page.selectOption(tid('model-select'), 'mock');
    await page.selectOption(tid('provider-select'), 'anthropic');
    assert.deepEqual(p.errors, []);
  });
});
