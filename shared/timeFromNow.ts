// Times as a person reads them, worded alike by every front end: no DOM, no Node.

/**
 * How far `at` is from `now`, in words a person reads at a glance: "in 52 min", "in 1 h 5 min",
 * "in 3 days", "in less than a minute", or "2 min ago".
 */
export function timeFromNow(at: number, now: number): string {
  const ahead = at >= now;
  const minutes = Math.round(Math.abs(at - now) / 60_000);
  if (minutes < 1) return ahead ? 'in less than a minute' : 'less than a minute ago';
  const span = minutes < 60 ? `${minutes} min` : minutes < 48 * 60 ? hoursAndMinutes(minutes) : `${Math.round(minutes / (24 * 60))} days`;
  return ahead ? `in ${span}` : `${span} ago`;
}

/** A token's lifetime: "expires in 52 min", or "expired 3 min ago" when it was not refreshed in time. */
export function expiryText(expiresAt: number, now: number): string {
  return `${expiresAt >= now ? 'expires' : 'expired'} ${timeFromNow(expiresAt, now)}`;
}

function hoursAndMinutes(minutes: number): string {
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
}

/** A moment as the terminal and exports write it, the same everywhere: "2026-11-28 09:46:40 UTC". */
export function utcTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}
