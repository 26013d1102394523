// A registry entry made into a server Atrium runs: an npm package → `npx -y name@1.2.3`, a PyPI package →
// `uvx name==1.2.3`, an OCI image → `docker run -i --rm image:tag`, a remote → its address with its
// variables filled. Always the exact version the entry names — never `latest`, a range or a bare name,
// which would run whatever is newest on the day — and a secret's value never in the definition.

import type { InstallChoice, InstallInput, InstallKind } from '../../../../shared/installs.ts';
import type { ServerDefinition } from '../../config/serverConfig.ts';
import { InstallError } from '../installError.ts';
import { FieldProblemsError } from '../../../../shared/fieldProblems.ts';
import { EntryValues } from './entryValues.ts';
import type { RegistryArgument, RegistryPackage, RegistryRecord, RegistryTransport } from './registryRecords.ts';

/** One way to run an entry: a package of it, or a remote address of it. */
type Way = { kind: 'package'; pkg: RegistryPackage } | { kind: 'remote'; remote: RegistryTransport };

export interface EntryServer {
  definition: ServerDefinition;
  /** Secret name → value, for Atrium's encrypted store. */
  secrets: Map<string, string>;
  inputs: InstallInput[];
}

const NPM_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** PEP 440 release, pre-, post- and dev-release: one exact version, no operator, no wildcard. */
const PEP440 = /^\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?$/;
const IMAGE = /^[a-z0-9][a-z0-9._\-/:]*(?:@sha256:[a-f0-9]{64})?$/;

function waysOf(record: RegistryRecord): Way[] {
  return [...(record.server.packages ?? []).map((pkg) => ({ kind: 'package' as const, pkg })), ...(record.server.remotes ?? []).map((remote) => ({ kind: 'remote' as const, remote }))];
}

/** Every way the entry can run, with what each asks for and what it would run (values as `{placeholders}`). */
export function installChoices(record: RegistryRecord): InstallChoice[] {
  return waysOf(record).map((way) => {
    const values = new EntryValues({}, 'plan', true);
    const kind = kindOf(way);
    // A bundle's settings are in its manifest: known once its file is fetched (and its hash checked).
    if (way.kind === 'package' && way.pkg.registryType === 'mcpb') {
      return { kind, label: labelOf(way), runs: `the bundle ${way.pkg.identifier}`, inputs: [], ...(way.pkg.fileSha256 ? {} : { unsupported: `${record.server.name} lists a bundle without its SHA-256, which Atrium needs to check the file` }) };
    }
    try {
      const definition = build(record, way, values, 'plan');
      return { kind, label: labelOf(way), runs: runsOf(definition), inputs: values.inputs };
    } catch (error) {
      if (!(error instanceof InstallError)) throw error;
      return { kind, label: labelOf(way), runs: '', inputs: [], unsupported: error.message };
    }
  });
}

/** The server made from one way of the entry (`choice`, an index into installChoices) with the person's answers. */
export function entryServer(record: RegistryRecord, choice: number, answers: Readonly<Record<string, string>>, serverId: string): EntryServer {
  const way = waysOf(record)[choice];
  if (!way) throw new InstallError('invalid_params', `${record.server.name} has no way to install numbered ${choice + 1}`);
  if (way.kind === 'package' && way.pkg.registryType === 'mcpb') throw new InstallError('invalid_params', 'a bundle is installed from its file');
  const values = new EntryValues(answers, serverId);
  const definition = build(record, way, values, serverId);
  const unknown = values.unknownAnswers();
  if (unknown.length > 0) {
    const asked = values.inputs.map((input) => input.key);
    throw new InstallError('invalid_params', `${record.server.name} asks for no value named ${unknown.join(', ')}${asked.length ? `; it asks for ${asked.join(', ')}` : '; it asks for none'}`);
  }
  return { definition, secrets: values.secrets, inputs: values.inputs };
}

function kindOf(way: Way): InstallKind {
  if (way.kind === 'remote') return 'remote';
  const type = way.pkg.registryType;
  return type === 'npm' || type === 'pypi' || type === 'oci' || type === 'mcpb' ? type : 'npm';
}

function labelOf(way: Way): string {
  if (way.kind === 'remote') return `remote server (${way.remote.type === 'sse' ? 'SSE' : 'Streamable HTTP'}) at ${way.remote.url ?? '?'}`;
  const { registryType, identifier, version } = way.pkg;
  if (registryType === 'oci') return `container image ${identifier}`;
  if (registryType === 'mcpb') return `bundle ${identifier}`;
  return `${registryType} package ${identifier}${version ? ` ${version}` : ''}`;
}

function runsOf(definition: ServerDefinition): string {
  return definition.transport === 'stdio' ? [definition.command, ...definition.args].join(' ') : definition.url;
}

function build(record: RegistryRecord, way: Way, values: EntryValues, serverId: string): ServerDefinition {
  const name = record.server.name;
  if (way.kind === 'remote') return remote(name, way.remote, values, serverId);
  const { pkg } = way;
  if (pkg.transport.type !== 'stdio') {
    throw new InstallError('invalid_params', `this package of ${name} runs a web server of its own on this computer; Atrium starts only packages that speak over standard input and output (install its remote address if it has one)`);
  }
  const env: Record<string, string> = {};
  for (const variable of pkg.environmentVariables ?? []) {
    const value = values.fill(variable.name, 'environment', variable);
    if (value !== undefined) env[variable.name] = value;
  }
  const runtime = argumentsOf(pkg.runtimeArguments, values);
  const after = argumentsOf(pkg.packageArguments, values);
  const base = { id: serverId, disabled: false, transport: 'stdio' as const, env };
  switch (pkg.registryType) {
    case 'npm': {
      if (!NPM_NAME.test(pkg.identifier)) throw new InstallError('invalid_params', `"${pkg.identifier}" is not an npm package name`);
      const version = exactVersion(name, pkg, SEMVER, 'npm');
      const registry = pkg.registryBaseUrl && !/^https:\/\/registry\.npmjs\.org\/?$/.test(pkg.registryBaseUrl) ? [`--registry=${pkg.registryBaseUrl}`] : [];
      return { ...base, command: 'npx', args: ['-y', ...registry, ...runtime, `${pkg.identifier}@${version}`, ...after] };
    }
    case 'pypi': {
      if (!PYPI_NAME.test(pkg.identifier)) throw new InstallError('invalid_params', `"${pkg.identifier}" is not a PyPI package name`);
      const version = exactVersion(name, pkg, PEP440, 'PyPI');
      const index = pkg.registryBaseUrl && !/^https:\/\/pypi\.org\/?$/.test(pkg.registryBaseUrl) ? ['--index-url', pkg.registryBaseUrl] : [];
      return { ...base, command: 'uvx', args: [...index, ...runtime, `${pkg.identifier}==${version}`, ...after] };
    }
    case 'oci': {
      const image = imageOf(name, pkg);
      // The container gets only the variables named here; their values come from the environment docker is given.
      const passed = Object.keys(env).flatMap((variable) => ['-e', variable]);
      return { ...base, command: 'docker', args: ['run', '-i', '--rm', ...runtime, ...passed, image, ...after] };
    }
    default:
      throw new InstallError('invalid_params', `${pkg.registryType} packages are not something Atrium can install yet (npm, PyPI, OCI images, bundles and remote servers are)`);
  }
}

function exactVersion(name: string, pkg: RegistryPackage, pattern: RegExp, registry: string): string {
  const version = pkg.version;
  if (version === undefined || version === '') throw new InstallError('invalid_params', `${name} names no version of its ${registry} package ${pkg.identifier}; Atrium installs only an exact version`);
  if (!pattern.test(version)) throw new InstallError('invalid_params', `${name} names "${version}" for its ${registry} package ${pkg.identifier}, which is not one exact version; Atrium installs only an exact version`);
  return version;
}

/** The image with its tag or digest: `latest`, or none (which means latest), is refused. */
function imageOf(name: string, pkg: RegistryPackage): string {
  let image = pkg.identifier;
  const lastPart = image.slice(image.lastIndexOf('/') + 1);
  const tagged = lastPart.includes(':') || image.includes('@sha256:');
  if (!tagged && pkg.version) image = `${image}:${pkg.version}`;
  if (!IMAGE.test(image)) throw new InstallError('invalid_params', `"${pkg.identifier}" is not a container image reference`);
  const tag = /:([^:/@]+)(?:@|$)/.exec(image.slice(image.lastIndexOf('/') + 1))?.[1];
  if (!image.includes('@sha256:') && (tag === undefined || tag === 'latest')) {
    throw new InstallError('invalid_params', `${name} names the image ${pkg.identifier} without a fixed tag: :latest changes under you; Atrium installs only a fixed tag or digest`);
  }
  return image;
}

function argumentsOf(list: readonly RegistryArgument[] | undefined, values: EntryValues): string[] {
  const words: string[] = [];
  for (const argument of list ?? []) {
    if (argument.type === 'named') {
      // A flag that sets nothing and asks nothing is passed as it is (`--stdio`).
      const asks = argument.value !== undefined || argument.isRequired === true || argument.default !== undefined || argument.description !== undefined || argument.format !== undefined;
      if (!asks) {
        words.push(argument.name);
        continue;
      }
      const value = values.fill(argument.name, 'argument', argument);
      if (value !== undefined) words.push(value === '' ? argument.name : `${argument.name}=${value}`);
    } else {
      const value = values.fill(argument.valueHint ?? `argument ${words.length + 1}`, 'argument', argument);
      if (value !== undefined) words.push(value);
    }
  }
  return words;
}

function remote(name: string, transport: RegistryTransport, values: EntryValues, serverId: string): ServerDefinition {
  if (transport.type === 'stdio' || !transport.url) throw new InstallError('invalid_params', `${name} lists a remote without an address`);
  const url = values.fill('url', 'url', { value: transport.url, ...(transport.variables ? { variables: transport.variables } : {}) }, encodeURIComponent) ?? '';
  if (!/^https?:\/\//.test(url)) throw new InstallError('invalid_params', `${name}'s remote address "${transport.url}" is not an http(s) address once its variables are filled`);
  if (!values.planning && !URL.canParse(url)) throw unfitAddress(name, transport, values);
  const headers: Record<string, string> = {};
  for (const header of transport.headers ?? []) {
    const value = values.fill(header.name, 'header', header);
    if (value !== undefined) headers[header.name] = value;
  }
  return { id: serverId, disabled: false, transport: transport.type === 'sse' ? 'sse' : 'http', url, headers };
}

/**
 * Why an address made from the person's values is no address: a value that went into its host name
 * (`https://{tenant}.tickets.example`) holds what no host name can, and is named as the field it came from.
 */
function unfitAddress(name: string, transport: RegistryTransport, values: EntryValues): Error {
  const host = /^https?:\/\/([^/?#]*)/.exec(transport.url ?? '')?.[1] ?? '';
  for (const [, variable] of host.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const given = variable === undefined ? undefined : values.given(variable);
    if (variable === undefined || given === undefined || /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(given)) continue;
    return new FieldProblemsError([{ field: `values.${variable}`, message: `The address's ${variable} "${given}" cannot be part of a web address's name: use letters, digits, hyphens and dots` }]);
  }
  return new InstallError('invalid_params', `${name}'s remote address "${transport.url}" is not a web address once its values are filled in`);
}
