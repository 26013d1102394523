// How tool calls and servers' sampling requests are approved: the person's choice saved in Settings
// (providers.json "approvals"), unless this run was started with its own (the CLI's --approve and
// --sampling), else the defaults. Read on every call, so a choice saved in the window applies to the next
// call without restarting the host.

import type { ApprovalChoices, SamplingChoice } from '../../../shared/contract.ts';
import type { SamplingPolicy } from '../sampling/samplingBroker.ts';
import type { ApprovalMode } from './grantLedger.ts';

export interface ApprovalRunOptions {
  /** This run's tool-call mode (the CLI's --approve): it wins over the saved choice. */
  approvalMode?: ApprovalMode;
  /** This run's sampling policy (the CLI's --sampling): it wins over the saved choice. */
  samplingPolicy?: SamplingPolicy;
  /**
   * Sampling when nothing was saved: 'ask' where a person is at a window to answer, 'deny' (the default)
   * where nobody may be.
   */
  samplingDefault?: SamplingChoice;
}

export interface LiveApprovals {
  /** The saved choices, with the defaults where none was saved: what Settings shows. */
  choices(): ApprovalChoices;
  /** The mode the next tool call is decided under. */
  toolMode(): ApprovalMode;
  /** The policy the next sampling request is answered under. */
  samplingPolicy(): SamplingPolicy;
}

/** `settings` reads the saved settings as they are now (the settings store's snapshot). */
export function liveApprovals(settings: () => { approvals?: Partial<ApprovalChoices> }, run: ApprovalRunOptions = {}): LiveApprovals {
  const choices = (): ApprovalChoices => ({
    tools: settings().approvals?.tools ?? 'ask',
    sampling: settings().approvals?.sampling ?? run.samplingDefault ?? 'deny',
  });
  return {
    choices,
    toolMode: () => run.approvalMode ?? choices().tools,
    samplingPolicy: () => run.samplingPolicy ?? choices().sampling,
  };
}
