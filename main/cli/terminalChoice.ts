// A question on the terminal that offers a few answers, each with a key ("Use it? [y] yes, [n] no: "). The
// prompt is made from its answers, so what it lists and what it takes are one list. One reading of the
// reply for every such question, so that a slip is never taken for an answer: the key as listed, the key
// in the other case when no other answer has that letter, or the answer's label or one of its words
// ("yes", "always"). Anything else is said back and the question asked again; an empty reply (Enter alone,
// or Ctrl+D) is the question's safe answer.

import { visible } from './formatOutput.ts';

/** One answer a question offers: its key and label, as the prompt lists them, and more words that name it. */
export interface Choice<T> {
  key: string;
  label: string;
  words?: readonly string[];
  value: T;
}

/** A yes or a no, for the questions that offer only those. */
export const YES_OR_NO: readonly [Choice<true>, Choice<false>] = [
  { key: 'y', label: 'yes', value: true },
  { key: 'n', label: 'no', value: false },
];

/** The prompt that lists `choices` after `lead` ("  Use it?"). */
export function choicePrompt(lead: string, choices: readonly Choice<unknown>[]): string {
  return `${lead} ${choices.map((choice) => `[${choice.key}] ${choice.label}`).join(', ')}: `;
}

/** Asks `lead` with its `choices` until the reply names one of them; an empty reply is `safe`. */
export async function askChoice<T>(ask: (question: string) => Promise<string>, err: (text: string) => void, lead: string, choices: readonly Choice<T>[], safe: T): Promise<T> {
  const question = choicePrompt(lead, choices);
  for (;;) {
    const reply = (await ask(question)).trim();
    if (reply === '') return safe;
    const chosen = choiceNamed(reply, choices);
    if (chosen) return chosen.value;
    err(`  “${visible(reply)}” is not one of the answers: type ${orList(choices.map((choice) => choice.key))}, or press Enter for ${choices.find((choice) => choice.value === safe)?.label ?? 'no'}.`);
  }
}

/** The answer `reply` names, if exactly one does. */
export function choiceNamed<T>(reply: string, choices: readonly Choice<T>[]): Choice<T> | undefined {
  const exact = choices.find((choice) => choice.key === reply);
  if (exact) return exact;
  const lower = reply.toLowerCase();
  const byLetter = choices.filter((choice) => choice.key.toLowerCase() === lower);
  if (byLetter.length === 1) return byLetter[0];
  const byWord = choices.filter((choice) => [choice.label, ...(choice.words ?? [])].some((word) => word.toLowerCase() === lower));
  return byWord.length === 1 ? byWord[0] : undefined;
}

function orList(keys: readonly string[]): string {
  return keys.length < 2 ? keys.join('') : `${keys.slice(0, -1).join(', ')} or ${keys[keys.length - 1]}`;
}
