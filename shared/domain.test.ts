import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAtLeast, isLogLevel, logLevels } from './domain.ts';

test('log levels order from debug to emergency, and a line passes a minimum at or below its own level', () => {
  assert.deepEqual(
    logLevels.filter((level) => isAtLeast(level, 'warning')),
    ['warning', 'error', 'critical', 'alert', 'emergency'],
  );
  assert.equal(isAtLeast('notice', 'info'), true);
  assert.equal(isAtLeast('info', 'notice'), false);
  assert.equal(isAtLeast('debug', 'debug'), true);
});

test('only the eight MCP level names are log levels', () => {
  assert.equal(isLogLevel('warning'), true);
  assert.equal(isLogLevel('warn'), false);
  assert.equal(isLogLevel('WARNING'), false);
});
