// Cancellation ends every provider's turn the same way, wherever it strikes: before the request, while
// it is being made, mid-stream, or when the SDK ends the iteration quietly on abort. The turn then ends
// with one `done` event, stopReason 'cancelled', and the usage counted so far; nothing the stream held
// after the abort is passed on, and an error raised by the abort is not an error.

import type { ModelStreamEvent } from '../llmTypes.ts';
import type { TokenUsage } from '../../../shared/domain.ts';

/** Runs `turn` (which updates `usage` as it goes) under `signal`. */
export async function* cancellableTurn(signal: AbortSignal | undefined, usage: TokenUsage, turn: () => AsyncGenerator<ModelStreamEvent>): AsyncGenerator<ModelStreamEvent> {
  const cancelled = (): ModelStreamEvent => ({ type: 'done', stopReason: 'cancelled', usage: { ...usage } });
  // A turn cancelled before it starts ends as cancelled, even without a key.
  if (signal?.aborted) {
    yield cancelled();
    return;
  }
  try {
    for await (const event of turn()) {
      if (signal?.aborted) break;
      yield event;
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
  }
  if (signal?.aborted) yield cancelled();
}
