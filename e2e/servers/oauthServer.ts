// An MCP server that requires OAuth bearer tokens, and its authorization server, on one port: protected
// resource metadata (RFC 9728), authorization server metadata (RFC 8414), dynamic registration
// (RFC 7591), an authorization endpoint that approves at once (PKCE S256 required, `iss` in the answer),
// a token endpoint (authorization_code and refresh_token, with a configurable lifetime), and revocation
// (RFC 7009). The MCP endpoint (both eras, stateless) answers 401 without a valid token and
// 403 insufficient_scope for a tool that needs more than the token has.
//
// Tools: whoami → "alice read" (subject and scopes); admin_action → needs scope `admin`
// (`--admin-never-enough` keeps refusing it); revoke_access_tokens → invalidates every access token
// (refresh tokens keep working); revoke_all_tokens → invalidates every access and refresh token (the
// sign-in is revoked: only signing in again helps). `--no-refresh-token` issues access tokens alone.
// `--deny`: the authorization page refuses (the person said no): it sends the browser back with
// error=access_denied.
// Options that make it misbehave, to prove Atrium refuses: --authorization-endpoint URL,
// --authorization-server URL (in the resource metadata), --resource-metadata URL (in WWW-Authenticate),
// --redirect-as-metadata-to URL (the AS metadata document answers 302 there).
// stderr, one line per event: `register <client>`, `authorize scope=<s> resource=<r>`,
// `token <grant>`, `revoke <hint>`, `mcp 401` (no token) or `mcp 401 token refused`, `mcp 403 <tool>`,
// `mcp ok <method>`.
//   node e2e/servers/oauthServer.ts [--port 0] [--expires-in 3600] [--no-refresh-token] …    prints `listening <url>` (path /mcp)
import { createHash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { httpArgs, listenHttp, toNodeListener } from './listenHttp.ts';

const { values: options } = parseArgs({
  strict: false,
  options: {
    'expires-in': { type: 'string', default: '3600' },
    'admin-never-enough': { type: 'boolean', default: false },
    deny: { type: 'boolean', default: false },
    'no-refresh-token': { type: 'boolean', default: false },
    'authorization-endpoint': { type: 'string' },
    'authorization-server': { type: 'string' },
    'resource-metadata': { type: 'string' },
    'redirect-as-metadata-to': { type: 'string' },
  },
});
const expiresIn = Number(options['expires-in']);
const SUBJECT = 'alice';

interface Grant {
  scopes: string[];
  resource: string;
}
const codes = new Map<string, Grant & { challenge: string; redirectUri: string; clientId: string }>();
const accessTokens = new Map<string, Grant & { expiresAt: number }>();
const refreshTokens = new Map<string, Grant>();
const clients = new Set<string>();

const log = (line: string) => process.stderr.write(`${line}\n`);
const token = () => randomBytes(24).toString('base64url');
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const oauthError = (status: number, error: string) => Response.json({ error, error_description: error }, { status });

let base = '';

function issue(grant: Grant): Record<string, unknown> {
  const access = token();
  accessTokens.set(access, { ...grant, expiresAt: Date.now() + expiresIn * 1000 });
  const refresh = options['no-refresh-token'] ? undefined : token();
  if (refresh) refreshTokens.set(refresh, grant);
  // An OpenID-style ID token naming the person, unsigned: the client only shows who signed in.
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const idToken = `${part({ alg: 'none' })}.${part({ iss: base, sub: SUBJECT, preferred_username: SUBJECT })}.`;
  return { access_token: access, token_type: 'Bearer', expires_in: expiresIn, ...(refresh ? { refresh_token: refresh } : {}), scope: grant.scopes.join(' '), id_token: idToken };
}

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  switch (`${request.method} ${url.pathname}`) {
    case 'GET /.well-known/oauth-protected-resource/mcp':
      return Response.json({ resource: `${base}/mcp`, authorization_servers: [options['authorization-server'] ?? base], scopes_supported: ['read', 'admin'] });
    case 'GET /.well-known/oauth-authorization-server':
      if (options['redirect-as-metadata-to']) return new Response(null, { status: 302, headers: { location: String(options['redirect-as-metadata-to']) } });
      return Response.json({
        issuer: base,
        authorization_endpoint: options['authorization-endpoint'] ?? `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        revocation_endpoint: `${base}/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        scopes_supported: ['read', 'admin'],
        authorization_response_iss_parameter_supported: true,
      });
    case 'POST /register': {
      const body = (await request.json()) as { redirect_uris?: string[] };
      const clientId = `client-${clients.size + 1}`;
      clients.add(clientId);
      log(`register ${clientId}`);
      return Response.json({ client_id: clientId, redirect_uris: body.redirect_uris ?? [], token_endpoint_auth_method: 'none' }, { status: 201 });
    }
    case 'GET /authorize':
      return authorize(url.searchParams);
    case 'POST /token':
      return exchange(new URLSearchParams(await request.text()));
    case 'POST /revoke': {
      const form = new URLSearchParams(await request.text());
      const value = form.get('token') ?? '';
      accessTokens.delete(value);
      refreshTokens.delete(value);
      log(`revoke ${form.get('token_type_hint') ?? 'token'}`);
      return new Response(null, { status: 200 });
    }
    default:
      if (url.pathname === '/mcp') return mcp(request);
      return new Response('Not Found', { status: 404 });
  }
}

function authorize(query: URLSearchParams): Response {
  const clientId = query.get('client_id') ?? '';
  const redirectUri = query.get('redirect_uri') ?? '';
  if (!clients.has(clientId) || !/^http:\/\/127\.0\.0\.1:\d+\//.test(redirectUri)) return oauthError(400, 'invalid_request');
  if (query.get('code_challenge_method') !== 'S256' || !query.get('code_challenge') || !query.get('state')) return oauthError(400, 'invalid_request');
  const scopes = (query.get('scope') ?? '').split(' ').filter(Boolean);
  const resource = query.get('resource') ?? '';
  log(`authorize scope=${scopes.join(' ')} resource=${resource}${options.deny ? ' denied' : ''}`);
  if (options.deny) {
    const refused = new URL(redirectUri);
    refused.searchParams.set('error', 'access_denied');
    refused.searchParams.set('state', query.get('state') ?? '');
    refused.searchParams.set('iss', base);
    return new Response(null, { status: 302, headers: { location: refused.href } });
  }
  const code = token();
  codes.set(code, { scopes, resource, challenge: query.get('code_challenge') ?? '', redirectUri, clientId });
  const back = new URL(redirectUri);
  back.searchParams.set('code', code);
  back.searchParams.set('state', query.get('state') ?? '');
  back.searchParams.set('iss', base);
  return new Response(null, { status: 302, headers: { location: back.href } });
}

function exchange(form: URLSearchParams): Response {
  const grantType = form.get('grant_type') ?? '';
  log(`token ${grantType}`);
  if (grantType === 'authorization_code') {
    const code = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    if (!code || code.redirectUri !== form.get('redirect_uri') || createHash('sha256').update(verifier).digest('base64url') !== code.challenge) return oauthError(400, 'invalid_grant');
    return Response.json(issue({ scopes: code.scopes, resource: code.resource }));
  }
  if (grantType === 'refresh_token') {
    const grant = refreshTokens.get(form.get('refresh_token') ?? '');
    if (!grant) return oauthError(400, 'invalid_grant');
    refreshTokens.delete(form.get('refresh_token') ?? '');
    return Response.json(issue(grant));
  }
  return oauthError(400, 'unsupported_grant_type');
}

async function mcp(request: Request): Promise<Response> {
  const presented = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  const grant = presented ? accessTokens.get(presented) : undefined;
  if (!grant || grant.expiresAt < Date.now()) {
    log(presented ? 'mcp 401 token refused' : 'mcp 401');
    const metadata = options['resource-metadata'] ?? `${base}/.well-known/oauth-protected-resource/mcp`;
    return Response.json(
      { error: 'invalid_token' },
      { status: 401, headers: { 'www-authenticate': `Bearer error="invalid_token", scope="read", resource_metadata="${metadata}"` } },
    );
  }
  const body = request.method === 'POST' ? ((await request.clone().json()) as { method?: string; params?: { name?: string } }) : {};
  if (body.method === 'tools/call' && body.params?.name === 'admin_action' && (options['admin-never-enough'] || !grant.scopes.includes('admin'))) {
    log('mcp 403 admin_action');
    return Response.json(
      { error: 'insufficient_scope' },
      { status: 403, headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="admin", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` } },
    );
  }
  log(`mcp ok ${body.method ?? request.method}`);
  return handler.fetch(request);
}

function serverFor(request: Request | undefined): McpServer {
  const presented = /^Bearer (.+)$/.exec(request?.headers.get('authorization') ?? '')?.[1] ?? '';
  const server = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Who the token belongs to, and its scopes.' }, () =>
    text(`${SUBJECT} ${accessTokens.get(presented)?.scopes.join(' ') ?? ''}`.trim()),
  );
  server.registerTool('admin_action', { description: 'Needs the admin scope.' }, () => text('admin done'));
  server.registerTool('revoke_access_tokens', { description: 'Invalidates every access token; refresh tokens still work.' }, () => {
    // After this answer has gone out with the token that asked for it.
    setImmediate(() => accessTokens.clear());
    return text('revoked');
  });
  server.registerTool('revoke_all_tokens', { description: 'Invalidates every access and refresh token: the sign-in is revoked.' }, () => {
    setImmediate(() => {
      accessTokens.clear();
      refreshTokens.clear();
    });
    return text('revoked');
  });
  return server;
}

const handler = createMcpHandler(({ requestInfo }) => serverFor(requestInfo));
const listening = await listenHttp(toNodeListener(handle), { ...httpArgs(), path: '/mcp' });
base = new URL(listening.url).origin;
