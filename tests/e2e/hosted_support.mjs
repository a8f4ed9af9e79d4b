// Helpers for hosted_bridge.test.mjs: free ports, children that announce themselves
// on stdout, an https static file server with a throwaway self-signed certificate
// (serving the built page under /playground/, knowing nothing about the playground;
// the plain http one is static_host.mjs's), and a Chromium that takes it for a
// public site.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { root } from './support.mjs';

const require = createRequire(join(root, 'tests', 'peers', 'node', 'package.json'));
const { chromium } = require('playwright-core');

/** How long a child may take to say it is ready. */
const STARTUP_MS = 30_000;

/** A port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `cmd args` (recorded in `children`) and resolves with the first `count`
 * stdout lines matching `re` (their matches); `quiet` drops its stderr.
 */
export function startUntil(cmd, args, re, children, { quiet = false, count = 1 } = {}) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', quiet ? 'ignore' : 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd}: no ${re} within ${STARTUP_MS} ms`)), STARTUP_MS);
    child.once('exit', (code) => reject(new Error(`${cmd} exited (${code}) before ${re}`)));
    const found = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = line.match(re);
      if (m && found.push(m) === count) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
}

/** SIGTERM to every child, then waits for each to exit. */
export async function stopAll(children) {
  for (const c of [...children].reverse()) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null
    ? new Promise((r) => c.once('exit', r)) : null)));
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml',
};

/**
 * An https static server on 127.0.0.1 (a fresh self-signed certificate for
 * `localhost`, made with openssl in `dir`) serving `dist` under /playground/.
 * Resolves with the server (close it when done) and its port.
 */
export async function httpsStatic(distDir, dir) {
  const dist = resolve(distDir);
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const made = spawnSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert,
    '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost',
  ], { stdio: 'ignore' });
  if (made.status !== 0) throw new Error('openssl could not make a test certificate');
  const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'https://x').pathname);
    if (!path.startsWith('/playground/')) return res.writeHead(404).end();
    let file = normalize(join(dist, path.slice('/playground/'.length)));
    if (!file.startsWith(dist)) return res.writeHead(404).end();
    if (path.endsWith('/')) file = join(file, 'index.html');
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
    } catch {
      return res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    return createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: server.address().port };
}

/**
 * A Chromium that takes pages from 127.0.0.1:`port` for a public site
 * (`--ip-address-space-overrides`), as it would a page on GitHub Pages: its requests
 * to the bridge on 127.0.0.1 then fall under Local Network Access.
 */
export function launchAsPublic(port) {
  return chromium.launch({
    executablePath: process.env.MCPG_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
      '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--disable-quic', '--no-first-run',
      `--ip-address-space-overrides=127.0.0.1:${port}=public`,
    ],
  });
}
