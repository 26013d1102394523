// What a provider made of each message of a conversation in its wire format, kept from one request to
// the next. The agent loop sends one transcript per turn and only adds to it (a message it has to change
// is replaced by a new one), so each request of a long conversation converts only the messages added
// since the one before, where converting all of them again made every step cost the whole history.

import type { ChatMessage } from '../../../shared/conversation.ts';

export class MessageConversions<Out> {
  /** The messages converted, as the last request had them, and what each became. */
  private readonly messages: ChatMessage[] = [];
  private readonly converted: Out[] = [];
  /** What converting a message said (an image type the API refuses, say): said again with every request that sends it. */
  private said: { at: number; notices: readonly string[] }[] = [];
  private context = '';

  /**
   * Each message's conversion, in order, its notices added to `notices`. The messages that begin the
   * conversation as the same objects as in the last request are not converted again, unless `context` —
   * what the conversion reads besides the message (the deferred tools a search result loads, say) —
   * changed. Costs the new messages' conversion and a comparison of references, not the whole history's.
   */
  of(messages: readonly ChatMessage[], notices: string[], convert: (message: ChatMessage, notices: string[]) => Out, context = ''): Out[] {
    let kept = 0;
    if (context === this.context) {
      const most = Math.min(messages.length, this.messages.length);
      while (kept < most && messages[kept] === this.messages[kept]) kept++;
    }
    this.context = context;
    this.messages.length = kept;
    this.converted.length = kept;
    if (this.said.some(({ at }) => at >= kept)) this.said = this.said.filter(({ at }) => at < kept);
    for (let at = kept; at < messages.length; at++) {
      const message = messages[at] as ChatMessage;
      const said: string[] = [];
      this.converted.push(convert(message, said));
      this.messages.push(message);
      if (said.length > 0) this.said.push({ at, notices: said });
    }
    for (const { notices: said } of this.said) notices.push(...said);
    // A copy: the caller may add to what it sends.
    return [...this.converted];
  }
}
