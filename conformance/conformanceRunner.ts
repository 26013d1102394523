// `npm run conformance`: the official MCP conformance suite in client mode against Atrium's headless
// host core (`npm run --silent conformance-client -- <url>`), once per scenario and spec version.
//
// The runs come from the suite itself: `conformance list --client` gives each scenario's spec versions,
// and the suite's requirement sets (its requirements/*.yaml) say which versions are scored. A scenario
// runs under each scored version it targets; one that targets none of them runs under its own latest
// version, and an extension under the suite's default. A run passes only with at least one check and
// no failed check (the suite alone calls a run with zero checks "passed"). Every group decides the exit
// code: the required group (neither OAuth nor an extension), the auth group (every auth/* scenario, the
// auth extensions included) and the extensions group (Skills, SEP-2640: the client scenarios Atrium acts
// out through its skills extension). Atrium passes each of them reliably, and a scenario a newer suite
// adds to any group decides too: one Atrium fails is a gap to close, not to excuse.
//
// Usage: node conformance/conformanceRunner.ts [required] [auth] [extensions]   (no group: all three)

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Group = 'required' | 'auth' | 'extensions';
export const GROUPS: readonly Group[] = ['required', 'auth', 'extensions'];
/** The groups whose failures fail `npm run conformance`: all of them. */
export const DECIDING_GROUPS: readonly Group[] = ['required', 'auth', 'extensions'];

export function decides(group: Group): boolean {
  return DECIDING_GROUPS.includes(group);
}

export interface Scenario {
  name: string;
  /** Spec versions the scenario targets, or `extension`, as `conformance list` prints them. */
  tags: string[];
}

export interface Run {
  scenario: string;
  /** undefined: let the suite pick (extensions are not on the spec timeline). */
  specVersion: string | undefined;
  group: Group;
}

export interface Check {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

export type Verdict = { passed: true; checks: number } | { passed: false; reason: string };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT_COMMAND = 'npm run --silent conformance-client --';
const PARALLEL_RUNS = 2;
const DECIDING_TIMEOUT_MS = 30_000;
const OTHER_TIMEOUT_MS = 15_000;
/** The suite ends a run at its own timeout; this only guards against the suite itself hanging. */
const RUNNER_GRACE_MS = 30_000;

/** Parses `conformance list --client`: lines of the form `  - name [tag,tag]`. */
export function parseScenarioList(text: string): Scenario[] {
  const scenarios: Scenario[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*-\s+(\S+)\s+\[([^\]]*)\]\s*$/.exec(line);
    if (match?.[1] && match[2] !== undefined) scenarios.push({ name: match[1], tags: match[2].split(',').map((t) => t.trim()).filter(Boolean) });
  }
  return scenarios;
}

export function groupOf(scenario: Scenario): Group {
  if (scenario.name.startsWith('auth/')) return 'auth';
  return scenario.tags.includes('extension') ? 'extensions' : 'required';
}

/** One run per scenario and scored spec version it targets (see the header for the fallbacks). */
export function planRuns(scenarios: readonly Scenario[], scoredVersions: readonly string[]): Run[] {
  const runs: Run[] = [];
  for (const scenario of scenarios) {
    const group = groupOf(scenario);
    const versions = scenario.tags.filter((tag) => tag !== 'extension');
    if (versions.length === 0) {
      runs.push({ scenario: scenario.name, specVersion: undefined, group });
      continue;
    }
    const scored = versions.filter((v) => scoredVersions.includes(v));
    for (const specVersion of scored.length > 0 ? scored : versions.slice(-1)) runs.push({ scenario: scenario.name, specVersion, group });
  }
  return runs.sort((a, b) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group));
}

/** Passed only with at least one scored check (success or failure) and no failure. */
export function judge(checks: readonly Check[]): Verdict {
  const failed = checks.filter((c) => c.status === 'FAILURE');
  const succeeded = checks.filter((c) => c.status === 'SUCCESS');
  if (failed.length > 0) {
    const first = failed[0];
    const more = failed.length > 1 ? ` (+${failed.length - 1} more)` : '';
    const why = first?.errorMessage ?? first?.description ?? 'failed';
    return { passed: false, reason: `${failed.length} of ${plural(failed.length + succeeded.length, 'check')} failed: ${first?.id}: ${why}${more}` };
  }
  if (succeeded.length === 0) {
    if (checks.length === 0) return { passed: false, reason: 'no checks' };
    const first = checks[0];
    return { passed: false, reason: `no check passed or failed: ${first?.id} ${first?.status}${first?.errorMessage ? `: ${first.errorMessage}` : ''}` };
  }
  return { passed: true, checks: succeeded.length };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function label(run: Run): string {
  return run.specVersion ? `${run.scenario} @ ${run.specVersion}` : run.scenario;
}

interface Suite {
  /** argv that starts the suite's CLI with this Node. */
  command: string[];
  scoredVersions: string[];
}

function locateSuite(): Suite {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@modelcontextprotocol/conformance/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  const dir = path.dirname(manifestPath);
  const bin = manifest.bin.conformance;
  if (!bin) throw new Error('@modelcontextprotocol/conformance has no "conformance" binary');
  const scoredVersions = readdirSync(path.join(dir, 'requirements'))
    .filter((file) => /^\d{4}-\d{2}-\d{2}\.yaml$/.test(file))
    .map((file) => file.slice(0, -'.yaml'.length))
    .sort();
  return { command: [process.execPath, path.join(dir, bin)], scoredVersions };
}

interface Exec {
  code: number | null;
  stdout: string;
  stderr: string;
}

function exec(argv: readonly string[], limitMs: number): Promise<Exec> {
  const [command = '', ...args] = argv;
  return new Promise((resolve) => {
    // The suite starts the client through a shell; this Node (and its npm) must be the one found first.
    const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}\n${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface Outcome {
  run: Run;
  verdict: Verdict;
  ms: number;
}

async function execute(suite: Suite, run: Run, outputDir: string): Promise<Outcome> {
  const started = Date.now();
  const timeoutMs = decides(run.group) ? DECIDING_TIMEOUT_MS : OTHER_TIMEOUT_MS;
  const argv = [
    ...suite.command,
    'client',
    '--command',
    CLIENT_COMMAND,
    '--scenario',
    run.scenario,
    ...(run.specVersion ? ['--spec-version', run.specVersion] : []),
    '--timeout',
    String(timeoutMs),
    '--output-dir',
    outputDir,
  ];
  const result = await exec(argv, timeoutMs + RUNNER_GRACE_MS);
  const files = existsSync(outputDir) ? readdirSync(outputDir, { recursive: true, encoding: 'utf8' }).filter((file) => path.basename(file) === 'checks.json') : [];
  let verdict: Verdict;
  if (files.length === 0) {
    const said = lastLine(`${result.stdout}\n${result.stderr}`, (line) => /SKIPPED|Error|error/.test(line)) ?? `the suite exited with code ${result.code}`;
    verdict = { passed: false, reason: `no results: ${said}` };
  } else {
    verdict = judge(files.flatMap((file) => readChecks(path.join(outputDir, file))));
    // The client's own one-line complaint says why a run failed better than a list of missing checks.
    const prefix = `conformance-client: ${run.scenario}: `;
    const clientSaid = files
      .map((file) => lastLine(readOptional(path.join(outputDir, path.dirname(file), 'stderr.txt')), (line) => line.startsWith(prefix)))
      .find((line) => line !== undefined);
    if (!verdict.passed && clientSaid) verdict = { passed: false, reason: `${verdict.reason}; client: ${clientSaid.slice(prefix.length)}` };
  }
  return { run, verdict, ms: Date.now() - started };
}

function readChecks(file: string): Check[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(parsed) ? (parsed as Check[]) : [];
  } catch {
    // An unreadable results file counts as a run without checks, which fails.
    return [];
  }
}

function readOptional(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function lastLine(text: string, wanted: (line: string) => boolean): string | undefined {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(wanted)
    .at(-1);
}

async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function formatOutcome({ run, verdict, ms }: Outcome): string {
  const seconds = `${(ms / 1000).toFixed(1)}s`;
  const detail = verdict.passed ? plural(verdict.checks, 'check') : verdict.reason;
  return `${verdict.passed ? 'PASS' : 'FAIL'}  ${run.group.padEnd(10)} ${label(run).padEnd(50)} ${seconds.padStart(6)}  ${detail}`;
}

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((arg) => !GROUPS.includes(arg as Group));
  if (unknown.length > 0) {
    process.stderr.write(`conformance: unknown group ${unknown.join(', ')}; choose from ${GROUPS.join(', ')}\n`);
    return 2;
  }
  const wanted = argv.length > 0 ? (argv as Group[]) : GROUPS;
  const suite = locateSuite();
  const listed = await exec([...suite.command, 'list', '--client'], 60_000);
  const scenarios = parseScenarioList(listed.stdout);
  if (scenarios.length === 0) {
    process.stderr.write(`conformance: the suite listed no client scenarios (exit ${listed.code})\n${listed.stderr}`);
    return 1;
  }
  const runs = planRuns(scenarios, suite.scoredVersions).filter((run) => wanted.includes(run.group));
  const counts = GROUPS.map((g) => `${runs.filter((r) => r.group === g).length} ${g}`).join(', ');
  process.stdout.write(`conformance: ${runs.length} runs (${counts}); scored spec versions ${suite.scoredVersions.join(', ')}; ${PARALLEL_RUNS} at a time\n`);

  const resultsDir = await mkdtemp(path.join(tmpdir(), 'atrium-conformance-results-'));
  const outcomes = await inParallel(runs, PARALLEL_RUNS, async (run, index) => {
    const outcome = await execute(suite, run, path.join(resultsDir, String(index)));
    process.stdout.write(`${formatOutcome(outcome)}\n`);
    return outcome;
  });

  process.stdout.write('\n');
  for (const group of wanted) {
    const mine = outcomes.filter((o) => o.run.group === group);
    const passed = mine.filter((o) => o.verdict.passed).length;
    const note = decides(group) ? '' : ' (reported, not required)';
    process.stdout.write(`${group}: ${passed} of ${mine.length} runs pass${note}\n`);
    if (decides(group)) for (const o of mine.filter((m) => !m.verdict.passed)) process.stdout.write(`  failed: ${label(o.run)}\n`);
  }
  const deciding = outcomes.filter((o) => decides(o.run.group));
  const failed = deciding.filter((o) => !o.verdict.passed).length;
  if (failed > 0) process.stdout.write(`results kept in ${resultsDir}\n`);
  else await rm(resultsDir, { recursive: true, force: true });
  process.stdout.write(`conformance: ${deciding.length - failed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
