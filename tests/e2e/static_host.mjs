// A plain static file server for the built page under a path prefix, as a workshop
// would host it: Python's `http.server` over a temporary folder whose `playground/`
// is a copy of dist/ (a copy, so a test may change a file to make a "new version").
// It knows nothing of the app: no bridge, no API, no rewriting. Every request it
// logs is kept, so a test can say what the page asked its host for. Python's server
// compresses nothing; `startGzipHost` below sends gzip only, as GitHub Pages does.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
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

/** Content types by extension, as a static host sends them (`.wasm` must be
 * `application/wasm` for `WebAssembly.instantiateStreaming`). */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * Serves `dist` at `http://127.0.0.1:PORT/<prefix>/` the way GitHub Pages does:
 * gzip when the browser accepts it, never brotli (the `.br` files are never sent).
 * It sends the `.gz` that `cargo xtask dist` wrote beside each file (gzip -9), or,
 * for a file without one, the file as it is. GET only; a path outside the prefix, or
 * that leaves `dist`, is a 404. Returns `{ url, requests, stop }`; `requests` grows
 * with `{ method, path, status, encoding }`.
 */
export async function startGzipHost(dist, prefix = 'playground') {
  const root = resolve(dist);
  const requests = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://host').pathname;
    const done = (status, encoding = 'identity') => requests.push({ method: req.method, path, status, encoding });
    let rel = null;
    try {
      if (path.startsWith(`/${prefix}/`)) rel = decodeURIComponent(path.slice(prefix.length + 2)) || 'index.html';
    } catch {
      // A malformed escape: no such file.
    }
    const file = rel === null ? null : resolve(root, rel);
    if (req.method !== 'GET' || file === null || !file.startsWith(`${root}${sep}`) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(req.method === 'GET' ? 404 : 405).end();
      done(req.method === 'GET' ? 404 : 405);
      return;
    }
    const gz = `${file}.gz`;
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && existsSync(gz);
    const body = readFileSync(gzip ? gz : file);
    const headers = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': body.length, Vary: 'Accept-Encoding' };
    if (gzip) headers['Content-Encoding'] = 'gzip';
    res.writeHead(200, headers).end(body);
    done(200, gzip ? 'gzip' : 'identity');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  const stop = () => new Promise((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
  return { url: `http://127.0.0.1:${port}/${prefix}/`, requests, stop };
}
