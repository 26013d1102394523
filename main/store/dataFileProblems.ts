// The data files found damaged in this process, per data folder, and how each is said: the window lists
// them (a banner above every view), the log and the CLI's stderr get each one as it is found. A file
// left in place (a one-shot command's, or one the person broke while the window runs) is listed until
// it is readable again; a file set aside stays listed for the run, as its copy stays where it was put.

import { basename } from 'node:path';
import type { DataFileProblem } from '../../shared/domain.ts';

const problems = new Map<string, DataFileProblem[]>();
const listeners = new Set<(home: string) => void>();
let log: (text: string) => void = (text) => process.stderr.write(`${text}\n`);

/** Records a problem found in `home`, writes it to the log and tells every listener. */
export function noticeDataFileProblem(problem: DataFileProblem, home: string): void {
  const sameFileInPlace = (listed: DataFileProblem) => listed.inPlace === true && listed.file === problem.file;
  // A file left in place is listed once, as it is now: read again unchanged, it is not news.
  if (problem.inPlace && problems.get(home)?.some((listed) => sameFileInPlace(listed) && listed.problem === problem.problem)) return;
  const list = (problems.get(home) ?? []).filter((listed) => !(problem.inPlace && sameFileInPlace(listed)));
  list.push(problem);
  problems.set(home, list);
  log(describeDataFileProblem(problem));
  for (const listener of listeners) listener(home);
}

/** `file` in `home` is readable again (or gone): a problem left in place for it is no longer listed. */
export function fileReadableAgain(home: string, file: string): void {
  const list = problems.get(home);
  if (!list?.some((problem) => problem.inPlace === true && problem.file === file)) return;
  problems.set(
    home,
    list.filter((problem) => !(problem.inPlace === true && problem.file === file)),
  );
  log(`atrium: ${file} can be read again.`);
  for (const listener of listeners) listener(home);
}

/** The damaged files of `home` in this run, oldest first. */
export function dataFileProblems(home: string): DataFileProblem[] {
  return [...(problems.get(home) ?? [])];
}

/** Calls `listener` with the data folder whose list changed (a problem found, or one gone); returns the way to stop. */
export function onDataFileProblem(listener: (home: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where the problems are written as they are found (stderr unless a front end says otherwise, e.g. the CLI's). */
export function logDataFileProblemsTo(write: (text: string) => void): void {
  log = write;
}

/** The problem as lines of text, for the CLI and the log. */
export function describeDataFileProblem(problem: DataFileProblem): string {
  const where = problem.inPlace
    ? 'It was left as it is'
    : problem.keptAt
      ? `It was moved aside, byte for byte, to ${problem.keptAt}`
      : 'It could not be moved aside, so Atrium leaves it as it is and does not write it';
  return [`atrium: ${problem.file} could not be read: ${problem.problem}.`, `  ${where}; ${problem.withoutIt}.`, problem.recovery.length > 1 ? '  To recover, either:' : '  To recover:', ...problem.recovery.map((way) => `  - ${way}`)].join('\n');
}

/**
 * The ways back every JSON data file offers: its last good copy, the damaged copy fixed, or carrying on
 * without it. `takenUpWhileRunning`: a running Atrium reads the file again as soon as it changes, so no
 * restart is needed.
 */
export function jsonRecovery(file: string, carryOn: string, options: { takenUpWhileRunning?: boolean } = {}) {
  const then = options.takenUpWhileRunning ? '; Atrium takes it up as soon as it is there' : ', then restart Atrium';
  return (keptAt: string | null, lastGood: string | null): string[] => [
    ...(lastGood ? [`Restore the last good copy: copy ${basename(lastGood)} to ${file}${then}.`] : []),
    keptAt ? `Fix the damaged copy (${basename(keptAt)}), move it back to ${file}${then}.` : `Fix ${file}${then}.`,
    carryOn,
  ];
}
