// How the desktop app starts its sample server. The packaged app's fuses turn ELECTRON_RUN_AS_NODE off,
// so Atrium's own executable cannot run a script as Node; and an MCP stdio server must be a program with
// a command line (the person sees it before it starts), which a utilityProcess is not. So the sample
// server is bundled into one self-contained file (dist/sampleServer/sampleServer.mjs, unpacked from
// app.asar so another program can read it) and run by the person's `node`, found on the PATH servers get.
import path from 'node:path';
import type { SampleServerLaunch } from '../api/setupApi.ts';

/** Inside a packaged app, a file another program must read lives beside app.asar, in app.asar.unpacked. */
export function unpackedPath(file: string): string {
  const packed = `${path.sep}app.asar${path.sep}`;
  return file.includes(packed) ? file.replace(packed, `${path.sep}app.asar.unpacked${path.sep}`) : file;
}

/** `electronDir` is the folder of the built main.mjs (dist/electron). */
export function bundledSampleServer(electronDir: string): SampleServerLaunch {
  return { command: 'node', args: [unpackedPath(path.join(electronDir, '..', 'sampleServer', 'sampleServer.mjs'))] };
}
