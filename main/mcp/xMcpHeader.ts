// Validation of `x-mcp-header` declarations in a tool's inputSchema (spec 003): a value must be
// non-empty ASCII without space or ':', case-insensitively unique in the schema, and only on a
// string, integer or boolean parameter (the 2026-07-28 schema extension leaves out `number`). A tool
// that breaks a rule is left out of the list with a warning.

const ALLOWED = /^[\x21-\x39\x3b-\x7e]+$/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);

export type HeaderCheck = { valid: true } | { valid: false; reason: string };

export function checkXMcpHeaders(inputSchema: unknown): HeaderCheck {
  const properties = (inputSchema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return { valid: true };
  const seen = new Set<string>();
  for (const [param, schema] of Object.entries(properties)) {
    if (typeof schema !== 'object' || schema === null || !('x-mcp-header' in schema)) continue;
    const header = (schema as Record<string, unknown>)['x-mcp-header'];
    if (typeof header !== 'string' || header.length === 0) return { valid: false, reason: `parameter "${param}": x-mcp-header must be a non-empty string` };
    if (!ALLOWED.test(header)) return { valid: false, reason: `parameter "${param}": x-mcp-header "${header}" may hold only ASCII characters other than space and ":"` };
    const key = header.toLowerCase();
    if (seen.has(key)) return { valid: false, reason: `parameter "${param}": x-mcp-header "${header}" is used twice (names are case-insensitive)` };
    seen.add(key);
    const type = (schema as { type?: unknown }).type;
    if (typeof type !== 'string' || !PRIMITIVES.has(type)) {
      return { valid: false, reason: `parameter "${param}": x-mcp-header is only allowed on string, integer or boolean parameters` };
    }
  }
  return { valid: true };
}
