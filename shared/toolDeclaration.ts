import type { ToolAnnotationsView } from './domain.ts';

/**
 * What a tool says about itself, as one sentence in the person's words: "add declares that it only
 * reads and stays on this computer." A hint the tool leaves out is read as the specification's
 * cautious default, and a tool that declares nothing is said to be assumed the worst. In shared/, so
 * every front end words it the same way.
 */
export function toolDeclaration(toolName: string, annotations: ToolAnnotationsView | undefined): string {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations ?? {};
  if ([readOnlyHint, destructiveHint, idempotentHint, openWorldHint].every((hint) => hint === undefined)) {
    return `${toolName} declares nothing about what it does, so Atrium assumes it may change or delete things and reach beyond this computer.`;
  }
  const effects = readOnlyHint
    ? ['only reads']
    : [destructiveHint === false ? 'changes things but deletes nothing' : 'may change or delete things', ...(idempotentHint ? ['can be repeated safely'] : [])];
  const reach = openWorldHint === false ? 'stays on this computer' : 'reaches beyond this computer';
  return `${toolName} declares that it ${[...effects, reach].join(', ').replace(/, ([^,]*)$/, ' and $1')}.`;
}
