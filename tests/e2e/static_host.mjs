// A plain static file server for the built page under a path prefix, as a workshop
// would host it: Python's `http.server` over a temporary folder whose `playground/`
// is a copy of dist/ (a copy, so a test may change a file to make a "new version").
// It knows nothing of the app: no bridge, no API, no rewriting. Every request it
// logs is kept, so a test can say what the page asked its host for.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { launch } from './support.mjs';

/**
 * Serves a copy of `dist` at `http://127.0.0.1:PORT/<prefix>/` and resolves once
 * it listens. Returns `{ url, site, requests, stop }`: `site` is the copy's folder,
 * `requests` grows with `{ method, path, status }` for every request served.
 */
export async function startStaticHost(dist, prefix = 'playground') {
  const dir = mkdtempSync(join(tmpdir(), 'mcpg-static-'));
  const site = join(dir, prefix);
  cpSync(dist, site, { recursive: true });
  const child = spawn(
    'python3',
    ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const requests = [];
  // One log line per request on stderr: `... "GET /playground/ HTTP/1.1" 200 -`.
  createInterface({ input: child.stderr }).on('line', (line) => {
    const m = /"([A-Z]+) (\S+) HTTP\/[\d.]+" (\d{3})/.exec(line);
    if (m) requests.push({ method: m[1], path: m[2], status: Number(m[3]) });
  });
  const port = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const m = /port (\d+)/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`python3 -m http.server exited (${code}) before listening`)));
    child.on('error', reject);
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: `http://127.0.0.1:${port}/${prefix}/`, site, requests, stop };
}

/**
 * A fresh page (own context, service workers allowed) at `url`. Returns
 * `{ page, context, errors, requests, sockets, close }`: `errors` collects console
 * errors and page errors; `requests` every URL the page or its service worker
 * asked for (Chromium reports a worker's requests on the context); `sockets`
 * every WebSocket opened.
 */
export async function openHostPage(url) {
  const b = await launch();
  const context = await b.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  const sockets = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  context.on('request', (r) => {
    if (!r.url().startsWith('data:')) requests.push(r.url());
  });
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(url);
  return { page, context, errors, requests, sockets, close: () => context.close() };
}

/** Waits until the service worker controls `page` (it has cached the page's files). */
export async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null);
}
