// The layering check `npm test` runs: reads every import of the production code (tests and test kits
// are left out: they may reach anywhere to set a scene up), then fails when a layer imports one it must
// not, or when files import each other in a circle. docs/ARCHITECTURE.md draws the same layers; this
// script is what keeps that drawing true.
//
//   node scripts/checkLayers.ts          prints each broken rule and circle, exits 1 if any
//   node scripts/checkLayers.ts --graph  also prints every layer-to-layer arrow with its count
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const sourceFolders = ['main', 'shared', 'preload', 'renderer'];

/** A layer is the longest listed folder prefix a file lives under. */
const layers = [
  'shared',
  'preload',
  'renderer',
  'main/mcp',
  'main/store',
  'main/host',
  'main/chat',
  'main/api',
  'main/app',
  'main/cli',
  'main/web',
  'main/electron',
  'main/sampleServer',
  'main',
] as const;
type Layer = (typeof layers)[number];

/** What each layer may import, besides itself and npm packages. The rule in words goes with it. */
const allowed: Record<Layer, { may: Layer[]; rule: string }> = {
  shared: { may: [], rule: 'shared/ is the ground floor: it imports nothing of Atrium' },
  preload: { may: ['shared'], rule: 'the preload script only exposes the contract' },
  renderer: { may: ['shared'], rule: 'the renderer only speaks the contract (shared/)' },
  'main/mcp': { may: ['shared', 'main', 'main/store'], rule: 'connection code never imports policy, chat or the API' },
  'main/store': { may: ['shared', 'main'], rule: 'persistence imports only the ground floor: it knows files and tables, not what uses them' },
  'main/chat': { may: ['shared', 'main', 'main/mcp', 'main/store'], rule: 'chat (providers, the agent loop) owns its seams (ToolGate, ToolRunner, LlmProvider) and never imports the policy that implements them' },
  'main/host': { may: ['shared', 'main', 'main/mcp', 'main/store', 'main/chat'], rule: 'policy (consent, brokers, roots, audit) implements the seams of chat and connections; it never builds the host or imports the API' },
  'main/api': { may: ['shared', 'main', 'main/mcp', 'main/store', 'main/host', 'main/chat'], rule: 'the API implements the contract over the core; it never builds the core' },
  'main/app': { may: ['shared', 'main', 'main/mcp', 'main/store', 'main/host', 'main/chat', 'main/api'], rule: 'the composition root builds everything and is imported only by front ends' },
  'main/cli': { may: ['shared', 'main', 'main/store', 'main/api', 'main/app'], rule: 'the CLI is a front end: it uses the API the window uses, never the core behind it' },
  'main/web': { may: ['shared', 'main', 'main/store', 'main/api', 'main/app'], rule: 'the browser mode is a front end: the bridge and the built page over the API' },
  'main/electron': { may: ['shared', 'main', 'main/store', 'main/api', 'main/app'], rule: 'the desktop shell is a front end over the API' },
  'main/sampleServer': { may: ['shared', 'main'], rule: 'the sample server is an MCP server of its own' },
  main: { may: ['shared'], rule: 'main/ top-level files are process-wide helpers' },
};

/**
 * Inside the renderer: a feature (renderer/features/NAME/) never imports another feature — what two
 * features share lives in renderer/ui/, their state in renderer/store/ — and the link to the host
 * (renderer/api/) knows nothing of the store that mirrors it.
 */
function rendererRule(file: string, target: string): string | undefined {
  const feature = (path: string) => /^renderer\/features\/([^/]+)\//.exec(path)?.[1];
  const from = feature(file);
  const to = feature(target);
  if (from !== undefined && to !== undefined && from !== to) return 'a feature never imports another feature: shared pieces belong in renderer/ui/';
  if (file.startsWith('renderer/api/') && target.startsWith('renderer/store/')) return 'the link to the host (renderer/api/) does not know the store that mirrors it';
  return undefined;
}

/** Files that are tests or test kits: left out of the graph. */
function isTestCode(path: string): boolean {
  return /\.(test|int\.test|e2e)\.tsx?$/.test(path) || /(^|\/)testKits\//.test(path);
}

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  if (existsSync(join(root, folder))) walk(join(root, folder));
  return out.filter((path) => !isTestCode(path));
}

/**
 * An extension lives in one folder, main/mcp/extensions/NAME/, whatever layers it reaches: its sub-folders
 * say which layer each part belongs to, and each part keeps that layer's rule. The rest of the folder is
 * its per-connection part (main/mcp).
 */
const extensionParts: Record<string, Layer> = { contract: 'shared', window: 'renderer', host: 'main/host', store: 'main/store', chat: 'main/chat', api: 'main/api' };

function layerOf(path: string): Layer | undefined {
  const part = /^main\/mcp\/extensions\/[^/]+\/([^/]+)\//.exec(path)?.[1];
  if (part !== undefined && extensionParts[part] !== undefined) return extensionParts[part];
  return layers.find((layer) => path === layer || path.startsWith(`${layer}/`));
}

/** Relative imports of one file (static, dynamic and re-exports), resolved to repository paths. */
function importsOf(path: string): { target: string; typeOnly: boolean }[] {
  const text = readFileSync(join(root, path), 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const typeOnlyTargets = new Set(
    [...text.matchAll(/^\s*(?:import|export)\s+type\s[^;]*?from\s+['"]([^'"]+)['"]/gms)].map((match) => match[1]),
  );
  return info.importedFiles
    .filter((file) => file.fileName.startsWith('.'))
    .map((file) => ({
      target: relative(root, resolve(root, dirname(path), file.fileName)).split(sep).join('/'),
      typeOnly: typeOnlyTargets.has(file.fileName),
    }));
}

/** Strongly connected components of more than one file (Tarjan), i.e. import circles. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowLinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    lowLinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowLinks.set(node, Math.min(lowLinks.get(node)!, lowLinks.get(next)!));
      } else if (onStack.has(next)) {
        lowLinks.set(node, Math.min(lowLinks.get(node)!, indices.get(next)!));
      }
    }
    if (lowLinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/** The zustand slices of one store (an extension's slice among them) import each other's types by design: that circle is allowed. */
function isAllowedCircle(component: string[]): boolean {
  return component.every((file) => file.startsWith('renderer/store/') || /^main\/mcp\/extensions\/[^/]+\/window\/[^/]*Slice\.ts$/.test(file));
}

const files = sourceFolders.flatMap(sourceFiles);
const known = new Set(files);
const graph = new Map<string, string[]>();
const broken: string[] = [];
const arrows = new Map<string, number>();

for (const file of files) {
  const from = layerOf(file);
  const targets: string[] = [];
  for (const { target } of importsOf(file)) {
    const resolved = known.has(target) ? target : [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`].find((candidate) => known.has(candidate));
    if (resolved === undefined) continue; // a test kit, an asset or a .mjs helper: not part of the layered code
    targets.push(resolved);
    const to = layerOf(resolved);
    const inside = rendererRule(file, resolved);
    if (inside !== undefined) broken.push(`${file} imports ${resolved}: ${inside}`);
    if (from === undefined || to === undefined || from === to) continue;
    arrows.set(`${from} -> ${to}`, (arrows.get(`${from} -> ${to}`) ?? 0) + 1);
    if (!allowed[from].may.includes(to)) broken.push(`${file} imports ${resolved}: ${allowed[from].rule}`);
  }
  graph.set(file, targets);
}

for (const file of files) {
  if (file.startsWith('main/electron/')) continue;
  if (/from\s+['"]electron['"]|require\(['"]electron['"]\)/.test(readFileSync(join(root, file), 'utf8')) && !file.startsWith('preload/')) {
    broken.push(`${file} imports electron: only main/electron/ and preload/ may`);
  }
}

// The contract is typed end to end: where the API, the contract, the preload and the window meet, a
// cast through `unknown` would hide a disagreement that tsc should report.
const boundary = /^(shared|preload|renderer|main\/api)\//;
for (const file of files) {
  if (boundary.test(file) && /\bas unknown as\b/.test(readFileSync(join(root, file), 'utf8'))) {
    broken.push(`${file} casts through unknown: the contract's types must meet without it`);
  }
}

const importCircles = circles(graph).filter((component) => !isAllowedCircle(component));

if (process.argv.includes('--graph')) {
  for (const [arrow, count] of [...arrows].sort()) console.log(`${arrow}  (${count})`);
  console.log('');
}
for (const line of broken) console.log(`layering: ${line}`);
for (const component of importCircles) console.log(`circle: ${component.join(' <-> ')}`);
if (broken.length > 0 || importCircles.length > 0) {
  console.log(`\n${broken.length} layering rule(s) broken, ${importCircles.length} import circle(s), over ${files.length} files. docs/ARCHITECTURE.md says what each layer may import.`);
  process.exit(1);
}
console.log(`Layering holds over ${files.length} files: no layer imports one it must not, no import circle.`);
