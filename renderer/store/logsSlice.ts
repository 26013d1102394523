import type { LogLine, ServerId } from '../../shared/domain.ts';
import type { SliceCreator } from './AtriumState.ts';

/** How many lines the window keeps per server; the host keeps the full history. */
export const maxLogLines = 500;

export interface LogsSlice {
  logs: Record<ServerId, LogLine[]>;
  /** Live lines from `log` events, batched by the caller. */
  appendLogs(lines: LogLine[]): void;
  /** The host's history from `getServerLog`, merged with live lines that arrived after it. */
  setLogHistory(serverId: ServerId, history: LogLine[]): void;
}

export const createLogsSlice: SliceCreator<LogsSlice> = (set) => ({
  logs: {},
  appendLogs: (lines) =>
    set((state) => {
      const logs = { ...state.logs };
      for (const line of lines) {
        const current = logs[line.serverId] ?? [];
        logs[line.serverId] = current.length >= maxLogLines ? [...current.slice(1 - maxLogLines), line] : [...current, line];
      }
      return { logs };
    }),
  setLogHistory: (serverId, history) =>
    set((state) => {
      const lastAt = history.at(-1)?.at ?? -Infinity;
      const newer = (state.logs[serverId] ?? []).filter((line) => line.at > lastAt);
      return { logs: { ...state.logs, [serverId]: [...history, ...newer].slice(-maxLogLines) } };
    }),
});
