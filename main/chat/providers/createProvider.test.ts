import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

/** The model SDKs a fresh process loads while importing `module`, seen by a resolve hook. */
function sdksLoadedBy(module: string): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({ resolve(specifier, context, next) { if (/^(@anthropic-ai\\/sdk|openai)(\\/|$)/.test(specifier)) seen.add(specifier.split('/')[0].startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]); return next(specifier, context); } });
    await import(${JSON.stringify(module)});
    console.log(JSON.stringify([...seen].sort()));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as string[];
}

test('the host loads no model SDK until a provider is used: starting is not slowed by them', () => {
  assert.deepEqual(sdksLoadedBy(fileURLToPath(new URL('../../app/hostCore.ts', import.meta.url))), []);
  assert.deepEqual(sdksLoadedBy(fileURLToPath(new URL('../../cli/runCli.ts', import.meta.url))), []);
  // The hook sees them when they are loaded: the providers themselves.
  assert.deepEqual(sdksLoadedBy(fileURLToPath(new URL('./anthropicProvider.ts', import.meta.url))), ['@anthropic-ai/sdk']);
  assert.deepEqual(sdksLoadedBy(fileURLToPath(new URL('./openaiResponsesProvider.ts', import.meta.url))), ['openai']);
});
