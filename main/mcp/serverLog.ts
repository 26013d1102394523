import type { LogLevel, LogLine, LogSource, ServerId } from '../../shared/domain.ts';
import { markHidden, sliceMarked } from '../../shared/serverText.ts';

const MAX_LINE_CHARS = 8_192;

/**
 * One server's log: stderr, MCP log notifications and Atrium's own notes about it. Bounded, because a
 * flooding server must not grow the host's memory; the newest lines win.
 */
export class ServerLog {
  private readonly lines: LogLine[] = [];
  private readonly serverId: ServerId;
  private readonly capacity: number;
  private readonly onLine: (line: LogLine) => void;

  constructor(serverId: ServerId, onLine: (line: LogLine) => void, capacity = 2_000) {
    this.serverId = serverId;
    this.onLine = onLine;
    this.capacity = capacity;
  }

  add(level: LogLevel, source: LogSource, raw: string): void {
    // A server's stderr and the host's notes quoting it reach the window, the CLI and the terminal from here.
    const text = markHidden(raw);
    const clipped = text.length > MAX_LINE_CHARS ? `${sliceMarked(text, MAX_LINE_CHARS)}… (${text.length - MAX_LINE_CHARS} more characters)` : text;
    const line: LogLine = { serverId: this.serverId, at: Date.now(), level, source, text: clipped };
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
    this.onLine(line);
  }

  recent(limit = this.capacity): LogLine[] {
    return this.lines.slice(-limit);
  }
}
