// An HTTP answer's body read within a bound. A document (a JSON answer, an error page, OAuth metadata)
// is read whole, here, up to its cap; a stream is passed on through a filter as its reader asks for it.
// Either way the source is cancelled once the bound is reached, which closes the connection, and a hook
// says when the body is done, so that what was held for the request is let go then and not before.
// (The filter is pulled, not piped through a TransformStream: that cost a small answer about 70 µs more.)

/** Statuses whose answers have no body; a Response cannot be made with one. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export interface BoundedRead {
  maxBytes: number;
  /** Past `maxBytes`: the read fails with this error, or, when absent, the body is cut there. */
  tooLarge?: () => Error;
}

/**
 * `response` with its body read to its end (or to `maxBytes`), as a response whose body is what was read.
 * Rejects with the reason when the read fails or is aborted, or with `tooLarge()` past the cap.
 */
export async function readBounded(response: Response, bound: BoundedRead): Promise<Response> {
  if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > bound.maxBytes) {
      // Cancelling the body at its source closes the connection: nothing more is received for it.
      void reader.cancel().catch(() => undefined);
      if (bound.tooLarge) throw bound.tooLarge();
      chunks.push(value.subarray(0, bound.maxBytes - total));
      total = bound.maxBytes;
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, total);
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Where a filter puts what it passes on. */
export interface BodyOutput {
  enqueue(chunk: Uint8Array): void;
  /** Fails the body; nothing more is read. */
  error(reason: unknown): void;
  /** Ends the body here; nothing more is read. */
  end(): void;
}

export interface BodyFilter {
  transform(chunk: Uint8Array, out: BodyOutput): void;
  /** The source ended. */
  flush?(out: BodyOutput): void;
}

/**
 * `response` with its body passed through `filter` as its reader asks for it. `done` runs once the body
 * is over, however it ended: read to its end, failed, ended by the filter or cancelled by its reader.
 */
export function throughBody(response: Response, filter: BodyFilter, done: () => void = () => undefined): Response {
  if (!response.body || NULL_BODY_STATUSES.has(response.status)) {
    done();
    return response;
  }
  const source = response.body.getReader();
  let over = false;
  const finish = () => {
    if (over) return;
    over = true;
    done();
  };
  let open = true;
  let passed = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const out: BodyOutput = {
    enqueue: (chunk) => {
      if (!open) return;
      controller.enqueue(chunk);
      passed = true;
    },
    error: (reason) => {
      if (!open) return;
      open = false;
      controller.error(reason);
    },
    end: () => {
      if (!open) return;
      open = false;
      controller.close();
    },
  };
  const body = new ReadableStream<Uint8Array>({
    start: (streamController) => {
      controller = streamController;
    },
    pull: async () => {
      passed = false;
      // A filter may hold what it was given (half an event): read on until it passes something.
      while (open && !passed) {
        try {
          const next = await source.read();
          if (next.done) {
            filter.flush?.(out);
            out.end();
            finish();
            return;
          }
          filter.transform(next.value, out);
        } catch (error) {
          out.error(error);
        }
      }
      if (!open) {
        finish();
        await source.cancel().catch(() => undefined);
      }
    },
    cancel: async (reason) => {
      open = false;
      finish();
      await source.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
