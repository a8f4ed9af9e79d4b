// `dist/` from a plain static file server under a path prefix, with no bridge: the
// build's URLs must all be relative, so the page loads from /playground/ and the
// loop runs on the embedded demo server. The server here knows only files: no
// compression, no API, 404 outside the prefix.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { closeBrowser, connected, distDir, openPage, runLoop, tid } from './support.mjs';

const PREFIX = '/playground/';
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
};

/** Serves `dir` under PREFIX; records every path asked for. */
function staticServer(dir, asked) {
  return createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    asked.push(path);
    if (!path.startsWith(PREFIX)) {
      res.writeHead(404).end('outside the prefix');
      return;
    }
    const rel = normalize(path.slice(PREFIX.length) || 'index.html');
    if (rel.startsWith('..')) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(join(dir, rel));
      res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('no such file');
    }
  });
}

describe('dist/ from a plain static server under a path prefix', () => {
  const asked = [];
  let server;
  let url;
  before(async () => {
    server = staticServer(distDir, asked);
    await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${server.address().port}${PREFIX}`;
  });
  after(async () => {
    await closeBrowser();
    await new Promise((ok) => server.close(ok));
  });

  it('loads every file from under the prefix and runs the loop on the embedded server', async () => {
    const p = await openPage(url);
    try {
      await connected(p.page, 'mcpg-demo');
      await runLoop(p.page, "What's the weather in Austin?");
      assert.match(await p.page.textContent(tid('answer')), /Austin: 91F, sunny/);
      const outside = asked.filter((a) => !a.startsWith(PREFIX));
      assert.deepEqual(outside, [], `asked outside ${PREFIX}: ${outside.join(', ')}`);
      // The hashed wasm, JS and CSS came from the prefix.
      for (const ext of ['.wasm', '.js', '.css']) {
        assert.ok(asked.some((a) => a.endsWith(ext)), `no ${ext} asked for: ${asked.join(', ')}`);
      }
      assert.deepEqual(p.errors, []);
    } finally {
      await p.close();
    }
  });
});
