/**
 * Why a request reached nothing, in a few words, from fetch's error: its outer error only says "fetch
 * failed", and the reason is in its causes. Undefined when none says.
 */
export function networkFailureOf(error: unknown): string | undefined {
  let innermost: Error | undefined;
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ENOTFOUND') return 'host not found';
    if (typeof code === 'string') return code;
    innermost = e;
  }
  return innermost && innermost !== error ? innermost.message : undefined;
}
