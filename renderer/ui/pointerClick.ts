import type { MouseEvent } from 'react';

/**
 * Whether a click was made with a pointer (a mouse, a finger), not with a key: Enter or Space on a button
 * clicks it too, with no click count. Who clicks a place to read and write there wants the cursor in its
 * message box; who moves through a list by keyboard wants to stay in the list.
 */
export function madeWithPointer(event: MouseEvent): boolean {
  return event.detail > 0;
}
