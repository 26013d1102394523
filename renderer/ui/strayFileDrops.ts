import { useEffect } from 'react';
import type { DragEvent as ReactDragEvent } from 'react';

/** Whether a drag carries files from outside the page (not text or a link dragged within it). */
export function carriesFiles(event: DragEvent | ReactDragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') === true;
}

/**
 * A file dropped where nothing takes it does nothing, as in a desktop app: the browser would otherwise
 * open it in place of Atrium. What takes files (the message box; a file field, natively) handles the
 * drop before this sees it.
 */
export function useNoStrayFileDrops(): void {
  useEffect(() => {
    const refuse = (event: DragEvent) => {
      if (!carriesFiles(event) || event.defaultPrevented) return;
      if (event.target instanceof HTMLInputElement && event.target.type === 'file') return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
    };
    document.addEventListener('dragover', refuse);
    document.addEventListener('drop', refuse);
    return () => {
      document.removeEventListener('dragover', refuse);
      document.removeEventListener('drop', refuse);
    };
  }, []);
}
