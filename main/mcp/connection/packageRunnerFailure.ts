// A server started through a package runner (npx, npm exec, pnpm dlx) that never ran because the runner
// could not fetch it: the runner's own words are a dozen lines of registry noise, and what the person
// needs is which package was not found and that its name is probably wrong.

/** The package name as a registry error names it: `'@scope/name@*'`, `'name@1.2.3'`, `'name'`. */
const QUOTED_PACKAGE = String.raw`'((?:@[^/'\s]+\/)?[^@'\s]+)(?:@[^']*)?'`;

/** npm 11: "The requested resource 'NAME@*' could not be found…"; npm 7–10: "'NAME@*' is not in this registry." */
const NPM_NOT_FOUND = new RegExp(String.raw`^npm (?:error|ERR!) 404\s+(?:The requested resource )?${QUOTED_PACKAGE} (?:could not be found|is not in (?:this|the npm) registry)`);
/** npm's request line, when the sentence is missing: "npm error 404 Not Found - GET https://registry…/@scope%2fname". */
const NPM_GET_404 = /^npm (?:error|ERR!) 404 Not Found - GET \S*?\/((?:@[^/\s]+%2[fF])?[^/\s%]+)(?:\s|$)/;
/** pnpm: "ERR_PNPM_FETCH_404  GET https://registry…/NAME: Not Found - 404". */
const PNPM_404 = /ERR_PNPM_FETCH_404\s+GET \S*?\/((?:@[^/\s]+%2[fF])?[^/\s:%]+): Not Found/;

/** What a package runner's failure in these stderr lines means for the person, or undefined when they hold none. */
export function packageRunnerFailure(lines: readonly string[]): string | undefined {
  for (const pattern of [NPM_NOT_FOUND, NPM_GET_404, PNPM_404]) {
    for (const line of lines) {
      const name = pattern.exec(line)?.[1];
      if (name !== undefined) return `npm could not find the package ${decodeURIComponent(name)}: check its name`;
    }
  }
  return undefined;
}
