/** A parsed value that is an object with keys (not null, not an array): what it must be before its keys are read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
