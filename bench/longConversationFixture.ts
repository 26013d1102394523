// A long conversation for the benches that continue one: groups of four messages (a question, a reply
// that calls a tool, the tool's result, the answer), each with a paragraph of text, as a real
// conversation about figures would have.
import type { ChatContent } from '../shared/conversation.ts';
import type { HistoryStore } from '../main/store/historyStore.ts';

const paragraph = 'The quarterly figures came in above the forecast, mostly from the new region; costs held steady. '.repeat(4);

/** Appends `messages` messages (a multiple of four) to the conversation. */
export function fillConversation(history: HistoryStore, conversationId: string, messages: number, toolName = 'calc__add'): void {
  for (let i = 0; i < messages; i += 4) {
    history.appendUserMessage(conversationId, [{ type: 'text', text: `Question ${i}: ${paragraph}` }]);
    const reply = history.beginAssistantMessage(conversationId);
    const call: ChatContent = { type: 'tool_use', id: `old-${i}`, name: toolName, input: { a: i, b: 2 } };
    history.finishAssistantMessage(reply, { status: 'complete', content: [{ type: 'text', text: paragraph }, call] });
    history.appendUserMessage(conversationId, [{ type: 'tool_result', toolUseId: `old-${i}`, content: [{ type: 'text', text: String(i + 2) }] }]);
    const answer = history.beginAssistantMessage(conversationId);
    history.finishAssistantMessage(answer, { status: 'complete', content: [{ type: 'text', text: `The answer is ${i + 2}. ${paragraph}` }] });
  }
}
