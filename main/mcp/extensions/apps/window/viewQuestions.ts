// What a view asks the person in its card — to send a message, open a link, save files, fill the window
// or float — and the rule that it asks one thing at a time. A view that asks again while a question is
// open is refused at once (it hears so): never queued, so it cannot line thirty confirmations up behind
// each other, and never swapped in, so what the person reads is what they answer. (Its tool calls have
// the same rule, kept by the host: one approval question per view.)
import type { OfferedAddress } from '../../../../../shared/offeredAddress.ts';
import type { FileToSave } from './viewDownloads.ts';

export type ViewQuestion =
  | { kind: 'message'; text: string }
  | { kind: 'link'; address: OfferedAddress }
  | { kind: 'download'; files: readonly FileToSave[] }
  | { kind: 'display'; mode: 'fullscreen' | 'pip' };

/** A question as shown: its id says which one a click answers. */
export interface OpenQuestion {
  id: number;
  question: Readonly<ViewQuestion>;
}

/** Why a view's question was not put to the person, as the view hears it. */
export const ONE_QUESTION_AT_A_TIME = 'The view already has a question waiting for the person; ask again once it is answered.';

export class ViewQuestions {
  private open: (OpenQuestion & { settle(yes: boolean): void }) | undefined;
  private nextId = 1;
  private closed = false;
  private readonly onchange: (open: OpenQuestion | null) => void;

  /** `onchange` is told each question as it opens, and null once it is answered. */
  constructor(onchange: (open: OpenQuestion | null) => void) {
    this.onchange = onchange;
  }

  /** The person's answer (true: yes); undefined when a question is already open, or the view is gone. */
  ask(question: ViewQuestion): Promise<boolean> | undefined {
    if (this.open || this.closed) return undefined;
    return new Promise<boolean>((settle) => {
      // Frozen as shown: nothing changes what the person reads once it is in front of them.
      this.open = { id: this.nextId++, question: Object.freeze({ ...question }), settle };
      this.onchange({ id: this.open.id, question: this.open.question });
    });
  }

  /** The person answered question `id`; a click on a question that is no longer open does nothing. */
  answer(id: number, yes: boolean): void {
    if (this.open?.id !== id) return;
    const { settle } = this.open;
    this.open = undefined;
    this.onchange(null);
    settle(yes);
  }

  /** The view went away: an open question is answered no, and no other is asked. */
  close(): void {
    this.closed = true;
    if (this.open) this.answer(this.open.id, false);
  }
}
