// How long something took, one way everywhere it is said — a tool call's card, a task in its card and in
// the Tasks panel, a trace's request, the terminal: a task that took 386 ms is not "0 s" in one place.

/**
 * "840 ms", "2.4 s", "2 s", "3 min 5 s", "1 min", "1 h 2 min"; `fine`, for a trace's requests, says below
 * 10 ms to the hundredth ("0.42 ms"). A time limit of 60000 ms is "1 min".
 */
export function durationText(ms: number, { fine = false }: { fine?: boolean } = {}): string {
  const whole = Math.max(0, ms);
  if (fine && whole < 10) return `${whole.toFixed(2)} ms`;
  if (whole < 1000) return `${Math.round(whole)} ms`;
  if (whole < 60_000) return `${(whole / 1000).toFixed(1).replace(/\.0$/, '')} s`;
  const seconds = Math.round(whole / 1000);
  if (seconds < 3600) return seconds % 60 === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
