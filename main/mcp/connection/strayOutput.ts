// What a server wrote on its standard output that is not an MCP message: the commonest reason a server
// never answers (it logs to stdout, where only JSON-RPC may go). Said when its start fails, with the
// first such line, so the person sees what the server printed instead of only a time limit.

import { markHidden } from '../../../shared/serverText.ts';

/** How much of the first stray line is shown. */
const LINE_SHOWN = 200;

export class StrayOutput {
  private first: string | undefined;
  private count = 0;

  note(line: string): void {
    const text = line.trim();
    if (text === '') return;
    this.count++;
    this.first ??= text.length > LINE_SHOWN ? `${text.slice(0, LINE_SHOWN)}…` : text;
  }

  /** "; it wrote 2 lines on its standard output that are not MCP messages (the first: "…"): …", or nothing. */
  said(): string {
    if (this.first === undefined) return '';
    const lines = this.count === 1 ? 'a line' : `${this.count} lines`;
    return `; it wrote ${lines} on its standard output that ${this.count === 1 ? 'is' : 'are'} not MCP messages (the first: "${markHidden(this.first)}"): a server writes only MCP messages there, and its log to standard error`;
  }
}
