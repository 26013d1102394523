import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { NOTHING_YET } from '../../store/nextMessageSlice.ts';
import type { AttachedFile } from '../../store/nextMessageSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { carriesFiles } from '../../ui/strayFileDrops.ts';
import { attachFiles } from './attachedFiles.ts';

/**
 * The files attached to the next message of the conversation `conversationKey` names (the store keeps
 * them with it): chosen, pasted, or dropped anywhere on the conversation (`dropZone`); `dropping` while
 * files are dragged over it. Each file a model cannot read, or past the limits, is said at once through `say`.
 */
export function useAttachedFiles(conversationKey: string, dropZone: HTMLElement | null, say: (message: string | null) => void) {
  const files = useAtriumStore((state) => state.attachedFiles[conversationKey] ?? NOTHING_YET);
  const setAttachedFiles = useAtriumStore((state) => state.setAttachedFiles);
  const setFiles = (next: AttachedFile[] | ((current: AttachedFile[]) => AttachedFile[])) => setAttachedFiles(conversationKey, next);
  const [dropping, setDropping] = useState(false);
  // Each batch is read after the one before has been added (a paste while a large drop is still being
  // read), so the limits count every file and none is lost. A batch goes to the conversation it was
  // attached in, even if another is shown by the time it is read.
  const attaching = useRef<Promise<unknown>>(Promise.resolve());
  const addFiles = (chosen: File[]) => {
    const key = conversationKey;
    attaching.current = attaching.current.then(() =>
      attachFiles(chosen, useAtriumStore.getState().attachedFiles[key] ?? NOTHING_YET).then(
        (result) => {
          setAttachedFiles(key, result.files);
          say(result.refused.length > 0 ? result.refused.join(' ') : null);
        },
        (failure: unknown) => say(errorMessage(failure)),
      ),
    );
  };
  const addFilesRef = useRef(addFiles);
  addFilesRef.current = addFiles;
  useEffect(() => {
    if (!dropZone) return;
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setDropping(true);
    };
    const left = (event: DragEvent) => {
      if (!dropZone.contains(event.relatedTarget as Node | null)) setDropping(false);
    };
    const dropped = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      setDropping(false);
      addFilesRef.current([...(event.dataTransfer?.files ?? [])]);
    };
    dropZone.addEventListener('dragover', over);
    dropZone.addEventListener('dragleave', left);
    dropZone.addEventListener('drop', dropped);
    return () => {
      dropZone.removeEventListener('dragover', over);
      dropZone.removeEventListener('dragleave', left);
      dropZone.removeEventListener('drop', dropped);
    };
  }, [dropZone]);
  return { files, setFiles, addFiles, dropping };
}
