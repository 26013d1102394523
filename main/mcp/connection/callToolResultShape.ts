// A cheap structural check of a tools/call result, used instead of the SDK's zod schema on 2025-era
// connections (toolCallChannel.ts): per call, zod's union parsing (and the error objects it builds while
// trying alternatives) cost more than the pipe round trip itself (bench/stdioRoundTrip.ts). Content
// blocks are checked for shape only; the renderer treats every field as untrusted text anyway.

import type { CallToolResult, Tool, jsonSchemaValidator } from '@modelcontextprotocol/client';

type Issues = { issues: { message: string; path?: PropertyKey[] }[] };

export function checkCallToolResult(value: unknown): { value: CallToolResult } | Issues {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { issues: [{ message: 'the result is not an object' }] };
  const result = value as Record<string, unknown>;
  const content = result.content ?? [];
  if (!Array.isArray(content)) return { issues: [{ message: '"content" is not an array', path: ['content'] }] };
  for (let index = 0; index < content.length; index++) {
    const block: unknown = content[index];
    if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string') {
      return { issues: [{ message: `content[${index}] has no type`, path: ['content', index] }] };
    }
  }
  if (result.isError !== undefined && typeof result.isError !== 'boolean') return { issues: [{ message: '"isError" is not a boolean', path: ['isError'] }] };
  const structured = result.structuredContent;
  if (structured !== undefined && (typeof structured !== 'object' || structured === null || Array.isArray(structured))) {
    return { issues: [{ message: '"structuredContent" is not an object', path: ['structuredContent'] }] };
  }
  // Copied only when content must be filled in: this runs for every call's result.
  return { value: (result.content === undefined ? { ...result, content } : result) as CallToolResult };
}

/**
 * What the SDK's callTool checks after the call, for a tool that declares an outputSchema: a successful
 * result must carry structuredContent that matches it (spec 003).
 */
export function checkStructuredContent(result: CallToolResult, tool: Tool | undefined, validator: jsonSchemaValidator): string | undefined {
  if (!tool?.outputSchema || result.isError) return undefined;
  if (result.structuredContent === undefined) return `tool "${tool.name}" declares an outputSchema but returned no structuredContent`;
  const outcome = validator.getValidator(tool.outputSchema as Parameters<jsonSchemaValidator['getValidator']>[0])(result.structuredContent);
  return outcome.valid ? undefined : `structuredContent of tool "${tool.name}" does not match its outputSchema: ${outcome.errorMessage}`;
}
