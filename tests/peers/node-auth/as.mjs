// A real OAuth 2.1 authorization server for the MCP Playground's tests:
// oidc-provider (a certified OpenID Connect provider) configured the way the MCP
// authorization spec expects an authorization server to be.
//
//   node as.mjs [--port N] [--access-ttl SECONDS] [--resource URL] [--no-cors] [--no-registration]
//               [--print-issued]
//
// - dynamic client registration (RFC 7591) at /reg, open (no initial access token),
//   unless `--no-registration` (then only the pre-registered clients below exist,
//   and the metadata names no registration endpoint);
// - PKCE required for every client, S256 only (RFC 7636);
// - resource indicators (RFC 8707): the `resource` parameter picks the audience, and the
//   access token is a JWT (RS256, key at /jwks) whose `aud` is that resource, with the
//   granted `mcp:*` scopes in `scope`; `--resource URL` is used when a client sends none;
// - refresh tokens for every client allowed the `refresh_token` grant (the default for
//   registered clients), rotated for public clients;
// - `client_secret_basic`, `client_secret_post` and `none` at the token endpoint;
// - the development login and consent pages (any login name, any password);
// - CORS for browsers on discovery, JWKS, token and registration, unless `--no-cors`
//   (then no CORS header at all: a browser must use a go-between such as the bridge);
// - two pre-registered clients for tests of a hand-entered client ID (see README).
//
// Prints `AS listening on http://127.0.0.1:PORT` once it accepts connections
// (`--port 0`, the default, picks a free port). Env: MCPG_AS_PORT, MCPG_AS_ACCESS_TTL.
// With `--print-issued` (tests only: it prints secrets) every token answer is printed
// as `AS issued {"access_token":…,"refresh_token":…}`, so a test knows every secret
// the client was handed without reading response bodies in the browser.

import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

import Provider, { errors } from 'oidc-provider';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.MCPG_AS_PORT ?? '0' },
    'access-ttl': { type: 'string', default: process.env.MCPG_AS_ACCESS_TTL ?? '3600' },
    resource: { type: 'string' },
    'no-cors': { type: 'boolean', default: false },
    'no-registration': { type: 'boolean', default: false },
    'print-issued': { type: 'boolean', default: false },
  },
});

const accessTtl = Number.parseInt(args['access-ttl'], 10);
if (!(accessTtl > 0)) {
  console.error(`as.mjs: --access-ttl must be a positive number of seconds, got ${args['access-ttl']}`);
  process.exit(2);
}

/** The scopes a token for an MCP resource can carry. */
const MCP_SCOPES = 'mcp:tools mcp:admin';

/** Loopback redirects registered for the pre-registered clients (any port: RFC 8252 §7.3 for native clients). */
const LOOPBACK_REDIRECTS = [
  'http://127.0.0.1/callback',
  'http://localhost/callback',
  'http://127.0.0.1/oauth-callback.html',
  'http://localhost/oauth-callback.html',
];

// A fresh signing key per run: tokens never outlive the process anyway.
const signingKey = {
  ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid: 'mcpg-test',
  alg: 'RS256',
  use: 'sig',
};

const server = createServer();
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(Number.parseInt(args.port, 10), '127.0.0.1', resolve);
});
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  jwks: { keys: [signingKey] },
  cookies: { keys: ['mcpg-test-only-cookie-key'] },
  clients: [
    {
      client_id: 'mcpg-public',
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: LOOPBACK_REDIRECTS,
    },
    {
      client_id: 'mcpg-confidential',
      client_secret: 'mcpg-confidential-secret',
      application_type: 'native',
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: LOOPBACK_REDIRECTS,
    },
  ],
  // What a registration that names none of these gets.
  clientDefaults: {
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  },
  scopes: ['openid', 'offline_access'],
  responseTypes: ['code'],
  clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: !args['no-registration'] },
    introspection: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async (_ctx, _client, oneOf) => oneOf ?? args.resource,
      // A token request without `resource` gets the resource the user consented to.
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, resourceIndicator) => {
        if (args.resource !== undefined && resourceIndicator !== args.resource) {
          throw new errors.InvalidTarget(`this server only issues tokens for ${args.resource}`);
        }
        return {
          scope: MCP_SCOPES,
          audience: resourceIndicator,
          accessTokenTTL: accessTtl,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
  pkce: { required: () => true },
  // Every lifetime set (oidc-provider prints a notice for each default it uses).
  ttl: {
    AccessToken: accessTtl,
    AuthorizationCode: 60,
    Grant: 14 * 24 * 3600,
    Interaction: 3600,
    RefreshToken: 14 * 24 * 3600,
    Session: 14 * 24 * 3600,
  },
  // MCP clients rarely ask for offline_access (and oidc-provider drops it without
  // prompt=consent): a client allowed the refresh_token grant gets a refresh token.
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  // Browser clients (the page) call the token endpoint from their own origin.
  clientBasedCORS: () => !args['no-cors'],
  findAccount: async (_ctx, accountId) => ({
    accountId,
    claims: async () => ({ sub: accountId }),
  }),
});

// oidc-provider sends no CORS headers on the registration endpoint; a browser
// client registering itself needs them.
provider.use(async (ctx, next) => {
  const registration = ctx.path === '/reg';
  if (registration && ctx.method === 'OPTIONS' && !args['no-cors']) {
    ctx.set('Access-Control-Allow-Origin', ctx.get('Origin') || '*');
    ctx.set('Access-Control-Allow-Methods', 'POST');
    ctx.set('Access-Control-Allow-Headers', ctx.get('Access-Control-Request-Headers') || 'content-type');
    ctx.status = 204;
    return;
  }
  await next();
  const issued = ctx.path === '/token' && ctx.method === 'POST' && ctx.status === 200 ? ctx.body : undefined;
  if (args['print-issued'] && issued?.access_token) {
    const { access_token, refresh_token } = issued;
    console.log(`AS issued ${JSON.stringify({ access_token, refresh_token })}`);
  }
  if (args['no-cors']) {
    for (const name of Object.keys(ctx.response.headers)) {
      if (name.startsWith('access-control-')) ctx.remove(name);
    }
  } else if (registration) {
    ctx.set('Access-Control-Allow-Origin', ctx.get('Origin') || '*');
  }
});

server.on('request', provider.callback());
console.log(`AS listening on ${issuer}`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
