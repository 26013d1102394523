import type { DataFileProblem } from '../../shared/domain.ts';
import type { SliceCreator } from './AtriumState.ts';

/**
 * The data-folder files the host found damaged in this run (moved aside, or left in place until they are
 * fixed); the window says so in every view until the person hides what it said.
 */
export interface DataFilesSlice {
  dataFileProblems: DataFileProblem[];
  /** The problems the person has read and put away in this window; one found later (or found again) shows. */
  dataFileProblemsHidden: readonly DataFileProblem[];
  setDataFileProblems(problems: DataFileProblem[]): void;
  hideDataFileProblems(): void;
}

export const createDataFilesSlice: SliceCreator<DataFilesSlice> = (set) => ({
  dataFileProblems: [],
  dataFileProblemsHidden: [],
  // A problem that went (its file was fixed) is forgotten, so the same mistake made again shows again.
  setDataFileProblems: (dataFileProblems) => set((state) => ({ dataFileProblems, dataFileProblemsHidden: state.dataFileProblemsHidden.filter((hidden) => dataFileProblems.some((problem) => sameProblem(problem, hidden))) })),
  hideDataFileProblems: () => set((state) => ({ dataFileProblemsHidden: state.dataFileProblems })),
});

/** Whether the banner has something the person has not put away. */
export function unreadDataFileProblems(state: Pick<DataFilesSlice, 'dataFileProblems' | 'dataFileProblemsHidden'>): boolean {
  return state.dataFileProblems.some((problem) => !state.dataFileProblemsHidden.some((hidden) => sameProblem(problem, hidden)));
}

function sameProblem(a: DataFileProblem, b: DataFileProblem): boolean {
  return a.file === b.file && a.problem === b.problem && a.keptAt === b.keptAt && a.inPlace === b.inPlace;
}
