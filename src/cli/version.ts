/**
 * `specforge --version`: the version in the package's own package.json, found relative to this module (src/cli/ or
 * lib/cli/, both two levels below the package root), so an installed package reports itself, whatever the working
 * directory.
 */
import { readFileSync } from 'node:fs';

/** The package.json of the running specforge. */
const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/** The version of the running specforge, e.g. `0.1.0`. Throws (an Error with one sentence) when unreadable. */
export function packageVersion(packageJson: URL = PACKAGE_JSON): string {
  let version: unknown;
  try {
    version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }).version;
  } catch (e) {
    throw new Error(`cannot read the version from ${packageJson.pathname}: ${(e as Error).message}`);
  }
  if (typeof version !== 'string' || version === '')
    throw new Error(`cannot read the version from ${packageJson.pathname}: it has no "version"`);
  return version;
}
