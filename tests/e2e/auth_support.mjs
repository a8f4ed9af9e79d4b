// The real authorization server (tests/peers/node-auth/as.mjs, oidc-provider) and the
// protected MCP server in front of it (tests/peers/python/protected_server.py, the
// Python SDK's auth support), started for the OAuth e2e tests, and the sign-in
// through the AS's own login and consent forms in the popup the page opens.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { root } from './support.mjs';

const peers = join(root, 'tests', 'peers');

/** Starts `cmd args` and resolves with the URL after `marker` on its stdout; every stdout line also goes to `onLine`. */
function startPeer(cmd, args, marker, cwd, onLine = () => {}) {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} ${args.join(' ')}: no "${marker}" within 30 s\n${stderr}`)), 30_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      onLine(line);
      const at = line.indexOf(marker);
      if (at >= 0) {
        clearTimeout(timer);
        resolve(line.slice(at + marker.length).trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited (${code}) before it listened\n${stderr}`));
    });
  });
  return { child, url };
}

/**
 * The AS (access tokens living `ttl` seconds; without CORS headers when `asCors` is
 * false; without dynamic registration when `registration` is false, so a client ID
 * must be entered by hand) and the protected server (with CORS for loopback pages). `MCPG_E2E_AUTH_*` are not needed: the tests start their own, so
 * the short token lifetime the refresh test needs is theirs alone. `issued` gathers
 * every access and refresh token the AS hands out, as the AS prints them: what the
 * tests look for where no secret may be.
 */
export async function startAuthPeers({ ttl, asCors = true, registration = true }) {
  const node22 = join(peers, 'node', 'node_modules', '.bin', 'node');
  const asArgs = ['as.mjs', '--port', '0', '--access-ttl', String(ttl), '--print-issued', ...(asCors ? [] : ['--no-cors']), ...(registration ? [] : ['--no-registration'])];
  const issued = { access: [], refresh: [] };
  const as = startPeer(existsSync(node22) ? node22 : 'node', asArgs,
    'AS listening on ', join(peers, 'node-auth'), (line) => {
      if (!line.startsWith('AS issued ')) return;
      const answer = JSON.parse(line.slice('AS issued '.length));
      issued.access.push(answer.access_token);
      if (answer.refresh_token) issued.refresh.push(answer.refresh_token);
    });
  const asUrl = await as.url;
  const python = join(peers, 'python', '.venv', 'bin', 'python');
  const mcp = startPeer(python, ['protected_server.py', '--issuer', asUrl, '--port', '0', '--cors'],
    'protected MCP server listening on ', join(peers, 'python'));
  let mcpUrl;
  try {
    mcpUrl = await mcp.url;
  } catch (e) {
    as.child.kill();
    throw e;
  }
  return {
    asUrl,
    mcpUrl,
    issued,
    stop: async () => {
      for (const c of [mcp.child, as.child]) {
        if (c.exitCode === null) {
          const gone = new Promise((r) => c.once('exit', r));
          c.kill('SIGTERM');
          await gone;
        }
      }
    },
  };
}

/**
 * A bridge of the test's own (`MCPG_E2E_MCPG`, else the debug build) relaying
 * `url` as the remote `protected`; resolves with the page URL it prints.
 */
export async function startRelayBridge(url, distDir, tmp) {
  return startBridge(`[[remote]]\nname = "protected"\nurl = ${JSON.stringify(url)}\n`, distDir, tmp);
}

/**
 * A bridge of the test's own with `config` (TOML text); `allowPrivateAuth: false`
 * starts it as a learner would, refusing private destinations for its go-between.
 */
export async function startBridge(config, distDir, tmp, { allowPrivateAuth = true } = {}) {
  const file = join(tmp, `auth-bridge-${process.pid}-${Date.now()}.toml`);
  writeFileSync(file, config);
  const mcpg = process.env.MCPG_E2E_MCPG ?? join(root, 'target', 'debug', 'mcpg');
  // The test authorization server is on loopback, which the go-between refuses by default.
  const args = ['serve', '--config', file, '--dist', distDir, '--port', '0', ...(allowPrivateAuth ? ['--allow-private-auth'] : [])];
  const bridge = startPeer(mcpg, args, 'MCP Playground: open ', root);
  const pageUrl = await bridge.url;
  return {
    pageUrl,
    stop: async () => {
      if (bridge.child.exitCode === null) {
        const gone = new Promise((r) => bridge.child.once('exit', r));
        bridge.child.kill('SIGTERM');
        await gone;
      }
    },
  };
}

/**
 * Signs in through oidc-provider's development login and consent pages in `popup`
 * (any login name), until the AS redirects to oauth-callback.html, which hands the
 * redirect back and closes it (or, where the browser refuses to let a window
 * without an opener close itself, says so; the test closes it then).
 */
export async function signInAt(popup, login = 'learner') {
  const closed = new Promise((resolve) => {
    popup.once('close', resolve);
    popup.waitForURL(/oauth-callback\.html/, { timeout: 60_000 })
      .then(() => popup.waitForFunction(() => /Signed in/.test(document.getElementById('msg')?.textContent ?? '')))
      .then(resolve, () => {});
  });
  for (let round = 0; round < 4; round += 1) {
    const next = await Promise.race([
      closed.then(() => 'closed'),
      popup.waitForSelector('input[name=login], button[type=submit]', { timeout: 20_000 }).then(() => 'form', () => 'closed'),
    ]);
    if (next === 'closed') break;
    const url = popup.url();
    if (await popup.$('input[name=login]')) {
      await popup.fill('input[name=login]', login);
      await popup.fill('input[name=password]', 'any');
    }
    await Promise.all([
      popup.waitForURL((u) => u.toString() !== url, { timeout: 20_000 }).catch(() => {}),
      popup.click('button[type=submit]'),
    ]);
  }
  await closed;
  // oauth-callback.js closes the window it was opened in; a second close sent while
  // that one is under way can be lost by Chromium with Playwright's close waiting for
  // good (seen in bridge_auth.test.mjs). So the window gets time to close itself.
  if (!popup.isClosed()) {
    await popup.waitForEvent('close', { timeout: 5_000 }).catch(() => {});
  }
  if (!popup.isClosed()) await popup.close();
}
