// The one Node version check in front of every entry point (`npm start`, `npm run web`, the `atrium`
// command, the conformance scripts). Plain JavaScript on purpose: it must parse on any Node, so that
// someone on an older one gets one clear sentence instead of ERR_UNKNOWN_FILE_EXTENSION for a .ts file.
// Importing it checks: `import './nodeGate.mjs'`, `node --import ./main/nodeGate.mjs x.ts`, or run alone
// (`node main/nodeGate.mjs && …`) before a chain of commands.

import { basename } from 'node:path';

// 22.13: the first 22 whose node:sqlite (Atrium's store) needs no flag; on 22.12 it is not there at all.
export const minimumNode = '22.13.0';

/**
 * Why this Node cannot run Atrium, as one sentence, or undefined when it can.
 * @param {string} version `process.versions.node`
 * @param {unknown} typeStripping `process.features.typescript` ('strip' | 'transform' | false | undefined)
 * @param {string} command what the person ran, to run again once Node is fixed
 * @returns {string | undefined}
 */
export function nodeVersionProblem(version, typeStripping, command = 'it') {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 13)) {
    return `Atrium needs Node.js ${minimumNode} or newer; this is Node.js ${version}. Install a current Node.js 22 LTS (https://nodejs.org) and run ${command} again.`;
  }
  if (!typeStripping) {
    return `Atrium runs its TypeScript directly, which this Node.js ${version} does not do by default. Use Node.js 22.18 or newer, or set NODE_OPTIONS=--experimental-strip-types and run ${command} again.`;
  }
  return undefined;
}

/**
 * What the person typed, as well as can be told: the npm script, else the command's own name.
 * @param {NodeJS.ProcessEnv} env
 * @returns {string}
 */
function commandRun(env) {
  const script = env.npm_lifecycle_event;
  if (script === 'start') return '"npm start"';
  if (script) return `"npm run ${script}"`;
  // Run through the `atrium` command (bin/atrium.mjs) or a script file by name.
  const name = basename(process.argv[1] ?? '').replace(/\.m?[jt]s$/, '');
  return name ? `"${name}"` : 'it';
}

const problem = nodeVersionProblem(
  process.versions.node,
  /** @type {{ typescript?: unknown }} */ (process.features).typescript,
  commandRun(process.env),
);
if (problem) {
  console.error(problem);
  process.exit(1);
}
