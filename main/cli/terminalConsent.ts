// The CLI's stand-in for the consent dialogs: each pending request (a tool approval, a server's
// elicitation or sampling request, a skill's question) is put to the person on the terminal, one at a time, and settled
// through the same typed API the renderer uses. Without a terminal nothing is run that needed the person:
// a tool call is not made (the model is told no one could be asked), an elicitation is declined, a
// sampling request rejected, and the person is told how to decide up front. A request that ends while
// its question is on the terminal (its time limit) takes the question back. Everything a server sent is
// shown through `visible`, so it cannot rewrite the terminal.

import type { PendingRequestView } from '../../shared/pendingPayloads.ts';
import type { AtriumApi } from '../../shared/contract.ts';
import type { ElicitationPayload, PendingAnswer, PendingOf, SamplingRequestPayload, SamplingResultPayload, ToolApprovalAnswer, ToolApprovalPayload } from '../../shared/pendingPayloads.ts';
import { conversationAnswerOutlastsCall, lastingAllowReach, lastingTargets, untrustedContentNote } from '../../shared/approvalReach.ts';
import { toolDeclaration } from '../../shared/toolDeclaration.ts';
import { visible } from './formatOutput.ts';
import { askForm } from './terminalForm.ts';
import { askChoice, YES_OR_NO } from './terminalChoice.ts';
import type { Choice } from './terminalChoice.ts';

export interface ConsentIo {
  out(text: string): void;
  err(text: string): void;
  /** Asks on the terminal; the signal takes the question back (its request ended unanswered). */
  ask?(question: string, signal?: AbortSignal): Promise<string>;
}

type Respond = AtriumApi['respondPending'];

export interface ConsentHost {
  respond: Respond;
  /** Closes a request unanswered, saying why; the host tells the model it was not made, not that it was denied. */
  withdraw(id: string, reason: string): void;
}

export interface TerminalConsent {
  opened(record: PendingRequestView): void;
  /** A request closed elsewhere (its time limit, its server gone): a question still on the terminal is taken back. */
  closed(event: { id: string; how: 'settled' | 'withdrawn'; reason?: string }): void;
}

/** Why a call that needs approval was not made when there is nobody at a terminal. */
const NOBODY_TO_ASK = "it needs the person's approval, and no one could be asked (Atrium ran without a terminal)";

/** Settles pending requests one after another: two questions never interleave on the terminal. */
export function terminalConsent(host: ConsentHost, io: ConsentIo): TerminalConsent {
  let queue = Promise.resolve();
  const open = new Map<string, AbortController>();
  return {
    opened: (record) => {
      const controller = new AbortController();
      open.set(record.id, controller);
      queue = queue
        .then(() => (controller.signal.aborted ? undefined : settle(host, io, record, controller.signal)))
        .catch((error: Error) => {
          // The question was taken back (its request ended, or Ctrl+C ended the command): the reason is the caller's to tell.
          if (controller.signal.aborted || error.name === 'AbortError') return;
          io.err(`atrium: ${error.message}`);
        })
        .finally(() => open.delete(record.id));
    },
    closed: ({ id, how, reason }) => {
      if (how === 'withdrawn') open.get(id)?.abort(new Error(reason ?? 'the request ended'));
    },
  };
}

async function settle(host: ConsentHost, io: ConsentIo, record: PendingRequestView, signal: AbortSignal): Promise<void> {
  const { respond } = host;
  const server = visible(record.serverId);
  const terminal = io.ask;
  const ask = terminal ? (question: string) => terminal(question, signal) : undefined;
  if (record.kind === 'tool_approval') {
    const { payload } = record;
    if (!ask) {
      io.err(`atrium: ${visible(payload.tool.serverId)}/${visible(payload.tool.name)} needs your approval, but there is no terminal to ask on; it was not run (use --approve readonly|all|none to decide up front)`);
      host.withdraw(record.id, NOBODY_TO_ASK);
      return;
    }
    return settleApproval(respond, io, ask, record, payload);
  }
  if (record.kind === 'elicitation') {
    const { payload } = record;
    if (!ask) {
      io.err(`atrium: ${server} asked for your input, but there is no terminal to ask on; it was declined (use --elicit to answer up front)`);
      return send(respond, record, { action: 'decline' });
    }
    return payload.mode === 'url' ? settleUrl(respond, io, ask, record, payload) : settleForm(respond, io, ask, record, payload);
  }
  if (record.kind === 'skill') {
    if (!ask) {
      io.err(`atrium: ${server}'s skill needs your approval, but there is no terminal to ask on; it was not used`);
      host.withdraw(record.id, NOBODY_TO_ASK);
      return;
    }
    return settleSkill(respond, io, ask, record);
  }
  const { payload } = record;
  if (!ask) {
    io.err(`atrium: ${server} asked to use your model, but there is no terminal to ask on; it was rejected`);
    return send(respond, record, { action: 'reject' });
  }
  return payload.stage === 'request' ? settleSampling(respond, io, ask, record, payload) : settleSampledReply(respond, io, ask, record, payload);
}

/** A skill asks to be used (once for its files as they are), or one in use asks to read a file on another server. */
async function settleSkill(respond: Respond, io: ConsentIo, ask: Ask, record: PendingOf<'skill'>): Promise<void> {
  const { payload } = record;
  if (payload.question === 'read-elsewhere') {
    const { skill, target } = payload;
    io.out(`\n⚠ the skill “${visible(skill.name)}” of ${visible(skill.serverId)} (in use) asks to read ${visible(target.uri)} on another server, ${visible(target.serverId)}`);
    const allowed = await askChoice(ask, io.err, '  Allow this one read?', YES_OR_NO, false);
    return send(respond, record, { effect: allowed ? 'allow' : 'deny' });
  }
  const { skill, by, change, askedTools } = payload;
  io.out(`\n${by === 'person' ? 'you picked' : 'the model asks to use'} the skill “${visible(skill.name)}” of ${visible(skill.serverId)} (${visible(skill.uri)})`);
  io.out(`  ${visible(skill.description)}`);
  if (skill.files !== 'dynamic') io.out(`  its files: ${skill.files.map((file) => `${visible(file.path)} (${file.size.toLocaleString('en')} bytes)`).join(', ')}`);
  if (change) io.out(`  changed since you approved it: ${[...change.added.map((p) => `added ${visible(p)}`), ...change.removed.map((p) => `removed ${visible(p)}`), ...change.changed.map((p) => `changed ${visible(p)}`)].join(', ')}`);
  io.out(`  its text reaches the model as ${visible(skill.serverId)}'s content; Atrium asks again when any of its files changes`);
  const grantable = askedTools.filter((asked) => asked.tool !== undefined);
  if (askedTools.length > 0) io.out(`  its allowed-tools asks to run without asking: ${askedTools.map((asked) => (asked.tool ? visible(asked.tool) : `${visible(asked.asked)} (no such tool here: nothing granted)`)).join(', ')}`);
  const choices: Choice<'yes' | 'tools' | 'no'>[] = [
    { key: 'y', label: 'yes', value: 'yes' },
    ...(grantable.length > 0 ? [{ key: 't', label: 'yes and let those tools run without asking', words: ['tools'], value: 'tools' } as const] : []),
    { key: 'n', label: 'no', value: 'no' },
  ];
  const reply = await askChoice(ask, io.err, '  Use it?', choices, 'no');
  await send(respond, record, reply === 'no' ? { effect: 'deny' } : { effect: 'allow', grantTools: reply === 'tools' });
}

/** Settles; a record withdrawn meanwhile (the turn was cancelled) has nothing left to settle. */
async function send(respond: Respond, record: PendingRequestView, outcome: PendingAnswer): Promise<void> {
  await respond({ id: record.id, outcome }).catch(() => undefined);
}

async function settleApproval(respond: Respond, io: ConsentIo, ask: Ask, record: PendingRequestView, payload: ToolApprovalPayload): Promise<void> {
  const { tool, arguments: args, elevated, reason, raisedBy, untrustedContent, fromView, alongside = [] } = payload;
  const asker = fromView ? `the view of ${visible(fromView.serverId)}/${visible(fromView.tool)} asks for ` : '';
  io.out(`\n${elevated || raisedBy ? '⚠ ' : ''}${asker}${visible(tool.serverId)}/${visible(tool.name)} ${fromView ? 'to run' : 'wants to run'} with ${visible(JSON.stringify(args))}`);
  // What the tool declares, then why Atrium asks, each said once: the reason says when the server is
  // not trusted (which is why its declaration is not believed).
  io.out(`  ${visible(toolDeclaration(tool.name, tool.annotations))}`);
  io.out(`  Atrium asks because ${visible(reason)}.`);
  if (untrustedContent && !raisedBy) io.out(`  ${visible(untrustedContentNote(untrustedContent, tool.name))}`);
  if (alongside.length > 0) {
    io.out(`  The model asks for ${alongside.length} more call${alongside.length === 1 ? '' : 's'} in this step:`);
    alongside.forEach((call, index) => io.out(`    ${index + 1}. ${visible(call.tool.serverId)}/${visible(call.tool.name)} with ${visible(JSON.stringify(call.arguments))}${call.raised ? ' (asks every time here)' : ''}`));
  }
  const choices = offeredAnswers(payload);
  // What a lasting answer reaches is said before it is chosen; after untrusted content only this once can be allowed.
  const lasting = choices.some((choice) => choice.key === 'c') ? '[c] and [a]' : '[a]';
  io.out(raisedBy ? '  In this conversation it asks every time: allow it only if this call is what you asked for.' : `  ${lasting}: ${visible(lastingAllowReach(payload, 'tool'))}`);
  if (choices.some((choice) => choice.key === 'r')) io.out(`  [r]: ${visible(lastingAllowReach(payload, 'read-only-tools'))}`);
  await send(respond, record, await askChoice(ask, io.err, '  Allow?', choices, DENY_ONCE));
}

const DENY_ONCE: ToolApprovalAnswer = { effect: 'deny', scope: 'once', target: 'tool' };

/** The answers this question offers, in the order they are listed; Enter alone is a no. */
function offeredAnswers(payload: ToolApprovalPayload): Choice<ToolApprovalAnswer>[] {
  const { raisedBy, alongside = [] } = payload;
  const all = alongside.length + 1;
  const readOnlyTools = payload.serverTools.filter((tool) => tool.readOnly).length;
  return [
    { key: 'y', label: 'once', words: ['yes'], value: { effect: 'allow', scope: 'once', target: 'tool' } },
    ...(alongside.length > 0 ? [{ key: 's', label: `these ${all} calls`, value: { effect: 'allow', scope: 'step', target: 'tool' } } as const] : []),
    ...(raisedBy
      ? []
      : ([
          ...(conversationAnswerOutlastsCall(payload, 'tool') ? [{ key: 'c', label: 'this conversation', value: { effect: 'allow', scope: 'conversation', target: 'tool' } } as const] : []),
          { key: 'a', label: 'always', value: { effect: 'allow', scope: 'always', target: 'tool' } },
          ...(lastingTargets(payload).includes('read-only-tools')
            ? [{ key: 'r', label: `its ${readOnlyTools} read-only tool${readOnlyTools === 1 ? '' : 's'} always`, value: { effect: 'allow', scope: 'always', target: 'read-only-tools' } } as const]
            : []),
        ] as const)),
    { key: 'n', label: 'no', value: DENY_ONCE },
    ...(alongside.length > 0 ? [{ key: 'S', label: `none of the ${all}`, words: ['none'], value: { effect: 'deny', scope: 'step', target: 'tool' } } as const] : []),
    { key: 'N', label: 'never', value: { effect: 'deny', scope: 'always', target: 'tool' } },
  ];
}

type Ask = (question: string) => Promise<string>;

const CANCEL: Choice<'cancel'> = { key: 'c', label: 'cancel', value: 'cancel' };

async function settleUrl(respond: Respond, io: ConsentIo, ask: Ask, record: PendingRequestView, payload: Extract<ElicitationPayload, { mode: 'url' }>): Promise<void> {
  io.out(`\n${visible(record.serverId)} asks you to open a web page: ${visible(payload.message)}`);
  io.out(`  address: ${visible(payload.url)}`);
  io.out(`  domain:  ${visible(payload.domain)}   ← where it really goes`);
  const action = await askChoice(ask, io.err, '  Open it?', [{ key: 'y', label: 'yes', value: 'accept' as const }, { key: 'n', label: 'decline', words: ['no'], value: 'decline' as const }, CANCEL], 'decline');
  await send(respond, record, { action });
}

async function settleForm(respond: Respond, io: ConsentIo, ask: Ask, record: PendingRequestView, payload: Extract<ElicitationPayload, { mode: 'form' }>): Promise<void> {
  io.out(`\n${visible(record.serverId)} asks: ${visible(payload.message)}`);
  if (payload.asksForSecrets) io.out('  ⚠ this form seems to ask for a password or key; servers must not ask for secrets this way');
  const action = await askChoice(ask, io.err, '  Answer?', [{ key: 'y', label: 'fill in', words: ['yes'], value: 'accept' as const }, { key: 'd', label: 'decline', words: ['no'], value: 'decline' as const }, CANCEL], 'decline');
  if (action !== 'accept') return send(respond, record, { action });
  const content = await askForm(payload.fields, payload.requestedSchema, { ask, err: io.err });
  if (content === undefined) {
    io.err('atrium: the form was declined: a field got no answer that fits it');
    return send(respond, record, { action: 'decline' });
  }
  await respond({ id: record.id, outcome: { action: 'accept', content } });
}

async function settleSampling(respond: Respond, io: ConsentIo, ask: Ask, record: PendingRequestView, payload: SamplingRequestPayload): Promise<void> {
  io.out(`\n${visible(record.serverId)} asks to use your model ${visible(payload.model)} (${visible(payload.why)}), up to ${payload.maxTokens} tokens`);
  if (payload.systemPrompt) io.out(`  system: ${visible(payload.systemPrompt)}`);
  for (const message of payload.messages) io.out(`  ${message.role}: ${visible(message.text)}${message.attachments.length ? ` [${message.attachments.map(visible).join(', ')}]` : ''}`);
  const wantsContext = payload.includeContext !== 'none' && payload.contextAvailable;
  if (wantsContext) io.out(`  it also asks for context from ${payload.includeContext === 'thisServer' ? "this server's tool results" : 'the whole conversation'}`);
  const choices: Choice<'approve' | 'share' | 'reject'>[] = [
    { key: 'y', label: 'yes', value: 'approve' },
    ...(wantsContext ? [{ key: 's', label: 'yes and share the context', words: ['share'], value: 'share' } as const] : []),
    { key: 'n', label: 'reject', words: ['no'], value: 'reject' },
  ];
  const reply = await askChoice(ask, io.err, '  Run it?', choices, 'reject');
  if (reply === 'reject') return send(respond, record, { action: 'reject' });
  await send(respond, record, { action: 'approve', ...(reply === 'share' ? { shareContext: true } : {}) });
}

async function settleSampledReply(respond: Respond, io: ConsentIo, ask: Ask, record: PendingRequestView, payload: SamplingResultPayload): Promise<void> {
  io.out(`\n${visible(payload.model)} replied for ${visible(record.serverId)}:\n  ${visible(payload.text)}`);
  const sent = await askChoice(ask, io.err, '  Send this reply to the server?', [YES_OR_NO[0], { key: 'n', label: 'withhold', words: ['no'], value: false }], false);
  await send(respond, record, { action: sent ? 'send' : 'reject' });
}
