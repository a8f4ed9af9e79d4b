// The MCP Playground's service worker: it keeps the page's own files, so that a page
// loaded once online opens again and runs the embedded server and the mock model
// when the network is gone (a workshop's Wi-Fi drops). Plain JS, no build step; it
// knows nothing of the app beyond "index.html and the files it names".
//
// What it touches: same-origin GETs inside its scope (the page's folder, under any
// path prefix) for the page itself (`./`, `./index.html`) and for static files
// (.js .wasm .css .json .svg .png .ico .webmanifest .woff2).
// What it never touches (the browser handles them as if there were no worker):
// other origins (MCP servers, LLM APIs), any method but GET, the bridge's routes
// (`api/`, `ws`, `relay/`, `events`), event streams (`Accept: text/event-stream`),
// range requests, and any other path. It never serves a cached answer to those.
// Nor sw.js itself: the browser fetches it for its update checks without going
// through any worker, and offline the installed worker simply stays in charge.
//
// Strategies:
// - the page: network first (a new version shows on the next online load), the
//   cached copy when the network fails. It is stored under `./` without the query,
//   so a bridge token in `?token=` never reaches the cache;
// - hashed files (`name-<hex>.js`): cache first, their names are immutable;
// - other static files: network first, cache fallback.
// After each fresh index.html, the files it names are fetched into the cache and
// the hashed files it no longer names are deleted.
//
// "The files it names" are the static files index.html names by relative URL, and
// the hashed wasm chunks and JS modules the JS modules among them name in turn: the
// split chunks are named only by the split's link module
// (`__wasm_split_chunks-<hex>.js`), which only the glue's shim names, so that
// neither list weighs on every first load.

const SCOPE = new URL(self.registration.scope);
const INDEX = new URL('./', SCOPE).href;
// One cache per scope (caches are per origin; two copies of the page under
// different prefixes must not prune each other's files) and per worker version.
const PREFIX = `mcpg-page ${SCOPE.pathname} `;
const CACHE = `${PREFIX}v1`;

const STATIC = /\.(?:js|wasm|css|json|svg|png|ico|webmanifest|woff2)$/;
// Content-hashed names: Trunk's `mcpg-web-<16 hex>_bg.wasm`, `style-<hex>.css`,
// or `name.<hex>.js`.
const HASHED = /[-.][0-9a-f]{8,}(?:_bg)?\.[a-z0-9]+$/;
const BRIDGE = /^(?:api|ws|relay|events)(?:\/|$)/;
// What a JS module names that is a file of the page: a content-hashed wasm chunk
// or JS module. Its other strings (the glue's default `mcpg-web_bg.wasm`, the
// names it imports by) are not files of the built page.
const LATER = /-[0-9a-f]{16}\.(?:wasm|js)$/;

/** The request's path relative to the scope, or null when outside it. */
function relative(url) {
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  return url.pathname.slice(SCOPE.pathname.length);
}

/** 'page', 'hashed', 'fresh', or null for a request this worker leaves alone. */
function classify(req) {
  if (req.method !== 'GET' || req.headers.has('range')) return null;
  if ((req.headers.get('accept') || '').includes('text/event-stream')) return null;
  const url = new URL(req.url);
  const rel = relative(url);
  if (rel === null || BRIDGE.test(rel)) return null;
  if (rel === '' || rel === 'index.html') return 'page';
  if (req.mode === 'navigate' || rel === 'sw.js' || !STATIC.test(rel)) return null;
  return HASHED.test(rel) ? 'hashed' : 'fresh';
}

/** The cache key: the URL without query or fragment. */
function key(url) {
  const u = new URL(url);
  return u.origin + u.pathname;
}

/** The static files a text (index.html, a JS module) names by relative URL (quoted, with an extension). */
function referenced(html) {
  const found = new Set();
  for (const m of html.matchAll(/["']([^"'\s:?#]+)["']/g)) {
    const url = new URL(m[1], SCOPE);
    const rel = relative(url);
    // sw.js is named by the page's registration, but the browser fetches it itself.
    if (rel !== null && rel !== 'sw.js' && STATIC.test(rel) && !BRIDGE.test(rel)) found.add(key(url));
  }
  return found;
}

/**
 * A copy of the page's response without its URL (which may carry `?token=`). The
 * body is already decoded, so the encoding and length headers are left out.
 */
async function bare(res) {
  const headers = new Headers(res.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  const body = await res.blob();
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

/** The text of a static file, from this worker's cache or else the network. */
async function textOf(url) {
  const hit = await caches.match(url, { cacheName: CACHE, ignoreVary: true });
  const res = hit ?? await fetch(url);
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  return res.text();
}

/**
 * Stores a fresh index.html, fetches what it names into the cache, and forgets
 * the hashed files it no longer names. A failure to cache one fails the install.
 */
async function remember(res) {
  const page = await bare(res);
  const named = referenced(await page.clone().text());
  const cache = await caches.open(CACHE);
  await cache.put(INDEX, page);
  const missing = async (urls) => {
    const out = [];
    for (const url of urls) if (!(await cache.match(url, { ignoreVary: true }))) out.push(url);
    return out;
  };
  await cache.addAll(await missing(named));
  // The JS modules, and the hashed modules they name in turn (the link module,
  // which the glue's shim imports when first needed), give the later files.
  const found = new Set();
  const modules = [...named].filter((url) => url.endsWith('.js'));
  while (modules.length > 0) {
    for (const more of referenced(await textOf(modules.pop()))) {
      if (!LATER.test(more) || named.has(more) || found.has(more)) continue;
      found.add(more);
      if (more.endsWith('.js')) modules.push(more);
    }
  }
  await cache.addAll(await missing(found));
  const keep = new Set([...named, ...found]);
  for (const req of await cache.keys()) {
    if (req.url !== INDEX && HASHED.test(req.url) && !keep.has(key(req.url))) await cache.delete(req);
  }
}

// Install: fetch index.html and every file it names, so that one online load is
// enough. The page registers the worker after its `load` event, when its own
// files are in the HTTP cache, so these fetches are mostly answered from there.
self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const res = await fetch(INDEX, { cache: 'no-cache' });
    if (!res.ok) throw new Error(`${INDEX} answered HTTP ${res.status}`);
    await remember(res);
    await self.skipWaiting();
  })());
});

// Activate: drop this scope's caches from other worker versions, and take charge
// of the page that registered it at once (so the very first load is covered).
self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function pageFirst(event) {
  try {
    const res = await fetch(event.request);
    if (res.ok && res.type === 'basic') event.waitUntil(remember(res.clone()));
    return res;
  } catch (err) {
    const hit = await caches.match(INDEX, { cacheName: CACHE });
    if (hit) return hit;
    throw err;
  }
}

async function cacheFirst(event) {
  const k = key(event.request.url);
  const hit = await caches.match(k, { cacheName: CACHE, ignoreVary: true });
  if (hit) return hit;
  const res = await fetch(event.request);
  if (res.ok && res.type === 'basic') {
    const copy = res.clone();
    event.waitUntil(caches.open(CACHE).then((c) => c.put(k, copy)));
  }
  return res;
}

async function networkFirst(event) {
  const k = key(event.request.url);
  try {
    const res = await fetch(event.request);
    if (res.ok && res.type === 'basic') {
      const copy = res.clone();
      event.waitUntil(caches.open(CACHE).then((c) => c.put(k, copy)));
    }
    return res;
  } catch (err) {
    const hit = await caches.match(k, { cacheName: CACHE, ignoreVary: true });
    if (hit) return hit;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const kind = classify(event.request);
  // Not calling respondWith leaves the request to the browser, untouched.
  if (kind === 'page') event.respondWith(pageFirst(event));
  else if (kind === 'hashed') event.respondWith(cacheFirst(event));
  else if (kind === 'fresh') event.respondWith(networkFirst(event));
});
