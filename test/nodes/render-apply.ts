/**
 * The GitOps path of the node suites: specs in a temporary repository, `specforge render` (the built CLI), and dist/
 * applied as Flux's kustomize-controller applies it (server-side apply under its field manager).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { kubectl } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FLUX_SSA = ['apply', '--server-side', '--force-conflicts', '--field-manager=kustomize-controller'];

/** Writes `files` (path under the repository → text) into `repo`. */
export function writeRepo(repo: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
}

/** `specforge render CHARTS --out OUT` in `cwd` (default: `charts` into `dist` of `repo`); throws with its output. */
export function render(repo: string, charts = 'charts', out = 'dist'): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'specforge.js'), 'render', charts, '--out', out], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`specforge render exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Applies one rendered chart directory (its kustomization) the way kustomize-controller does. */
export function applyChart(repo: string, chart: string, out = 'dist'): string {
  return kubectl([...FLUX_SSA, '-k', join(repo, out, chart)]);
}

export function rollout(namespace: string, deployment: string, timeoutS = 180): void {
  kubectl(['rollout', 'status', `deployment/${deployment}`, '-n', namespace, `--timeout=${timeoutS}s`]);
}
