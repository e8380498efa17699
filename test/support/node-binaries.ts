import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The Node.js binaries the package tests run a user's commands on: the oldest Node the package's `engines` allows and
 * the project's own Node 24. Both come from the npm registry's `node` package (a `node` binary of the version asked
 * for, in `node_modules/node/bin/node`), never from the machine's PATH, so the tests run the same on any machine: the
 * project's Node 24 is its devDependency, the oldest one is installed once per machine into `.cache/node-MAJOR`.
 */

/** A Node.js binary and its version. */
export interface NodeBinary {
  readonly bin: string;
  readonly version: string;
}

type Version = readonly [number, number, number];

function parseVersion(text: string): Version {
  const [a = 0, b = 0, c = 0] = text.replace(/^v/, '').split('.').map(Number);
  return [a, b, c];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** One comparator of a range as [lowest allowed, first disallowed above] (a small subset of npm's semver). */
function bounds(comparator: string): [Version, Version | undefined] {
  const m = /^(>=|<=|>|<|=|\^|~)?v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(comparator);
  if (!m) throw new Error(`node-binaries: cannot read the engines comparator "${comparator}"`);
  const parts = [m[2], m[3], m[4]].map((p) =>
    p === undefined || p === 'x' || p === '*' ? undefined : Number(p),
  );
  const given = parts.filter((p) => p !== undefined).length;
  const v: Version = [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
  const next = (i: number): Version =>
    i === 0 ? [v[0] + 1, 0, 0] : i === 1 ? [v[0], v[1] + 1, 0] : [v[0], v[1], v[2] + 1];
  switch (m[1]) {
    case '>=':
      return [v, undefined];
    case '>':
      return [next(given - 1), undefined];
    case '<':
      return [[0, 0, 0], v];
    case '<=':
      return [[0, 0, 0], next(given - 1)];
    case '^':
      return [v, v[0] > 0 || given === 1 ? next(0) : next(1)];
    case '~':
      return [v, given === 1 ? next(0) : next(1)];
    default:
      return [v, next(given - 1)];
  }
}

const alternatives = (range: string): string[][] =>
  range.split('||').map((alternative) => alternative.trim().split(/\s+/).filter(Boolean));

const lowestOf = (alternative: readonly string[]): Version =>
  alternative.map((c) => bounds(c)[0]).reduce((a, b) => (compare(a, b) >= 0 ? a : b), [0, 0, 0]);

/** Whether `version` satisfies the `engines` range (`>=20.19 <21 || >=22.12`, `^20.19.0`, …). */
export function satisfies(range: string, version: string): boolean {
  const v = parseVersion(version);
  return alternatives(range).some((alternative) =>
    alternative.every((c) => {
      const [low, high] = bounds(c);
      return compare(v, low) >= 0 && (high === undefined || compare(v, high) < 0);
    }),
  );
}

/** The alternative of the range that allows the lowest Node (`^20.19.0` of `^20.19.0 || >=22.12.0`). */
export function lowestAlternative(range: string): string {
  const sorted = alternatives(range).sort((a, b) => compare(lowestOf(a), lowestOf(b)));
  return (sorted[0] ?? []).join(' ');
}

/** The major version of the lowest Node the range allows. */
export function lowestMajor(range: string): number {
  return lowestOf(alternatives(lowestAlternative(range))[0] ?? [])[0];
}

/** The `engines.node` range of the package at `root`. */
export function enginesOf(root: string): string {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    engines?: { node?: string };
  };
  return manifest.engines?.node ?? '*';
}

/** The `node` binary of an npm `node` package installed under `prefix`, if there is one that runs. */
function nodeUnder(prefix: string): NodeBinary | undefined {
  const bin = join(prefix, 'node_modules/node/bin/node');
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    return undefined;
  }
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  return /^v\d+\.\d+\.\d+$/.test(version) ? { bin, version } : undefined;
}

/** The project's own Node 24: its devDependency `node`, node_modules/node/bin/node. */
export function projectNode(root: string): NodeBinary {
  const node = nodeUnder(root);
  if (node === undefined) throw new Error(`node-binaries: no node_modules/node/bin/node in ${root} (npm ci)`);
  return node;
}

/**
 * The oldest Node `engines` allows: the newest release of its lowest alternative (`node@^20.19.0`), from the npm
 * registry's `node` package, installed into `ROOT/.cache/node-MAJOR` the first time (a few seconds, about 100 MB) and
 * reused after. Installed beside the cache and renamed into place, so that test files running at once never see half
 * an install.
 */
export function oldestAllowedNode(root: string): NodeBinary {
  const engines = enginesOf(root);
  const spec = lowestAlternative(engines);
  const prefix = join(root, '.cache', `node-${lowestMajor(engines)}`);
  const cached = nodeUnder(prefix);
  if (cached !== undefined && satisfies(spec, cached.version)) return cached;

  const staging = mkdtempSync(`${prefix}.tmp-`);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(npm_|NODE_OPTIONS$|INIT_CWD$)/i.test(k)) env[k] = v;
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d !== '' && !d.includes('node_modules'))
    .join(delimiter);
  const args = ['install', '--prefix', staging, '--no-save', '--no-fund', '--no-audit', '--loglevel=error'];
  const r = spawnSync('npm', [...args, `node@${spec}`], { env, encoding: 'utf8', timeout: 600_000 });
  const installed = nodeUnder(staging);
  if (r.status !== 0 || installed === undefined || !satisfies(spec, installed.version)) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `node-binaries: npm install node@${spec} exited ${r.status}: ${r.stdout}${r.stderr}${r.error ?? ''}`,
    );
  }
  if (cached !== undefined) rmSync(prefix, { recursive: true, force: true }); // an older install, of another range
  try {
    renameSync(staging, prefix);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another test file installed it first
  }
  const node = nodeUnder(prefix);
  if (node === undefined || !satisfies(spec, node.version))
    throw new Error(`node-binaries: no Node satisfying ${spec} in ${prefix}`);
  return node;
}
