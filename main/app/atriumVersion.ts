// Atrium's version, from package.json: what servers are told in clientInfo and `atrium --version` prints.
// (Two folders below package.json, as the built dist/electron/main.mjs is: the same URL serves both.)
import { readFileSync } from 'node:fs';

export const ATRIUM_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
