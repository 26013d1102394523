// The baseline of bench/longConversationRequest.ts: a bare client on the official SDKs (@anthropic-ai/sdk
// and @modelcontextprotocol/client, nothing else) that continues the same long conversation with one
// turn against the same fake model server, calling the same tool on the same server between the model's
// steps, and keeping the conversation in memory. The history is read before the turn (not timed); what
// the bench times is each step's end to the next request, on the fake server's clock.
//   node bench/rawLongConversationTurn.ts MODEL_URL HISTORY_JSON SERVER_SCRIPT
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [url = '', historyFile = '', serverPath = ''] = process.argv.slice(2);
const PREFIX = 'calc__';

const anthropic = new Anthropic({ apiKey: 'sk-bench', baseURL: url, maxRetries: 0 });
const mcp = new Client({ name: 'bench-bare', version: '0.0.0' });
await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [serverPath], stderr: 'ignore' }));
const tools = (await mcp.listTools()).tools.map((tool) => ({ name: `${PREFIX}${tool.name}`, description: tool.description ?? '', input_schema: tool.inputSchema as Anthropic.Tool.InputSchema }));
const messages = JSON.parse(readFileSync(historyFile, 'utf8')) as Anthropic.MessageParam[];
messages.push({ role: 'user', content: 'Add them up once more.' });
for (;;) {
  const reply = await anthropic.messages.stream({ model: 'claude-bench', max_tokens: 4096, messages, tools }).finalMessage();
  messages.push({ role: 'assistant', content: reply.content });
  const uses = reply.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
  if (uses.length === 0) break;
  const results: Anthropic.ToolResultBlockParam[] = [];
  for (const use of uses) {
    const result = await mcp.callTool({ name: use.name.slice(PREFIX.length), arguments: use.input as Record<string, unknown> });
    results.push({ type: 'tool_result', tool_use_id: use.id, content: result.content as Anthropic.TextBlockParam[] });
  }
  messages.push({ role: 'user', content: results });
}
await mcp.close();
