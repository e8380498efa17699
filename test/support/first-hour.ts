import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve, sep } from 'node:path';

/**
 * Helpers of test/examples/first-hour.test.ts: the README's marked blocks, the Node versions on this machine, the
 * oldest one `engines` allows, and running a block's commands as a user's shell would, with one Node first on PATH.
 */

/** A fenced block the README marks `<!-- first-hour: SCENARIO -->`: a file to write, or `sh` commands to run. */
export interface ReadmeBlock {
  readonly scenario: string;
  readonly lang: string;
  readonly text: string;
}

/** Every marked block of the README, in the README's order. */
export function firstHourBlocks(readme: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  for (const m of readme.matchAll(/<!-- first-hour: ([\w-]+) -->\s*\n```(\w*)\n([\s\S]*?)\n```/g))
    blocks.push({ scenario: m[1] ?? '', lang: m[2] ?? '', text: `${m[3] ?? ''}\n` });
  return blocks;
}

/** The file a non-`sh` block names on its first line (`# charts/shop/web.yaml`, `// main.ts: …`). */
export function blockFile(block: ReadmeBlock): string | undefined {
  return /^(?:#|\/\/) ([\w./-]+?)(?::|\s|$)/.exec(block.text)?.[1];
}

/** The commands of an `sh` block: one per line (backslash continuations joined), blank and comment lines dropped. */
export function blockCommands(block: ReadmeBlock): string[] {
  return block.text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

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
  if (!m) throw new Error(`first-hour: cannot read the engines comparator "${comparator}"`);
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

/** Whether `version` satisfies the `engines` range (`>=20.19 <21 || >=22.12`, `^20.19.0`, …). */
export function satisfies(range: string, version: string): boolean {
  const v = parseVersion(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .every((c) => {
        const [low, high] = bounds(c);
        return compare(v, low) >= 0 && (high === undefined || compare(v, high) < 0);
      }),
  );
}

/** The major version of the lowest Node the range allows. */
export function lowestMajor(range: string): number {
  return Math.min(
    ...range.split('||').map((alternative) =>
      Math.max(
        0,
        ...alternative
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map((c) => bounds(c)[0][0]),
      ),
    ),
  );
}

/** PATH without the entries inside `root` (the project's own node_modules/.bin and its Node). */
export function pathOutside(root: string): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => p !== '' && !resolve(p).startsWith(resolve(root) + sep))
    .join(delimiter);
}

/** The Node binaries of this machine: each `node` on PATH outside `root`, and `extra` (the project's Node 24). */
export function nodesOnMachine(root: string, extra: readonly string[]): NodeBinary[] {
  const found = new Map<string, NodeBinary>();
  const candidates = [
    ...pathOutside(root)
      .split(delimiter)
      .map((dir) => join(dir, 'node')),
    ...extra,
  ];
  for (const bin of candidates) {
    try {
      accessSync(bin, constants.X_OK);
    } catch {
      continue;
    }
    const real = realpathSync(bin);
    if (found.has(real)) continue;
    const version = spawnSync(real, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (/^v\d+\.\d+\.\d+$/.test(version)) found.set(real, { bin: real, version });
  }
  return [...found.values()].sort((a, b) => compare(parseVersion(a.version), parseVersion(b.version)));
}

/**
 * The environment a user's shell gives a command: `node` first on PATH, the project's own tools nowhere on it, and
 * none of the `npm_*` variables `npm test` sets (npm_config_local_prefix would make npm install into this repository).
 */
export function userEnv(node: NodeBinary, root: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(npm_|INIT_CWD$|NODE$|NODE_OPTIONS$|VITEST|TSX_)/i.test(k)) env[k] = v;
  return {
    ...env,
    PATH: `${dirname(node.bin)}${delimiter}${pathOutside(root)}`,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

/** What one command printed and how it exited. */
export interface CommandRun {
  readonly command: string;
  readonly code: number;
  readonly out: string;
}

/** Runs one command line with bash in `cwd`, as a user's shell would. */
export function runCommand(command: string, cwd: string, env: NodeJS.ProcessEnv): CommandRun {
  const r = spawnSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 300_000 });
  return {
    command,
    code: r.status ?? -1,
    out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`,
  };
}

/** Writes a file block where its first line says, under `project`. */
export function writeBlockFile(project: string, block: ReadmeBlock): string {
  const file = blockFile(block);
  if (file === undefined) throw new Error(`first-hour: a ${block.lang} block names no file:\n${block.text}`);
  mkdirSync(dirname(join(project, file)), { recursive: true });
  writeFileSync(join(project, file), block.text);
  return file;
}

/** A stack trace line, as Node.js prints one. */
export const STACK_TRACE = /^ {4}at /m;
