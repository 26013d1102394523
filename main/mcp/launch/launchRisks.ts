// The risky shapes of a launch definition, found before the person approves it: a shell given a script
// with -c, a download piped to a shell, a package run by npx without a pinned version, and secrets
// written in plain text. Pure: the start dialog and the terminal show the same findings.

import type { LaunchRisk } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { CODE_LOADING_ENV } from './launchDefinition.ts';
import { runsContainer } from '../extensions/sandbox/sandboxProfile.ts';
import { isReferenceOrEmpty, isSecretName, isTokenShaped, TOKEN_SHAPES } from './secretShapes.ts';

const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);
const POWERSHELLS = new Set(['powershell', 'pwsh']);
const DOWNLOADER = String.raw`(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)`;
const INTERPRETER = String.raw`(?:sudo\s+)?(?:sh|bash|zsh|dash|ksh|fish|python[0-9.]*|node|perl|ruby|iex|invoke-expression|pwsh|powershell)`;
const DOWNLOAD_TO_SHELL = [
  new RegExp(String.raw`\b${DOWNLOADER}\b[^|;&]*\|\s*${INTERPRETER}\b`, 'i'),
  new RegExp(String.raw`\b(?:sh|bash|zsh|source|\.)\s+<\(\s*${DOWNLOADER}\b`, 'i'),
  new RegExp(String.raw`\b(?:iex|invoke-expression)\b[\s(]*\(?\s*${DOWNLOADER}\b`, 'i'),
];

export function launchRisks(server: ServerDefinition): LaunchRisk[] {
  const risks: LaunchRisk[] = [];
  if (server.transport === 'stdio') {
    const words = withoutEnvPrefix([server.command, ...server.args]);
    const shell = shellScript(words);
    if (shell) risks.push({ kind: 'shell-command', message: `It runs a shell (${shell.shell}) with a script in its arguments: whatever that script says runs with your permissions.` });
    const line = [server.command, ...server.args].join(' ');
    if (DOWNLOAD_TO_SHELL.some((pattern) => pattern.test(line))) {
      risks.push({ kind: 'download-to-shell', message: 'It downloads a script from the internet and runs it at once: what runs is whatever that address serves at the time.' });
    }
    const unpinned = unpinnedPackage(words);
    if (unpinned) {
      risks.push({
        kind: 'unpinned-package',
        message: `It runs the package ${unpinned} without a fixed version: npx fetches whatever version is newest each time. Pin it (${unpinned}@1.2.3) to run the version you checked.`,
      });
    }
    risks.push(...secretRisks(server.env, 'environment variable'));
    for (const name of Object.keys(server.env).filter((n) => CODE_LOADING_ENV.test(n) && n !== 'PATH')) {
      risks.push({ kind: 'code-loading-env', message: `The environment variable ${name} changes which code the program loads.` });
    }
    if (server.args.some((arg) => TOKEN_SHAPES.some((shape) => shape.test(arg)))) {
      risks.push({ kind: 'secret-in-env', message: 'An argument looks like a key or token written in plain text in the servers file.' });
    }
    if (server.sandbox === false) {
      risks.push({ kind: 'unsandboxed', message: 'It runs without the sandbox ("sandbox": false): it can read and change all your files (your SSH keys, Atrium’s data) and reach any address.' });
    } else if (runsContainer(server)) {
      risks.push({ kind: 'unsandboxed', message: 'It runs a container (docker run), which Atrium’s sandbox cannot hold: what it reaches is what the container’s options give it (mounted folders, network).' });
    }
  } else {
    risks.push(...secretRisks(server.headers, 'header'));
  }
  return risks;
}

/** `env A=1 sh -c …` runs sh: the program that really runs is after env's own settings and flags. */
function withoutEnvPrefix(words: string[]): string[] {
  if (programName(words[0] ?? '') !== 'env') return words;
  let i = 1;
  while (i < words.length && (words[i]?.startsWith('-') || words[i]?.includes('='))) i++;
  return words.slice(i);
}

/** The program's own name: without its folder, `.exe`, or a version (`python3.12`, `bash5`). */
function programName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/, '');
}

function shellScript(words: string[]): { shell: string } | undefined {
  const [command = '', ...args] = words;
  const name = programName(command);
  if (POSIX_SHELLS.has(name)) {
    // -c alone or in a group of short flags (-lc, -ec, -xc).
    if (args.some((arg) => /^-[a-z]*c[a-z]*$/i.test(arg) && !arg.startsWith('--'))) return { shell: name };
  }
  if (name === 'cmd' && args.some((arg) => /^\/[ck]$/i.test(arg))) return { shell: 'cmd' };
  if (POWERSHELLS.has(name) && args.some((arg) => /^-(c|command|e|ec|enc|encodedcommand)$/i.test(arg) || /^-(command|encodedcommand):/i.test(arg))) {
    return { shell: name };
  }
  return undefined;
}

/** The package npx runs when it carries no exact version (`pkg`, `pkg@latest`, `pkg@^1`); undefined otherwise. */
function unpinnedPackage(words: string[]): string | undefined {
  const [command = '', ...rest] = words;
  const name = programName(command);
  let args = rest;
  if (name === 'npm' && (rest[0] === 'exec' || rest[0] === 'x')) args = rest.slice(1);
  else if (name !== 'npx') return undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') continue;
    if (arg === '-p' || arg === '--package') {
      const spec = args[i + 1] ?? '';
      if (!isPinned(spec)) return spec;
      i++;
      continue;
    }
    if (arg.startsWith('--package=')) {
      const spec = arg.slice('--package='.length);
      if (!isPinned(spec)) return spec;
      continue;
    }
    if (arg.startsWith('-')) continue;
    // The first word that is not an option is the package (or, with -p, the command it provides).
    return isPinned(arg) || args.slice(0, i).some((a) => a === '-p' || a === '--package' || a.startsWith('--package=')) ? undefined : arg;
  }
  return undefined;
}

/** `name@1.2.3` or `@scope/name@1.2.3`; a local path or a URL is what it is, not a registry package. */
function isPinned(spec: string): boolean {
  if (/^[./~]|^[a-z]+:/i.test(spec)) return true;
  const at = spec.lastIndexOf('@');
  if (at <= 0) return false;
  return /^v?\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(spec.slice(at + 1));
}

function secretRisks(values: Record<string, string>, what: string): LaunchRisk[] {
  const risks: LaunchRisk[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (isReferenceOrEmpty(value)) continue;
    const shaped = isTokenShaped(value);
    const named = isSecretName(name);
    if (shaped || named) {
      risks.push({
        kind: 'secret-in-env',
        message: `The ${what} ${name} holds a ${shaped ? 'value shaped like a key or token' : 'secret-looking value'} in plain text in the servers file; anyone who reads the file or shares it has it.`,
      });
    }
  }
  return risks;
}
