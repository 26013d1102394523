import type { ToolApprovalAnswer, ToolApprovalPayload, ToolReach, UntrustedSource } from './pendingPayloads.ts';
import { counted } from './counted.ts';
import { effectiveHints } from './toolHints.ts';

/**
 * What a lasting answer to a tool approval reaches, said before the person chooses it: which tools it
 * covers, and what becomes of it once a conversation holds content Atrium does not trust. In shared/, so
 * the window and the terminal say the same. Names in it come from the server: show them as untrusted text.
 */

export type LastingTarget = ToolApprovalAnswer['target'];

/** Targets worth offering for this question: the server's read-only tools only when this tool is one of them. */
export function lastingTargets(payload: Pick<ToolApprovalPayload, 'tool' | 'serverTools'>): LastingTarget[] {
  const thisTool = payload.serverTools.find((tool) => tool.name === payload.tool.name);
  return thisTool?.readOnly ? ['tool', 'read-only-tools', 'server'] : ['tool', 'server'];
}

/** The tools a server-wide target covers, as the server lists them now. */
export function coveredTools(payload: { serverTools: readonly ToolReach[] }, target: Exclude<LastingTarget, 'tool'>): readonly ToolReach[] {
  return target === 'read-only-tools' ? payload.serverTools.filter((tool) => tool.readOnly) : payload.serverTools;
}

type ReachPayload = Pick<ToolApprovalPayload, 'tool' | 'serverTools' | 'keepsAfterUntrusted' | 'annotationsTrusted' | 'fromView'>;

/**
 * Whether "Allow in this conversation" would reach further than this one call. Not for a tool that gives
 * way to untrusted content when what it returns is such content (its server is not trusted, or it reads
 * from beyond the computer): the model's next call would ask again, so the answer is not offered. A
 * view's own calls are not held back by untrusted content, so for a view it lasts.
 */
export function conversationAnswerOutlastsCall(payload: ReachPayload, target: LastingTarget): boolean {
  return target !== 'tool' || payload.fromView !== undefined || payload.keepsAfterUntrusted || !ownResultIsUntrusted(payload);
}

/** "Allow in this conversation" and "Always allow", for this target: what they cover and when they give way. */
export function lastingAllowReach(payload: ReachPayload, target: LastingTarget): string {
  const { serverId, name } = payload.tool;
  if (target !== 'tool') return serverWideReach({ serverId, serverTools: payload.serverTools, trusted: payload.annotationsTrusted }, target);
  if (payload.keepsAfterUntrusted) {
    return `Allowing ${name} lasts, also once the conversation holds content Atrium does not trust: ${name} declares it deletes nothing and stays on this computer.${takesItsWord(serverId, payload.annotationsTrusted)}`;
  }
  const because = `because it ${risk(payload.tool.annotations)}`;
  if (payload.fromView) {
    return `Allowing ${name} lasts for its view’s calls, whatever the conversation holds. The model’s calls of ${name} ask every time in a conversation that holds content Atrium does not trust, ${because}.`;
  }
  if (ownResultIsUntrusted(payload)) {
    const whose = payload.annotationsTrusted ? 'what it read from beyond this computer' : `${serverId}’s own text`;
    return `Once a conversation holds content Atrium does not trust, ${name} asks there every time, ${because}; what ${name} returns counts too, as ${whose}. So “Always allow” spares you only its first call in each conversation, and an answer for this conversation alone would reach no further than this call.`;
  }
  return `Allowing ${name} lasts until a conversation holds content Atrium does not trust (from a server you do not trust, or a tool that reads the web); from then on ${name} asks every time in that conversation, ${because}.`;
}

function ownResultIsUntrusted(payload: ReachPayload): boolean {
  return !payload.annotationsTrusted || effectiveHints(payload.tool.annotations).openWorld;
}

/** What an allow for the server's read-only tools, or for every tool, covers now and when each gives way. */
export function serverWideReach(server: { serverId: string; serverTools: readonly ToolReach[]; trusted: boolean }, target: Exclude<LastingTarget, 'tool'>): string {
  const covered = coveredTools(server, target);
  const giving = covered.filter((tool) => !tool.keepsAfterUntrusted).map((tool) => tool.name);
  const one = covered.length === 1;
  const tools = one ? 'the tool' : `the ${counted(covered.length, 'tool')}`;
  const what = target === 'read-only-tools' ? `${tools} ${server.serverId} marks read-only now (${names(covered.map((t) => t.name))})` : `${tools} ${server.serverId} lists now`;
  const untrusted = 'once a conversation holds content Atrium does not trust';
  const after =
    giving.length === 0
      ? `${one ? 'it keeps' : 'they keep'} it also ${untrusted}, as ${one ? 'it declares' : 'each declares'} it deletes nothing and stays on this computer`
      : giving.length === covered.length
        ? `${untrusted}, ${one ? 'it asks every time there, as it' : 'each asks every time there, as each'} may delete things or reach beyond this computer`
        : `${untrusted}, those that may delete things or reach beyond this computer (${names(giving)}) ask every time there`;
  return `This covers ${what}; ${after}. A tool it adds or changes later asks first.${giving.length < covered.length ? takesItsWord(server.serverId, server.trusted) : ''}`;
}

/** An answer that outlasts untrusted content does so on what a tool declares: of a server that is not trusted, only its word. */
function takesItsWord(serverId: string, trusted: boolean): string {
  return trusted ? '' : ` That is only what ${serverId} says: your answer takes its word.`;
}

/** The content, in the person's words: "what web/fetch returned (a tool that reads from beyond this computer)". */
export function untrustedSourceText(source: UntrustedSource): string {
  // A skill is instructions for the model by design: it is never trusted, whoever serves it.
  if (source.kind === 'skill') return `the skill “${source.name}” of ${source.serverId} (skills are not trusted, whoever serves them)`;
  const what =
    source.kind === 'tool'
      ? `what ${source.serverId}/${source.name} returned`
      : source.kind === 'resource'
        ? `the resource ${source.name} of ${source.serverId}`
        : source.kind === 'prompt'
          ? `the prompt “${source.name}” of ${source.serverId}`
          : `what the view of ${source.serverId}/${source.name} reported`;
  return `${what} (${source.why === 'untrusted' ? 'a server you do not trust' : 'a tool that reads from beyond this computer'})`;
}

/** Said when the conversation holds untrusted content that does not raise the bar for this tool. */
export function untrustedContentNote(source: UntrustedSource, toolName: string): string {
  return `This conversation holds ${untrustedSourceText(source)}. ${toolName} declares it deletes nothing and stays on this computer, so what you allow for it holds here too.`;
}

function risk(annotations: ToolApprovalPayload['tool']['annotations']): string {
  const declaresNothing = annotations === undefined || Object.values(annotations).every((hint) => hint === undefined);
  if (declaresNothing) return 'declares nothing, so it may delete things and reach beyond this computer';
  const { destructive: deletes, openWorld: reaches } = effectiveHints(annotations);
  if (deletes && reaches) return 'may delete things and reach beyond this computer';
  return deletes ? 'may delete things' : 'reaches beyond this computer, where it could send what the conversation holds';
}


/** Up to five names, then how many more. */
function names(list: readonly string[]): string {
  const shown = list.slice(0, 5).join(', ');
  return list.length > 5 ? `${shown} and ${list.length - 5} more` : shown;
}
