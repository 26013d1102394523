// The check of a prompt's arguments against those its server declares (prompts/list), made before the
// prompt is asked for — by `atrium prompt` and by the window's slash commands alike — as a tool's
// arguments are checked against its schema: every problem at once, each naming its argument with the
// server's description of it, instead of the server's own error (often a schema path) after the fact.
import type { Prompt } from '@modelcontextprotocol/client';
import { nearestWord } from '../../shared/nearestWord.ts';
import type { ArgumentProblem } from '../chat/turnTools.ts';

/** Each argument missing or not the prompt's, in the order it declares them (others last); undefined when none is. */
export function promptArgumentProblems(declared: Prompt['arguments'], given: Readonly<Record<string, string>>): ArgumentProblem[] | undefined {
  const known = (declared ?? []).map((argument) => argument.name);
  const problems: ArgumentProblem[] = [];
  for (const argument of declared ?? []) {
    if (argument.required === true && (given[argument.name] ?? '').trim() === '') {
      problems.push({ field: argument.name, message: `${argument.name} is required`, ...(argument.description?.trim() ? { description: argument.description } : {}) });
    }
  }
  for (const name of Object.keys(given)) {
    if (known.includes(name)) continue;
    const meant = nearestWord(name, known);
    const takes = known.length === 0 ? 'it takes none' : meant ? `did you mean ${meant}?` : `it takes ${known.join(', ')}`;
    problems.push({ field: name, message: `${name} is not an argument of this prompt (${takes})` });
  }
  return problems.length > 0 ? problems : undefined;
}
