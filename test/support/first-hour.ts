import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import type { NodeBinary } from './node-binaries.js';

/**
 * Helpers of test/examples/first-hour.test.ts: the README's marked blocks, and running a block's commands as a user's
 * shell would, with one Node (test/support/node-binaries.ts) first on PATH.
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

/** PATH without the entries inside `root` (the project's own node_modules/.bin and its Node). */
export function pathOutside(root: string): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => p !== '' && !resolve(p).startsWith(resolve(root) + sep))
    .join(delimiter);
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
