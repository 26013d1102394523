// Skills: what a skill asks of the person. Using a skill asks once: the question shows its name, server,
// description and every file, and the answer is kept bound to exactly those files (each URI with its
// digest); while the server lists the same files the skill is used without asking, and once it lists
// others the approval no longer holds and the next use asks again, showing what changed. Its
// `allowed-tools` grants nothing unless the person ticks that too, and only tools of the skill's own
// server. A read a skill in use drives on another server asks every time, naming both servers.

import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { ToolSummary } from '../../../../../shared/domain.ts';
import type { PendingRequests } from '../../../../host/pendingRequests.ts';
import { outcomeChecker } from '../../../../host/pendingOutcomes.ts';
import { skillAnswerSchema } from '../contract/skillViews.ts';
import type { AskedTool, SkillAnswer, SkillQuestion, SkillRef, SkillSummary } from '../contract/skillViews.ts';
import type { SkillApprovalStore } from '../store/skillApprovalStore.ts';
import { approvalHolds, approvedFilesOf, changeSince } from './skillEntries.ts';

export interface SkillConsentDeps {
  pending: Pick<PendingRequests, 'request'>;
  approvals: SkillApprovalStore;
  /** A server's tools as the catalog lists them: what its skills' `allowed-tools` may name. */
  toolsOf(serverId: string): readonly ToolSummary[];
  /** The person's approvals of a server's skills changed. */
  onApprovalsChanged(serverId: string): void;
}

export type ConsentAnswer = { allowed: true; toolsGranted: string[]; asked: boolean } | { allowed: false };

export interface SkillConsent {
  /** Whether the person lets the skill be used as listed now, asking when no approval holds. */
  toUse(request: { summary: SkillSummary; skill: Skill; by: 'model' | 'person'; conversationId?: string; signal?: AbortSignal }): Promise<ConsentAnswer>;
  /** Whether the person lets a skill in use read a file on another server; asked every time. */
  toReadElsewhere(request: { skill: SkillRef & { name: string }; target: SkillRef; conversationId: string; signal?: AbortSignal }): Promise<boolean>;
}

export function createSkillConsent(deps: SkillConsentDeps): SkillConsent {
  const check = outcomeChecker(skillAnswerSchema, 'skill');
  const ask = (serverId: string, payload: SkillQuestion, conversationId: string | undefined, signal: AbortSignal | undefined) =>
    deps.pending.request<'skill', SkillAnswer>('skill', serverId, payload, { check, ...(conversationId ? { conversationId } : {}), ...(signal ? { signal } : {}) });
  return {
    toUse: async ({ summary, skill, by, conversationId, signal }) => {
      const { serverId, uri } = summary;
      const approval = deps.approvals.get(serverId, uri);
      if (approval && approvalHolds(approval, skill)) return { allowed: true, toolsGranted: approval.toolsGranted, asked: false };
      const askedTools = toolsAskedFor(summary.allowedTools, deps.toolsOf(serverId));
      const change = approval ? changeSince(approval.files, skill) : undefined;
      const answer = await ask(serverId, { question: 'use', skill: summary, by, askedTools, ...(change ? { change } : {}) }, conversationId, signal);
      if (answer.effect !== 'allow') return { allowed: false };
      const toolsGranted = answer.grantTools === true ? askedTools.flatMap((asked) => (asked.tool ? [asked.tool] : [])) : [];
      deps.approvals.approve(serverId, uri, approvedFilesOf(skill), toolsGranted);
      deps.onApprovalsChanged(serverId);
      return { allowed: true, toolsGranted, asked: true };
    },
    toReadElsewhere: async ({ skill, target, conversationId, signal }) => {
      const answer = await ask(target.serverId, { question: 'read-elsewhere', skill, target }, conversationId, signal);
      return answer.effect === 'allow';
    },
  };
}

/**
 * The tools a skill's `allowed-tools` names, each with the tool of the skill's own server it stands for
 * (by its name or the model's name for it). A name Atrium has no tool for (a host tool of another
 * program, another server's tool) stands for nothing: it can grant nothing.
 */
export function toolsAskedFor(allowed: readonly string[], tools: readonly ToolSummary[]): AskedTool[] {
  return allowed.map((asked) => {
    const tool = tools.find((candidate) => candidate.name === asked || candidate.modelName === asked);
    return tool ? { asked, tool: tool.name } : { asked };
  });
}
