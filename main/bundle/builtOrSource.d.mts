// The types of builtOrSource.mjs (plain JavaScript, see there).
export declare const repoRoot: string;
export declare const bundleOutDir: string;
export declare const bundleManifestName: string;
export declare const bundleEntries: { readonly atrium: { readonly source: string }; readonly serveWeb: { readonly source: string } };

/** A file the bundle was made from, as it was then. */
export interface InputStamp {
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** A build's record of its inputs (dist/node/sources.json, dist/renderer/.sources.json), each by path from the repository's root. */
export interface BundleManifest {
  inputs: Record<string, InputStamp>;
}

export declare function bundleStaleReason(outDir?: string, root?: string): string | undefined;
export declare function inputsChangedReason(inputs: Record<string, InputStamp>, root: string): string | undefined;
export declare function stampOf(file: string): InputStamp;
export declare function moduleToRun(name: keyof typeof bundleEntries, env?: NodeJS.ProcessEnv): string;
