// The command line's start dialog: a server whose launch definition is new or changed since the person
// approved it is shown (what it runs, what was approved before, its risky shapes) and, on a terminal,
// asked about; without one it stays off and the one command that approves it is printed.

import type { LaunchReview } from '../../shared/domain.ts';
import { missingPathSentence } from '../../shared/domain.ts';
import type { InstallInputKind, ServerOrigin } from '../../shared/installs.ts';
import { describeBlock } from '../../shared/installs.ts';
import type { RunningHost } from '../app/hostCore.ts';
import { describeLaunch, shellWord } from '../../shared/domain.ts';
import { missingProgramSentence } from '../../shared/missingProgram.ts';
import { visible } from './formatOutput.ts';
import { askChoice, YES_OR_NO } from './terminalChoice.ts';

export interface LaunchConsentIo {
  err(text: string): void;
  ask?(question: string, signal?: AbortSignal): Promise<string>;
}

/** The command that approves a server's current definition, with the servers file it came from when not the stored one. */
export function approveCommand(serverId: string, configPath?: string): string {
  return `atrium servers approve ${shellWord(serverId)}${configPath !== undefined ? ` --config ${shellWord(configPath)}` : ''}`;
}

/** What its definition names that is not on this computer, a sentence each: it cannot start as written, approved or not. */
export function whyItCannotStart(review: LaunchReview): string[] {
  const program = review.definition.transport === 'stdio' && review.definition.program === null ? [missingProgramSentence(review.definition.command)] : [];
  return [...program, ...(review.missing ?? []).map(missingPathSentence)];
}

/**
 * What the person is shown before approving: where it came from (a registry's publisher and whether the
 * registry checked them, a bundle and its signature), what it asks for, the definition, the one it
 * replaces, what changed, what it can touch, each risk — and the policy's rule, when it blocks it.
 */
export function describeReview(review: LaunchReview): string[] {
  const name = visible(review.serverId);
  const lines = [review.approved ? `${name} changed since you approved it:` : `${name} is new: Atrium has not run it before.`];
  if (review.origin) lines.push(...describeOrigin(review.origin).map((line) => `  ${visible(line)}`));
  if (review.approved) lines.push(`  approved: ${visible(describeLaunch(review.approved))}`);
  lines.push(`  ${review.approved ? 'now:     ' : 'runs:'} ${visible(describeLaunch(review.definition))}`);
  for (const why of whyItCannotStart(review)) lines.push(`  ⚠ ${visible(why)}`);
  const scripts = review.definition.transport === 'stdio' ? (review.definition.scripts ?? []) : [];
  if (scripts.length) lines.push(`  scripts, pinned by their content: ${visible(scripts.join(', '))}`);
  for (const change of review.changes) lines.push(`  • ${visible(change)}`);
  lines.push(`  can touch: ${visible(review.reach.summary)}`);
  for (const detail of review.reach.details) lines.push(`    ${visible(detail)}`);
  for (const risk of review.risks) lines.push(`  ⚠ ${visible(risk.message)}`);
  if (review.blocked) lines.push(`  ⛔ ${visible(describeBlock(review.blocked))}: it cannot start, whatever you answer.`);
  if (review.sandbox) lines.push(`  ${review.sandbox.reason}`, ...review.sandbox.touches.map((line) => `    ${line}`), ...(review.sandbox.install ? [`    ${review.sandbox.install}`] : []));
  return lines;
}

const inputKind: Record<InstallInputKind, string> = { environment: 'environment variable', header: 'header', url: 'part of its address', argument: 'argument', setting: 'setting' };

function describeOrigin(origin: ServerOrigin): string[] {
  const asks = origin.inputs.length
    ? `asks for: ${origin.inputs.map((input) => `${input.key} (${inputKind[input.kind]}${input.secret ? ', secret: kept in Atrium’s encrypted store' : ''})`).join(', ')}`
    : 'asks for: nothing';
  if (origin.kind === 'bundle') {
    const signature = origin.signature === 'unsigned' ? 'unsigned' : 'carries a signature Atrium did not check (no bundle signature is checked anywhere today)';
    return [`from: the bundle ${origin.name} ${origin.version}${origin.author ? ` by ${origin.author}` : ''}, SHA-256 ${origin.sha256}; ${signature}`, asks];
  }
  return [
    `from: ${origin.name} ${origin.version} on the registry at ${origin.registry}`,
    `publisher: ${origin.publisher.namespace}, ${origin.publisher.verified ? 'verified' : 'not verified'}: ${origin.publisher.note}`,
    ...(origin.deprecated ? [`⚠ deprecated: ${origin.deprecated}`] : []),
    asks,
  ];
}

/**
 * Asks about every server in scope that waits for approval; returns the ones still not approved.
 * `configPath` is the servers file given with --config, so the printed command approves the same entry.
 */
export async function settleLaunchApprovals(core: RunningHost, io: LaunchConsentIo, configPath: string | undefined, signal?: AbortSignal): Promise<string[]> {
  // Settled first: a server whose definition is approved can still turn out to wait, once the script or
  // program it runs is found changed just before it starts.
  const settled = await core.whenSettled();
  const waiting = [...settled].filter(([, status]) => status.kind === 'needs-approval').map(([id]) => ({ id }));
  const refused: string[] = [];
  for (const server of waiting) {
    const review = await core.api.reviewServerLaunch({ serverId: server.id });
    for (const line of describeReview(review)) io.err(line);
    if (io.ask) {
      const ask = io.ask;
      const start = await askChoice((question) => ask(question, signal), io.err, `  Start ${visible(review.serverId)} with this definition?`, YES_OR_NO, false);
      if (start) {
        await core.api.approveServerLaunch({ serverId: review.serverId, hash: review.hash });
        continue;
      }
    }
    refused.push(review.serverId);
    io.err(`atrium: ${visible(review.serverId)}: not started until you approve it. To approve it: ${approveCommand(review.serverId, configPath)}`);
  }
  return refused;
}
