// The window opens where the person left it: its normal (not maximised) bounds and whether it was
// maximised are saved in the data folder when it closes, and restored on the next start only where
// they are still visible (a monitor may have been unplugged or the resolution changed since).
import { join } from 'node:path';
import { DamagedData, readDataFile, writeFileAtomically } from '../store/dataFile.ts';
import { jsonProblem } from '../../shared/jsonProblem.ts';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rectangle;
  maximized: boolean;
}

/** What the window is created with: a size, and a position only when a saved one is still visible. */
export interface RestoredWindow {
  bounds: { width: number; height: number; x?: number; y?: number };
  maximized: boolean;
}

export interface WindowSizes {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
}

export const WINDOW_STATE_FILE = 'window-state.json';
/** How much of the window must lie on a display for its saved position to be kept. */
const minVisible = { width: 160, height: 80 };

/** A saved state, or undefined for anything else (a missing, hand-edited or foreign file). */
export function parseWindowState(text: string | undefined): WindowState | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { bounds, maximized } = value as { bounds?: Record<string, unknown>; maximized?: unknown };
  if (typeof bounds !== 'object' || bounds === null) return undefined;
  const numbers = [bounds.x, bounds.y, bounds.width, bounds.height];
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
  const [x, y, width, height] = numbers.map((n) => Math.round(n as number)) as [number, number, number, number];
  if (width <= 0 || height <= 0) return undefined;
  return { bounds: { x, y, width, height }, maximized: maximized === true };
}

/**
 * Where to open the window, given the displays' work areas (the primary first). A saved window keeps
 * its place on the display it overlaps most if enough of it shows there, shrunk to fit and pulled fully
 * inside; otherwise it opens centred (no position) at its saved size, fitted to the primary display.
 */
export function restoreWindow(saved: WindowState | undefined, workAreas: readonly Rectangle[], sizes: WindowSizes): RestoredWindow {
  const primary = workAreas[0];
  const wanted = saved?.bounds ?? { x: 0, y: 0, width: sizes.width, height: sizes.height };
  const fitTo = (area: Rectangle | undefined) => ({
    width: clamp(wanted.width, sizes.minWidth, Math.max(sizes.minWidth, area?.width ?? wanted.width)),
    height: clamp(wanted.height, sizes.minHeight, Math.max(sizes.minHeight, area?.height ?? wanted.height)),
  });
  const maximized = saved?.maximized ?? false;
  if (!saved) return { bounds: fitTo(primary), maximized };

  const best = workAreas
    .map((area) => ({ area, overlap: intersection(saved.bounds, area) }))
    .sort((a, b) => b.overlap.width * b.overlap.height - a.overlap.width * a.overlap.height)[0];
  if (!best || best.overlap.width < minVisible.width || best.overlap.height < minVisible.height) return { bounds: fitTo(primary), maximized };

  const { area } = best;
  const size = fitTo(area);
  return {
    bounds: {
      ...size,
      x: clamp(saved.bounds.x, area.x, area.x + area.width - size.width),
      y: clamp(saved.bounds.y, area.y, area.y + area.height - size.height),
    },
    maximized,
  };
}

/** The saved state; a damaged file is set aside and reported like every data file, and the window opens at its default place. */
export async function readWindowState(home: string): Promise<WindowState | undefined> {
  return readDataFile({
    path: join(home, WINDOW_STATE_FILE),
    withoutIt: 'the window opened at its default size and place',
    recovery: () => ['Nothing to do: the window’s size and place are saved again when it closes.'],
    parse: (bytes) => {
      const state = parseWindowState(bytes.toString('utf8'));
      if (!state) throw new DamagedData(jsonProblem(bytes) ?? 'it does not hold a window size and place');
      return state;
    },
  });
}

export async function writeWindowState(home: string, state: WindowState): Promise<void> {
  await writeFileAtomically(join(home, WINDOW_STATE_FILE), `${JSON.stringify(state)}\n`);
}

function intersection(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}
