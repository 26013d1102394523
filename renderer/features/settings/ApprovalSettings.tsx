import { useEffect, useState } from 'react';
import type { ApprovalChoices, SamplingChoice, ToolApprovalChoice } from '../../../shared/contract.ts';
import { RadioChoices } from '../../ui/RadioChoices.tsx';

const TOOL_CHOICES = [
  { value: 'ask', label: 'Ask unless a trusted server marks the tool read-only (recommended)' },
  { value: 'ask-every', label: 'Ask for every tool call' },
  { value: 'none', label: 'Deny every tool call' },
] as const satisfies readonly { value: ToolApprovalChoice; label: string }[];

const SAMPLING_CHOICES = [
  { value: 'ask', label: 'Ask each time' },
  { value: 'deny', label: 'Refuse every request' },
] as const satisfies readonly { value: SamplingChoice; label: string }[];

const TOOLS_SAVED: Record<ToolApprovalChoice, string> = {
  ask: 'Tool calls ask unless a trusted server marks them read-only',
  'ask-every': 'Every tool call asks you first',
  none: 'Every tool call is denied',
};

const SAMPLING_SAVED: Record<SamplingChoice, string> = {
  ask: 'Sampling requests ask you each time',
  deny: 'Sampling requests are refused',
};

/**
 * How tool calls and servers' sampling requests are approved. A choice shows at once and is saved by the
 * host, which applies it to the next call; if saving fails, the saved choice shows again.
 */
export function ApprovalSettings({ saved, onSave }: { saved: ApprovalChoices; onSave(change: Partial<ApprovalChoices>, done: string): Promise<boolean> }) {
  const [choosing, setChoosing] = useState<Partial<ApprovalChoices>>({});
  const shown = { ...saved, ...choosing };
  // A choice stays shown until the host's settings say it: the answer to the save can come before the
  // settings' change, and letting go of the choice then showed the old one for a moment.
  useEffect(() => {
    setChoosing((now) => {
      const pending = Object.entries(now).filter(([key, value]) => saved[key as keyof ApprovalChoices] !== value);
      return pending.length === Object.keys(now).length ? now : Object.fromEntries(pending);
    });
  }, [saved]);
  const choose = async (change: Partial<ApprovalChoices>, done: string) => {
    setChoosing((before) => ({ ...before, ...change }));
    // Not saved: the saved choice shows again (a later choice made meanwhile stays shown).
    if (!(await onSave(change, done))) setChoosing((now) => Object.fromEntries(Object.entries(now).filter(([key, value]) => change[key as keyof ApprovalChoices] !== value)));
  };
  return (
    <>
      <RadioChoices legend="Tool calls" name="approval-tools" choices={TOOL_CHOICES} value={shown.tools} onChange={(tools) => void choose({ tools }, TOOLS_SAVED[tools])}>
        <p className="muted">
          What you told Atrium to always allow or always deny — for a tool, a server’s read-only tools or every tool — still decides first (set or revoke these rules in
          Servers › Permissions). Once a conversation holds content Atrium does not trust (from a server you do not trust, or a tool that reads the web), a tool that may
          delete things or reach beyond this computer asks there every time, whatever was allowed; a tool that declares it deletes nothing and stays on this computer keeps
          your answer.
        </p>
        <p className="muted">
          Allowing every call without asking is not offered: a model misled by what a tool returned could then make any server act, with nobody checking. Only a
          single unattended run from the command line can allow every call, for that run alone.
        </p>
      </RadioChoices>
      <RadioChoices legend="Sampling requests from servers" name="approval-sampling" choices={SAMPLING_CHOICES} value={shown.sampling} onChange={(sampling) => void choose({ sampling }, SAMPLING_SAVED[sampling])}>
        <p className="muted">A server may ask to use your model. When you are asked, you see each request, and the reply before it goes back.</p>
      </RadioChoices>
    </>
  );
}
