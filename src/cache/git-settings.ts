import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitOutput } from '../util/git-output.js';

/**
 * What of git's settings and attributes files could make the bytes a checkout holds other than its blobs', or git's
 * view of the names other than the disk's: for the listing of a clean checkout (src/cache/clean-checkout.ts), which
 * is given only when none can.
 */

/**
 * A setting or attributes file that could make the bytes on disk other than the blobs', or git's view of the names
 * other than the disk's: why the listing cannot stand for them.
 */
export async function settingsSource(
  top: string,
  infoAttributes: string,
  prefixes: readonly string[],
): Promise<string | undefined> {
  let config: Map<string, string>;
  let system: string[];
  try {
    [config, system] = await Promise.all([
      gitOutput(top, ['config', '--list', '-z']).then(parseConfig),
      systemAttributes(top),
    ]);
  } catch (e) {
    return `git could not read its configuration (${(e as Error).message})`;
  }
  const setting = settingProblem(config);
  if (setting !== undefined) return setting;
  const xdg = process.env.XDG_CONFIG_HOME;
  const home = process.env.HOME;
  const userConfig =
    xdg !== undefined && xdg !== '' ? xdg : home === undefined ? undefined : join(home, '.config');
  const places = [
    infoAttributes,
    ...(userConfig === undefined ? [] : [join(userConfig, 'git', 'attributes')]),
    ...(gitBool(process.env.GIT_ATTR_NOSYSTEM) === true ? [] : system),
    ...prefixes.flatMap((prefix) => attributesPathsAbove(prefix).map((p) => join(top, p))),
  ];
  const found = places.find((p) => existsSync(p));
  return found === undefined ? undefined : `git attributes may change files on checkout (${found})`;
}

/** A setting of git's that converts bytes, names attributes, or compares names other than byte for byte. */
function settingProblem(config: ReadonlyMap<string, string>): string | undefined {
  return namesOrBytesProblem(config) ?? coarseCheckProblem(config) ?? attributesProblem(config);
}

/** `core.autocrlf` on, or names not compared byte for byte (`core.ignoreCase`, `core.precomposeUnicode`). */
function namesOrBytesProblem(config: ReadonlyMap<string, string>): string | undefined {
  const autocrlf = config.get('core.autocrlf');
  if (autocrlf !== undefined && gitBool(autocrlf) !== false) return `core.autocrlf is ${autocrlf}`;
  for (const key of ['core.ignoreCase', 'core.precomposeUnicode']) {
    const value = config.get(key.toLowerCase());
    if (value !== undefined && gitBool(value) !== false)
      return `${key} is ${value} (names may not be compared byte for byte)`;
  }
  return undefined;
}

/**
 * Checks coarser than git's defaults: under them any git command may take a changed file for unchanged and refresh
 * its entry with the file's new stat data (keeping the old blob id), and no later check, however strict, can see the
 * change then.
 */
function coarseCheckProblem(config: ReadonlyMap<string, string>): string | undefined {
  const checkStat = config.get('core.checkstat');
  if (checkStat !== undefined && checkStat.toLowerCase() !== 'default')
    return `core.checkStat is ${checkStat} (git may have taken a changed file for unchanged)`;
  const trustctime = config.get('core.trustctime');
  if (trustctime !== undefined && gitBool(trustctime) !== true)
    return `core.trustctime is ${trustctime} (git may have taken a changed file for unchanged)`;
  return undefined;
}

/** Attributes from a configured file, a tree (`attr.tree`, `GIT_ATTR_SOURCE`). */
function attributesProblem(config: ReadonlyMap<string, string>): string | undefined {
  for (const key of ['core.attributesFile', 'attr.tree']) {
    const value = config.get(key.toLowerCase());
    if (value !== undefined) return `${key} is set (${value})`;
  }
  return (process.env.GIT_ATTR_SOURCE ?? '') === '' ? undefined : 'GIT_ATTR_SOURCE is set';
}

/**
 * Where git reads the system's attributes: `git var GIT_ATTR_SYSTEM` (git 2.42 and later), else `/etc` and the
 * `etc` beside git's installation prefix.
 */
async function systemAttributes(top: string): Promise<string[]> {
  try {
    const named = (await gitOutput(top, ['var', 'GIT_ATTR_SYSTEM'])).toString('utf8').trim();
    if (named !== '') return [named];
  } catch {
    // an older git: the usual places
  }
  const execPath = (await gitOutput(top, ['--exec-path'])).toString('utf8').trim();
  return ['/etc/gitattributes', join(dirname(dirname(execPath)), 'etc', 'gitattributes')];
}

/** The `.gitattributes` files that apply to a directory from above it, as work-tree paths: the top's and each down. */
export function attributesPathsAbove(prefix: string): string[] {
  const parts = prefix === '' ? [] : prefix.split('/');
  return parts.map((_, i) => [...parts.slice(0, i), '.gitattributes'].join('/'));
}

/**
 * A boolean as git reads one (`git_parse_maybe_bool`): `true`/`yes`/`on`, `false`/`no`/`off`/empty, else an integer
 * as `strtoimax` reads it in any base (`0x1f`, `017`, `+0`) with an optional `k`/`m`/`g` unit, true when not zero;
 * undefined when unset or when git would refuse the value.
 */
function gitBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (['true', 'yes', 'on'].includes(v)) return true;
  if (['false', 'no', 'off', ''].includes(v)) return false;
  const n = /^\s*[-+]?(?:0x([0-9a-f]+)|(0[0-7]*)|([1-9][0-9]*))[kmg]?$/.exec(v);
  if (n === null) return undefined;
  return /[^0]/.test(n[1] ?? n[2] ?? n[3] ?? '');
}

/** `git config --list -z`: `key\nvalue` records (the last of a key wins, as git reads it). */
function parseConfig(out: Buffer): Map<string, string> {
  const config = new Map<string, string>();
  for (const record of out.toString('utf8').split('\0')) {
    if (record === '') continue;
    const eol = record.indexOf('\n');
    config.set(
      (eol < 0 ? record : record.slice(0, eol)).toLowerCase(),
      eol < 0 ? 'true' : record.slice(eol + 1),
    );
  }
  return config;
}
