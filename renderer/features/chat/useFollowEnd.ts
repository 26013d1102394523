import { useEffect, useRef } from 'react';

/** How close to the end still counts as "at the end" (a line or two of slack). */
const AT_END_PX = 120;

/**
 * Keeps a scrolling view at its end while the person stays there, however much arrives at once (a tall
 * tool result, a long paragraph), and lets go while they scroll up to read. Whether to follow is decided
 * when the person scrolls, not after content has grown: measured after a tall block lands, the view
 * would already look "far from the end" and stop following. A new `place` (an object: a place the
 * person asked to be shown) stops the following until they scroll back to the end.
 */
export function useFollowEnd(scroller: HTMLElement | null, content: unknown, place?: object): void {
  const following = useRef(true);
  const observer = useRef<ResizeObserver | null>(null);
  const heldFor = useRef<object | undefined>(undefined);

  useEffect(() => {
    if (!scroller) return;
    following.current = true;
    const onScroll = () => {
      following.current = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < AT_END_PX;
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    // Rows are measured after they render (and images load later): growth with no new content is followed too.
    const resized = new ResizeObserver(() => {
      if (following.current) scroller.scrollTop = scroller.scrollHeight;
    });
    observer.current = resized;
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      resized.disconnect();
      observer.current = null;
    };
  }, [scroller]);

  useEffect(() => {
    if (!scroller) return;
    // The list inside may have been replaced (a conversation opened, the empty state gone); observing
    // the same element again is a no-op.
    for (const child of Array.from(scroller.children)) observer.current?.observe(child);
    // A place the person asked to see (the message a search found) is not followed away from; scrolling
    // back to the end follows again.
    if (place !== undefined && heldFor.current !== place) {
      heldFor.current = place;
      following.current = false;
    }
    if (following.current) scroller.scrollTop = scroller.scrollHeight;
  }, [scroller, content, place]);
}
