// The `npm start` entry. Plain JavaScript on purpose: it must parse on any Node, so that someone on
// an older Node gets one clear sentence instead of ERR_UNKNOWN_FILE_EXTENSION for a .ts file.
// Everything else lives in launch.ts, which this imports once the Node version is known to be good.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const minimumNode = '22.12.0';

/**
 * Why this Node cannot run Atrium, as one sentence, or undefined when it can.
 * @param {string} version `process.versions.node`
 * @param {unknown} typeStripping `process.features.typescript` ('strip' | 'transform' | false | undefined)
 * @returns {string | undefined}
 */
export function nodeVersionProblem(version, typeStripping) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    return `Atrium needs Node.js ${minimumNode} or newer; this is Node.js ${version}. Install a current Node.js 22 LTS (https://nodejs.org) and run "npm start" again.`;
  }
  if (!typeStripping) {
    return `Atrium runs its TypeScript directly, which this Node.js ${version} does not do by default. Use Node.js 22.18 or newer, or run: NODE_OPTIONS=--experimental-strip-types npm start`;
  }
  return undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problem = nodeVersionProblem(process.versions.node, /** @type {{ typescript?: unknown }} */ (process.features).typescript);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  const { main } = await import('./launch.ts');
  process.exitCode = await main();
}
