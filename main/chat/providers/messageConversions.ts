// What a provider made of each message of a conversation in its wire format, kept from one request to
// the next. The agent loop sends one transcript per turn and only adds to it (a message it has to change
// is replaced by a new one), so each request of a long conversation converts only the messages added
// since the one before, where converting all of them again made every step cost the whole history.

import type { ChatMessage } from '../../../shared/conversation.ts';

interface Converted<Out> {
  out: Out;
  /** What converting it said (an image type the API refuses, say): said again with every request that sends it. */
  notices: readonly string[];
  /** What the conversion read besides the message itself (see `dependsOn`). */
  dependency: string;
}

export class MessageConversions<Out> {
  /** The last request's messages, as they were then, and what each became. */
  private messages: readonly ChatMessage[] = [];
  private converted: readonly Converted<Out>[] = [];

  /**
   * Each message's conversion, in order, its notices added to `notices`. A message that is the same
   * object at the same place as in the last request is not converted again, unless `dependsOn` — what its
   * conversion reads besides the message (the deferred tools its search result loads, say) — changed.
   */
  of(messages: readonly ChatMessage[], notices: string[], convert: (message: ChatMessage, notices: string[]) => Out, dependsOn?: (message: ChatMessage) => string): Out[] {
    const converted = messages.map((message, i): Converted<Out> => {
      const dependency = dependsOn?.(message) ?? '';
      const known = this.messages[i] === message ? this.converted[i] : undefined;
      if (known?.dependency === dependency) return known;
      const said: string[] = [];
      return { out: convert(message, said), notices: said, dependency };
    });
    // A copy: the caller goes on adding to its own array.
    this.messages = [...messages];
    this.converted = converted;
    for (const { notices: said } of converted) if (said.length > 0) notices.push(...said);
    return converted.map(({ out }) => out);
  }
}
