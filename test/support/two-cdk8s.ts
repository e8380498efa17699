import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoTempDir } from './tmp.js';

/**
 * A cdk8s app the way a user's project can be laid out: its own `node_modules/cdk8s` (a separate copy, so its
 * `ApiObject`, `Chart` and `App` are other classes than the ones specforge's `lib/` extends), and specforge from
 * this repository's `lib/` (needs `npx tsc -p tsconfig.build.json`). `instanceof App` across the two copies is
 * false; cdk8s' `ApiObject.isApiObject` and `Chart.isChart` are true.
 */

const ROOT = resolve(import.meta.dirname, '../..');

/** Where the app scripts run: a project with its own copy of cdk8s, or (`one`) one inside this repository. */
export type Layout = 'two copies' | 'one copy';

const projects = new Map<Layout, string>();

function project(layout: Layout): string {
  const known = projects.get(layout);
  if (known !== undefined) return known;
  // Under the repository, so anything the project does not hold itself (constructs, cdk8s-plus) resolves to this
  // repository's node_modules, as in a monorepo.
  const dir = repoTempDir('cdk8s-app-');
  if (layout === 'two copies') {
    const modules = join(dir, 'node_modules');
    mkdirSync(modules);
    cpSync(realpathSync(join(ROOT, 'node_modules/cdk8s')), join(modules, 'cdk8s'), {
      recursive: true,
      dereference: true,
    });
    symlinkSync(ROOT, join(modules, 'specforge'), 'dir');
  }
  projects.set(layout, dir);
  return dir;
}

/** Removes the projects made so far. */
export function removeProjects(): void {
  for (const dir of projects.values()) rmSync(dir, { recursive: true, force: true });
  projects.clear();
}

/**
 * Runs `script` (an ES module importing `cdk8s` and `specforge`) as `app.mjs` of a project laid out as `layout`,
 * with `args`, and returns what it printed to stdout, parsed as JSON. Throws with its stderr when it fails.
 */
export function runApp(layout: Layout, script: string, args: readonly string[] = []): any {
  const dir = project(layout);
  const file = join(dir, `app-${projects.size}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`app.mjs failed (${String(r.status)}):\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

/**
 * Script lines that tell whether the app's cdk8s is another copy than specforge's: `copies` is 2 when the
 * `ApiObject` specforge's `ManifestObject` extends is not the app's. (cdk8s' `ApiObject` and `Chart` answer
 * `instanceof` with `isApiObject`/`isChart`, so `instanceof` cannot tell; `App` has neither.)
 */
export const COPIES = `
import { ApiObject as AppApiObject } from 'cdk8s';
import { ManifestObject as ProbeObject } from 'specforge';
const copies = Object.getPrototypeOf(ProbeObject) === AppApiObject ? 1 : 2;
`;
