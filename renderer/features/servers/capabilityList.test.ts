import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capabilityList } from './capabilityList.ts';

test('the extensions a server declares are listed by identifier, those Atrium takes part in explained; others by name', () => {
  const [extensions] = capabilityList({
    extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] }, 'io.modelcontextprotocol/tasks': {}, 'com.example/telemetry': { level: 2 } },
  });
  assert.deepEqual(extensions, {
    name: 'extensions',
    meaning: 'extensions to the protocol',
    features: [
      { key: 'io.modelcontextprotocol/ui', meaning: 'MCP Apps: views of its tools, shown in the chat' },
      { key: 'io.modelcontextprotocol/tasks', meaning: 'MCP Tasks: long calls it runs on as tasks' },
      { key: 'com.example/telemetry' },
    ],
  });
});

test("a 2025 server's tasks capability is one Atrium uses, and a capability it does not know is named as declared", () => {
  const [tasks, unknown] = capabilityList({ tasks: { list: {}, requests: { tools: { call: {} } } }, 'x-custom': { on: true } });
  assert.equal(tasks?.meaning, 'long calls it runs on as tasks, followed while you chat');
  assert.deepEqual(tasks?.features, [
    { key: 'list', meaning: 'its tasks can be listed' },
    { key: 'requests.tools.call', meaning: 'a tool call can run as a task' },
  ]);
  assert.deepEqual(unknown, { name: 'x-custom', features: [{ key: 'on' }] });
});
