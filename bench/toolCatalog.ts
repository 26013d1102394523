// The real tool lists of 19 MCP servers from npm (bench/fixtures/toolCatalog.json, captured by
// bench/captureToolCatalog.ts), as the host's tool summaries: what the tool benches search and send.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ToolSummary } from '../shared/domain.ts';

interface CapturedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export function readBenchFixture<T>(name: string): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), 'utf8')) as T;
}

export function catalogTools(): { tools: ToolSummary[]; servers: number } {
  const catalog = readBenchFixture<Record<string, CapturedTool[]>>('toolCatalog.json');
  const tools = Object.entries(catalog).flatMap(([serverId, list]) =>
    list.map((tool) => ({
      serverId,
      name: tool.name,
      modelName: `${serverId}__${tool.name}`,
      ...(tool.title ? { title: tool.title } : {}),
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema,
      enabled: true,
    })),
  );
  return { tools, servers: Object.keys(catalog).length };
}
