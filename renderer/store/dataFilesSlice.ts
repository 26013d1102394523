import type { DataFileProblem } from '../../shared/domain.ts';
import type { SliceCreator } from './AtriumState.ts';

/** The data-folder files the host found damaged (and moved aside) in this run; the window says so in every view. */
export interface DataFilesSlice {
  dataFileProblems: DataFileProblem[];
  /** How many of them the person has read and put away in this window. */
  dataFileProblemsSeen: number;
  setDataFileProblems(problems: DataFileProblem[]): void;
  hideDataFileProblems(): void;
}

export const createDataFilesSlice: SliceCreator<DataFilesSlice> = (set) => ({
  dataFileProblems: [],
  dataFileProblemsSeen: 0,
  setDataFileProblems: (dataFileProblems) => set({ dataFileProblems }),
  hideDataFileProblems: () => set((state) => ({ dataFileProblemsSeen: state.dataFileProblems.length })),
});
