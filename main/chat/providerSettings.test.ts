import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ModelChoiceError, chooseProvider } from './providerSettings.ts';

const settings = {
  providers: [
    { id: 'claude', kind: 'anthropic' as const, apiKeySecret: 'anthropic', models: ['claude-a', 'claude-b'] },
    { id: 'local', kind: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:11434/v1', models: ['llama'] },
  ],
  default: { provider: 'local', model: 'llama' },
};

test('the default provider and model apply unless flags choose others', () => {
  assert.deepEqual(chooseProvider(settings, {}).model, 'llama');
  assert.equal(chooseProvider(settings, { provider: 'claude' }).model, 'claude-a');
  assert.equal(chooseProvider(settings, { provider: 'claude', model: 'claude-b' }).model, 'claude-b');
});

test('a provider kind given as a flag works without configuration; its key comes from the secret of that name', () => {
  const { config, model } = chooseProvider({ providers: [] }, { provider: 'openai', model: 'gpt-x', baseUrl: 'http://127.0.0.1:9/v1' });
  assert.deepEqual(config, { id: 'openai', kind: 'openai', apiKeySecret: 'openai', baseUrl: 'http://127.0.0.1:9/v1' });
  assert.equal(model, 'gpt-x');
});

/** What the window says and what the CLI says for a choice that cannot be made. */
function wordings(run: () => unknown): { window: string; commandLine: string } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ModelChoiceError, String(error));
    return { window: error.message, commandLine: error.commandLine };
  }
  assert.fail('the choice was made');
}

test('missing choices are errors that say what to do: in the window with Settings, in the CLI with its flags and files', () => {
  const cases = [
    wordings(() => chooseProvider({ providers: [] }, {})),
    wordings(() => chooseProvider(settings, { provider: 'nope' })),
    wordings(() => chooseProvider({ providers: [] }, { provider: 'openai-compatible', model: 'x' })),
    wordings(() => chooseProvider({ providers: [{ id: 'bare', kind: 'anthropic' }] }, {})),
  ];
  assert.match(cases[0]!.window, /no model provider is set up yet: add one in Settings/);
  assert.match(cases[0]!.commandLine, /no LLM provider is configured/);
  assert.match(cases[1]!.window, /no provider "nope".*claude, local/);
  assert.match(cases[2]!.commandLine, /needs a base URL \(--base-url/);
  assert.match(cases[3]!.window, /provider "bare" has no model to use/);
  assert.match(cases[3]!.commandLine, /no model chosen for provider "bare": its models could not be listed .*pass --model/);
  for (const { window } of cases) assert.doesNotMatch(window, /providers\.json|--[a-z]/, window);
});

test('a provider without a default or configured models uses the first model its API listed', () => {
  const bare = { providers: [{ id: 'fake', kind: 'anthropic' as const }] };
  const listed = (id: string) => (id === 'fake' ? ['fake-1', 'fake-2'] : undefined);
  assert.deepEqual(chooseProvider(bare, {}, listed).model, 'fake-1');
  assert.equal(chooseProvider(bare, { model: 'fake-2' }, listed).model, 'fake-2');
  // A default chosen in Settings still wins over the listed order.
  assert.equal(chooseProvider({ ...bare, default: { provider: 'fake', model: 'fake-2' } }, {}, listed).model, 'fake-2');
});
