// A stdio server that logs one line at each level as soon as the client has initialized, so a test can
// filter a log whose lines it knows in advance. 2025 era (log notifications need no request to ride on).
//   node e2e/servers/logLevelsServer.ts
import { McpServer } from '@modelcontextprotocol/server';
import type { LoggingLevel } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** One line per level, least severe first; the texts are what tests search for. */
const LEVEL_LINES: readonly (readonly [LoggingLevel, string])[] = [
  ['debug', 'cache lookup for report.csv'],
  ['info', 'cache warmed with 3 entries'],
  ['notice', 'config reloaded'],
  ['warning', 'disk almost full (91%)'],
  ['error', 'disk full: could not write report.csv'],
  ['critical', 'index corrupted'],
];

const server = new McpServer({ name: 'log-levels-server', version: '1.0.0' }, { capabilities: { logging: {} } });
server.server.oninitialized = () => {
  void (async () => {
    for (const [level, data] of LEVEL_LINES) await server.sendLoggingMessage({ level, logger: 'levels', data });
  })();
};
await server.connect(new StdioServerTransport());
