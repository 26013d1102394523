// The request headers of spec 002 (Mcp-Method, Mcp-Name, Mcp-Param-{Name} for x-mcp-header parameters),
// sent on every Streamable HTTP request whatever the protocol era. The SDK adds them itself on
// 2026-07-28 connections; this wrapper adds whatever is missing, so a 2025-era server behind a gateway
// that routes on them works the same.

import type { FetchLike, Tool } from '@modelcontextprotocol/client';

const SAFE_HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Spec 002 value encoding: plain when it is visible ASCII without edge spaces, else =?base64?…?=. */
export function encodeHeaderValue(value: string | number | boolean): string {
  const text = typeof value === 'string' ? value : String(value);
  return SAFE_HEADER_VALUE.test(text) ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/** The headers a JSON-RPC request body calls for. */
export function mcpHeadersFor(body: unknown, toolByName: (name: string) => Tool | undefined): Record<string, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const { method, params } = body as { method?: unknown; params?: Record<string, unknown> };
  if (typeof method !== 'string') return {};
  const headers: Record<string, string> = { 'Mcp-Method': method };
  const name = method === 'resources/read' ? params?.uri : method === 'tools/call' || method === 'prompts/get' ? params?.name : undefined;
  if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name);
  if (method === 'tools/call' && typeof name === 'string') Object.assign(headers, paramHeaders(toolByName(name), params?.arguments));
  return headers;
}

/** The `Mcp-Param-{Name}` headers of a tools/call: its x-mcp-header parameters' values, encoded. */
export function paramHeaders(tool: Tool | undefined, args: unknown): Record<string, string> {
  const properties = (tool?.inputSchema as { properties?: Record<string, { 'x-mcp-header'?: unknown }> } | undefined)?.properties;
  if (!properties || typeof args !== 'object' || args === null) return {};
  const headers: Record<string, string> = {};
  for (const [param, schema] of Object.entries(properties)) {
    const header = schema?.['x-mcp-header'];
    const value = (args as Record<string, unknown>)[param];
    if (typeof header !== 'string') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') headers[`Mcp-Param-${header}`] = encodeHeaderValue(value);
  }
  return headers;
}

/** A header lookup that does not copy the headers: this runs on every request. */
function hasHeader(headers: RequestInit['headers'], lowerCaseName: string): boolean {
  if (headers === undefined) return false;
  if (headers instanceof Headers) return headers.has(lowerCaseName);
  const names = Array.isArray(headers) ? headers.map(([name]) => name) : Object.keys(headers);
  return names.some((name) => name?.toLowerCase() === lowerCaseName);
}

export function withMcpRequestHeaders(fetchImpl: FetchLike, toolByName: (name: string) => Tool | undefined): FetchLike {
  return async (url, init) => {
    // The SDK already set them on a 2026-07-28 connection; the body is only read when they are missing.
    if (init?.method !== 'POST' || typeof init.body !== 'string' || hasHeader(init.headers, 'mcp-method')) return fetchImpl(url, init);
    const headers = new Headers(init.headers);
    let body: unknown;
    try {
      body = JSON.parse(init.body);
    } catch {
      return fetchImpl(url, init);
    }
    for (const [name, value] of Object.entries(mcpHeadersFor(body, toolByName))) if (!headers.has(name)) headers.set(name, value);
    return fetchImpl(url, { ...init, headers });
  };
}
