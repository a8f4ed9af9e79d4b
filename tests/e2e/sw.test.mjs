// The service worker's rules, without a browser: web/sw.js runs in a node `vm` with
// a stand-in `self`, and fake fetch events say which requests it answers
// (`respondWith`) and which it leaves to the browser. The offline and static-host
// e2e tests show the worker working; this shows what it never touches.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { root } from './support.mjs';

const source = readFileSync(join(root, 'web', 'sw.js'), 'utf8');

/** Loads sw.js for `scope`; returns its global scope and its event handlers. */
function load(scope) {
  const handlers = {};
  const self = {
    registration: { scope },
    addEventListener: (type, fn) => { handlers[type] = fn; },
  };
  const context = vm.createContext({ self, URL, Headers, Response, Request, caches: {} });
  vm.runInContext(source, context, { filename: 'sw.js' });
  return { context, handlers };
}

/** Whether the worker answers a request (true) or leaves it to the browser (false). */
function answers(sw, url, { method = 'GET', mode = 'cors', headers = {} } = {}) {
  let answered = false;
  const request = { url, method, mode, headers: new Headers(headers) };
  sw.handlers.fetch({
    request,
    respondWith: (p) => {
      answered = true;
      // The strategies reach for the (absent) cache and network: not this test's concern.
      Promise.resolve(p).catch(() => {});
    },
    waitUntil: () => {},
  });
  return answered;
}

describe('the service worker (web/sw.js) in isolation', () => {
  it('answers the page and its static files inside its scope', () => {
    const sw = load('https://example.org/playground/');
    const p = 'https://example.org/playground/';
    assert.equal(answers(sw, p, { mode: 'navigate' }), true);
    assert.equal(answers(sw, `${p}index.html?token=abc`, { mode: 'navigate' }), true);
    assert.equal(answers(sw, `${p}mcpg-web-0123456789abcdef_bg.wasm`), true);
    assert.equal(answers(sw, `${p}mcpg-web-0123456789abcdef.js`), true);
    assert.equal(answers(sw, `${p}style-0123456789abcdef.css`), true);
    assert.equal(answers(sw, `${p}build-info.json`), true);
    assert.equal(sw.context.classify({ url: `${p}style-0123456789abcdef.css`, method: 'GET', mode: 'cors', headers: new Headers() }), 'hashed');
    assert.equal(sw.context.classify({ url: `${p}build-info.json`, method: 'GET', mode: 'cors', headers: new Headers() }), 'fresh');
  });

  it('never touches other origins, other methods, the bridge, event streams, ranges or other paths', () => {
    for (const scope of ['https://example.org/playground/', 'http://127.0.0.1:4000/']) {
      const sw = load(scope);
      const at = (path) => new URL(path, scope).href;
      const untouched = [
        [at('./'), { method: 'POST' }],
        [at('./mcpg-web-0123456789abcdef.js'), { method: 'HEAD' }],
        ['https://api.example.com/v1/chat/completions', { method: 'POST' }],
        ['http://127.0.0.1:3001/mcp', {}],
        ['https://cdn.example.net/lib-0123456789abcdef.js', {}],
        [at('api/servers?token=abc'), {}],
        [at('api/events?channel=1&token=abc'), {}],
        [at('ws?server=everything&token=abc'), {}],
        [at('relay/everything.js'), {}],
        [at('relay/plain'), { method: 'POST' }],
        [at('events'), {}],
        [at('./mcpg-web-0123456789abcdef.js'), { headers: { accept: 'text/event-stream' } }],
        [at('./mcpg-web-0123456789abcdef_bg.wasm'), { headers: { range: 'bytes=0-99' } }],
        [at('./sw.js'), {}],
        [at('./notes'), { mode: 'navigate' }],
        [at('./docs/other.html'), { mode: 'navigate' }],
        [at('./mcp'), {}],
      ];
      for (const [url, opts] of untouched) {
        assert.equal(answers(sw, url, opts), false, `${opts.method ?? 'GET'} ${url} ${JSON.stringify(opts.headers ?? {})}`);
      }
    }
    // Outside a /playground/ scope, even the same origin's files are not its own.
    const sw = load('https://example.org/playground/');
    assert.equal(answers(sw, 'https://example.org/other/style-0123456789abcdef.css'), false);
    assert.equal(answers(sw, 'https://example.org/', { mode: 'navigate' }), false);
  });

  it('reads the files an index.html names, from either build', () => {
    const sw = load('https://example.org/playground/');
    const trunk = `<link rel="icon" href="data:,">
      <link rel="stylesheet" href="./style-ab27a731e3e2c4ee.css" integrity="sha384-3e+23Zm3"/>
      <script type="module">
      import init, * as bindings from './mcpg-web-73af3f654c115419.js';
      const wasm = await init({ module_or_path: './mcpg-web-73af3f654c115419_bg.wasm' });
      </script>
      <link rel="modulepreload" href="./mcpg-web-73af3f654c115419.js" crossorigin="anonymous">`;
    const named = [...sw.context.referenced(trunk)].sort();
    assert.deepEqual(named, [
      'https://example.org/playground/mcpg-web-73af3f654c115419.js',
      'https://example.org/playground/mcpg-web-73af3f654c115419_bg.wasm',
      'https://example.org/playground/style-ab27a731e3e2c4ee.css',
    ]);
    const template = `<link rel="stylesheet" href="./style-0123456789abcdef.css">
      <link rel="preload" href="./mcpg-web-fedcba9876543210.wasm" as="fetch" type="application/wasm" crossorigin>
      <a href="https://example.com/x.js">x</a> <script>register('sw.js')</script>`;
    assert.deepEqual([...sw.context.referenced(template)].sort(), [
      'https://example.org/playground/mcpg-web-fedcba9876543210.wasm',
      'https://example.org/playground/style-0123456789abcdef.css',
    ]);
  });
});
