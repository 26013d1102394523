// A scene for the skills' integration tests: skill folders on disk, real skill servers (e2e/servers/
// skillServer.ts) in a host whose model is a scripted fake, the person's answers to the skill questions,
// and what each server's own log says it was asked (every read of a skill file is a line there).

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PendingOf } from '../../../../../shared/pendingPayloads.ts';
import type { SkillAnswer } from '../contract/skillViews.ts';
import type { FakeLlmServer, FakeTurn } from '../../../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { TestHost } from '../../../../../e2e/fixtures/hostHarness.ts';
import { makeTempDir, scriptedModelOptions, startTestHost } from '../../../../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../../../../e2e/servers/launch.ts';
import type { HostCoreOptions } from '../../../../app/hostCore.ts';

export const REFUNDS_SKILL_MD = `---
name: refunds
description: Process a customer's refund request per company policy.
allowed-tools: note_order refund_order Bash
---
# Refunds
1. Look the order up with lookup_order.
2. Read references/policy.md and apply it.
`;

export const POLICY_MD = 'Refund within 30 days of delivery.\n';

/** Writes one skill folder (paths relative to it) under `root`. */
export async function writeSkill(root: string, name: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const file = join(root, name, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

/** A folder of skills with "refunds" (SKILL.md and references/policy.md) in it. */
export async function refundsFolder(): Promise<string> {
  const root = await makeTempDir('atrium-skills-');
  await writeSkill(root, 'refunds', { 'SKILL.md': REFUNDS_SKILL_MD, 'references/policy.md': POLICY_MD });
  return root;
}

export function skillServer(args: string[]): { command: string; args: string[] } {
  return fixtureCommand('skillServer', args);
}

export interface SkillScene {
  host: TestHost;
  llm: FakeLlmServer;
  /** Every skill question the person was asked, in order. */
  asked: PendingOf<'skill'>[];
  /** How the person answers the next questions (default: use the skill, grant no tool). */
  answerWith(answer: SkillAnswer | ((question: PendingOf<'skill'>) => SkillAnswer)): void;
  /** The lines a server wrote about the skills requests it got (`skills/list`, `skills/get …`, `read …`). */
  serverSaid(serverId: string): Promise<string[]>;
  close(): Promise<void>;
}

/** A host over these servers whose model plays `script`; the person answers skill questions as `answerWith` says. */
export async function skillScene(script: FakeTurn[], servers: Record<string, unknown>, options: Partial<HostCoreOptions> = {}): Promise<SkillScene> {
  const llm = await startFakeAnthropic(script);
  const host = await startTestHost(servers, {
    approvalMode: 'ask',
    ...scriptedModelOptions(llm.url),
    ...options,
  });
  await host.core.hub.whenSettled();
  const asked: PendingOf<'skill'>[] = [];
  let answer: SkillAnswer | ((question: PendingOf<'skill'>) => SkillAnswer) = { effect: 'allow' };
  host.core.events.on('pendingOpened', (record) => {
    if (record.kind !== 'skill') return;
    asked.push(record);
    void host.core.api.respondPending({ id: record.id, outcome: typeof answer === 'function' ? answer(record) : answer });
  });
  return {
    host,
    llm,
    asked,
    answerWith: (next) => (answer = next),
    serverSaid: async (serverId) =>
      (await host.core.api.getServerLog({ serverId })).filter((line) => line.source === 'stderr').map((line) => line.text).filter((text) => /^(skills\/|read |noted |refunded )/.test(text)),
    close: async () => {
      await host.close();
      await llm.close();
    },
  };
}

/** The requests the fake model received, as JSON text. */
export function modelRequests(llm: FakeLlmServer): string[] {
  return llm.requests.filter((request) => request.method === 'POST').map((request) => JSON.stringify(request.body));
}
