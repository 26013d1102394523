// Work the window can do later, in idle moments, without ever making a frame late: Markdown made ahead
// for rows about to scroll into view, and code highlighted in rows already shown. One queue for all of
// it, worked in short slices, because separate idle callbacks each take the whole idle period Chromium
// offers (up to 50 ms, even while frames are wanted); in a trace of a fast scroll through a long
// conversation such callbacks were the longest frames.

export interface IdleJobOptions {
  /**
   * Waits until no scroll has happened for a moment. For what only looks better (highlighting): its
   * first run compiles the highlighter's grammars, tens of milliseconds that a scrolling person would feel.
   */
  whenScrollSettles?: boolean;
}

/** The most one idle slice works for; a job is started only with this much idle time left. */
const SLICE_MS = 4;
/** How long after the last scroll event a scroll counts as settled. */
const SCROLL_SETTLE_MS = 200;

interface Job {
  run: () => void;
  whenScrollSettles: boolean;
}

const queue: Job[] = [];
let slice: number | undefined;
let lastScrollAt = Number.NEGATIVE_INFINITY;
let listening = false;

/** Runs `run` in an idle moment; returns the cancel. Jobs run in the order they were queued. */
export function whenIdle(run: () => void, options: IdleJobOptions = {}): () => void {
  const job: Job = { run, whenScrollSettles: options.whenScrollSettles === true };
  queue.push(job);
  listenForScrolls();
  scheduleSlice();
  return () => {
    const at = queue.indexOf(job);
    if (at >= 0) queue.splice(at, 1);
  };
}

function scheduleSlice(): void {
  if (slice === undefined && queue.length > 0) slice = requestIdleCallback(workSlice);
}

function workSlice(deadline: IdleDeadline): void {
  slice = undefined;
  const sliceEnd = performance.now() + SLICE_MS;
  const settled = performance.now() - lastScrollAt > SCROLL_SETTLE_MS;
  let index = 0;
  while (index < queue.length && deadline.timeRemaining() > SLICE_MS / 2 && performance.now() < sliceEnd) {
    const job = queue[index] as Job;
    if (job.whenScrollSettles && !settled) {
      index++;
      continue;
    }
    queue.splice(index, 1);
    job.run();
  }
  if (queue.length === 0) return;
  // Only jobs waiting for the scroll to settle are left: look again once it may have.
  if (queue.every((job) => job.whenScrollSettles) && !settled) setTimeout(scheduleSlice, SCROLL_SETTLE_MS);
  else scheduleSlice();
}

function listenForScrolls(): void {
  if (listening) return;
  listening = true;
  // Scroll events do not bubble; a capturing listener on the document hears every scroller's.
  document.addEventListener(
    'scroll',
    () => {
      lastScrollAt = performance.now();
    },
    { capture: true, passive: true },
  );
}
