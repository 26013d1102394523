import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROVIDERS_FILE_NAME, SettingsStore } from './settingsStore.ts';
import type { ProviderSettings } from './settingsStore.ts';

async function withHome(run: (home: string) => Promise<void>): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'atrium-settings-'));
  try {
    await run(home);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

test('a change is written to providers.json, then becomes the snapshot, then every listener hears of it', () =>
  withHome(async (home) => {
    const store = await SettingsStore.open(home);
    const heard: Readonly<ProviderSettings>[] = [];
    store.onChange((settings) => heard.push(settings));
    const before = store.current();
    await store.update((current) => ({ ...current, providers: [{ id: 'claude', kind: 'anthropic', apiKeySecret: 'claude' }] }));
    const onDisk = JSON.parse(await readFile(join(home, PROVIDERS_FILE_NAME), 'utf8')) as ProviderSettings;
    assert.deepEqual(onDisk.providers.map((p) => p.id), ['claude']);
    assert.deepEqual(store.current().providers.map((p) => p.id), ['claude']);
    assert.deepEqual(heard.map((s) => s.providers.length), [1]);
    assert.deepEqual(before.providers, [], 'a snapshot someone holds does not change under them');
    assert.equal((await SettingsStore.open(home)).current().providers[0]?.id, 'claude', 'the next start reads what was saved');
  }));

test('a snapshot cannot be changed in place: only update changes the settings', () =>
  withHome(async (home) => {
    const store = await SettingsStore.open(home, { providers: [{ id: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' }] });
    const snapshot = store.current();
    assert.throws(() => (snapshot.providers as unknown[]).push({ id: 'x' }), TypeError);
    assert.throws(() => Object.assign(snapshot, { toolThreshold: 3 }), TypeError);
    assert.equal(store.current().providers.length, 1);
  }));

test('a change that cannot be saved changes nothing: not the snapshot, not the file, and no listener hears of it', () =>
  withHome(async (home) => {
    const store = await SettingsStore.open(home);
    await store.update((current) => ({ ...current, toolThreshold: 10 }));
    let heard = 0;
    store.onChange(() => heard++);
    await assert.rejects(store.update((current) => ({ ...current, toolThreshold: 0 })), /invalid/);
    assert.equal(store.current().toolThreshold, 10);
    // A file that cannot be written (its name taken by a folder) is refused the same way.
    const blocked = await mkdtemp(join(tmpdir(), 'atrium-settings-blocked-'));
    try {
      await mkdir(join(blocked, PROVIDERS_FILE_NAME));
      const elsewhere = await SettingsStore.open(blocked, { providers: [] });
      await assert.rejects(elsewhere.update((current) => ({ ...current, toolThreshold: 5 })));
      assert.equal(elsewhere.current().toolThreshold, undefined);
    } finally {
      await rm(blocked, { recursive: true, force: true });
    }
    assert.equal(heard, 0);
    assert.equal((JSON.parse(await readFile(join(home, PROVIDERS_FILE_NAME), 'utf8')) as ProviderSettings).toolThreshold, 10);
  }));

test('changes made at once are saved one after the other, none lost', () =>
  withHome(async (home) => {
    const store = await SettingsStore.open(home);
    await Promise.all(['a', 'b', 'c'].map((id) => store.update((current) => ({ ...current, providers: [...current.providers, { id, kind: 'anthropic' as const }] }))));
    assert.deepEqual(store.current().providers.map((p) => p.id).sort(), ['a', 'b', 'c']);
  }));

test('a hand edit of providers.json made while Atrium runs is kept by the next change in Settings, and every listener hears of it', () =>
  withHome(async (home) => {
    const store = await SettingsStore.open(home);
    await store.update((current) => ({ ...current, providers: [{ id: 'claude', kind: 'anthropic' }] }));
    const heard: string[][] = [];
    store.onChange((settings) => heard.push(settings.providers.map((p) => p.id)));
    // The person adds a provider in their editor; the window has not read the file since.
    const path = join(home, PROVIDERS_FILE_NAME);
    const edited = JSON.parse(await readFile(path, 'utf8')) as ProviderSettings;
    await writeFile(path, JSON.stringify({ ...edited, providers: [...edited.providers, { id: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' }] }, null, 2));

    await store.update((current) => ({ ...current, toolThreshold: 20 }));
    const saved = JSON.parse(await readFile(path, 'utf8')) as ProviderSettings;
    assert.deepEqual(saved.providers.map((p) => p.id), ['claude', 'local'], 'the provider added by hand is kept');
    assert.equal(saved.toolThreshold, 20);
    assert.deepEqual(heard, [['claude', 'local'], ['claude', 'local']], 'the hand edit is announced, then the change');
  }));

test('a providers.json broken by hand is never written over: a change in Settings is refused and the file left as it was', () =>
  withHome(async (home) => {
    const store = await SettingsStore.open(home);
    await store.update((current) => ({ ...current, providers: [{ id: 'claude', kind: 'anthropic' }] }));
    const path = join(home, PROVIDERS_FILE_NAME);
    const broken = '{\n  "providers": [\n    { "id": "claude", "kind": "anthropic" },\n  ]\n}\n';
    await writeFile(path, broken);
    await assert.rejects(store.update((current) => ({ ...current, toolThreshold: 20 })), {
      code: 'failed',
      message: 'providers.json cannot be read as it is now, so nothing was changed. Line 3, column 44: a comma with nothing after it (remove it). Fix it, then try again.',
    });
    assert.equal(await readFile(path, 'utf8'), broken);
    assert.deepEqual(store.current().providers.map((p) => p.id), ['claude'], 'the settings it had are kept');
  }));

test('stopping the follow waits for a read under way: nothing is written in the folder once it has stopped', async () => {
  await withHome(async (home) => {
    const file = join(home, PROVIDERS_FILE_NAME);
    await writeFile(file, JSON.stringify({ providers: [{ id: 'first', kind: 'anthropic' }] }));
    const store = await SettingsStore.open(home);
    const edited = JSON.stringify({ providers: [{ id: 'edited', kind: 'anthropic' }] });
    await writeFile(file, edited);
    // Following reads the file at once; a stop right after must not leave that read writing on (the last
    // good copy), or a folder removed after a host's shutdown is written into while it goes.
    const stop = store.follow();
    await stop();
    assert.equal(await readFile(`${file}.bak`, 'utf8'), edited, 'the read that was under way finished before the stop did');
    assert.equal(store.current().providers[0]?.id, 'edited');
  });
});
