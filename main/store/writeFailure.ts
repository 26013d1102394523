// A write to the data folder that the disk or the system refused, said as one sentence a person can act
// on ("the disk is full"), never as the error object a front end would print with its stack (or, from
// the bundle, with a line of minified code).

import { basename, dirname } from 'node:path';

/** A write that did not happen, in a person's words; the file was left as it was. */
export class DataFileWriteError extends Error {
  readonly code = 'failed';
}

const reasons: Record<string, (folder: string) => string> = {
  ENOSPC: (folder) => `the disk that holds ${folder} is full; free some space, then try again`,
  EDQUOT: (folder) => `your disk quota for ${folder} is used up; free some space, then try again`,
  EROFS: (folder) => `${folder} is on a disk that can only be read`,
  EACCES: (folder) => `Atrium is not allowed to write in ${folder}`,
  EPERM: (folder) => `Atrium is not allowed to write in ${folder}`,
  EIO: (folder) => `the disk that holds ${folder} reported an error (EIO)`,
  EMFILE: () => 'Atrium has too many files open; try again in a moment',
  ENFILE: () => 'the system has too many files open; close some programs, then try again',
};

/** `error` as a DataFileWriteError when it is a refusal a person can act on; anything else as it was. */
export function writeFailure(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason = code === undefined ? undefined : reasons[code];
  if (!reason) return error;
  return new DataFileWriteError(`Atrium could not save ${basename(path)} (it is as it was): ${reason(dirname(path))}.`, { cause: error });
}
