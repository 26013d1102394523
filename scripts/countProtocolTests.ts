// How many tests name the protocol rule they check — a specification section, an MCP revision, a SEP or
// an RFC — out of all the tests. A test that checks a rule of the protocol should say which, so the next
// engineer can tell a rule from a choice of ours.
//   node scripts/countProtocolTests.ts          the two numbers
//   node scripts/countProtocolTests.ts --list   also every test that names one
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const folders = ['main', 'shared', 'preload', 'renderer', 'conformance', 'e2e'];
const citation = /\b(SEP-\d+|RFC ?\d{3,5}|spec(ification)?\b|MCP \d{4}-\d{2}-\d{2}|\d{4}-\d{2}-\d{2} (§|spec|revision|tools|transport|lifecycle)|§)/i;
const testCall = /\b(?:test|it)\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g;

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (/\.(test|e2e)\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

let total = 0;
const naming: string[] = [];
for (const file of folders.flatMap((folder) => testFiles(join(root, folder)))) {
  for (const match of readFileSync(file, 'utf8').matchAll(testCall)) {
    total += 1;
    const name = match[2] ?? '';
    if (citation.test(name)) naming.push(`${relative(root, file)}: ${name}`);
  }
}
if (process.argv.includes('--list')) for (const line of naming) console.log(line);
console.log(`${naming.length} tests name a protocol rule (a spec section, an MCP revision, a SEP or an RFC), of ${total} tests`);
