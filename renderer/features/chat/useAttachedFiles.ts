import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { carriesFiles } from '../../ui/strayFileDrops.ts';
import { attachFiles } from './attachedFiles.ts';
import type { AttachedFile } from './attachedFiles.ts';

/**
 * The files attached to the message being written: chosen, pasted, or dropped anywhere on the conversation
 * (`dropZone`); `dropping` while files are dragged over it. Each file a model cannot read, or past the
 * limits, is said at once through `say`.
 */
export function useAttachedFiles(dropZone: HTMLElement | null, say: (message: string | null) => void) {
  const [files, setFiles] = useState<AttachedFile[]>([]);
  const [dropping, setDropping] = useState(false);
  // Each batch is read after the one before has been added (a paste while a large drop is still being
  // read), so the limits count every file and none is lost.
  const attaching = useRef<Promise<unknown>>(Promise.resolve());
  const latestFiles = useRef(files);
  latestFiles.current = files;
  const addFiles = (chosen: File[]) => {
    attaching.current = attaching.current.then(() =>
      attachFiles(chosen, latestFiles.current).then(
        (result) => {
          latestFiles.current = result.files;
          setFiles(result.files);
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
