/**
 * The GitOps tools the delivery tests run (scripts/build-gitops-tools.sh builds them once per machine): the Flux
 * CLI, kustomize, the probe over Argo CD's own code, and the tools' CRDs. Plus a kubectl bound to any control plane
 * (the delivery tests use private ones, so they see a cluster no other file has touched).
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe } from 'vitest';
import type { ControlPlaneInfo } from './control-plane.js';
import { clusterDescribe } from './helpers.js';

export const ROOT = resolve(import.meta.dirname, '../..');

export const GITOPS_BUILD_HINT =
  'GitOps delivery tests need flux, kustomize and the Argo CD probe: run `npm run gitops-tools` (needs Go; builds ' +
  'once per machine into ~/.cache/specforge/gitops-tools, linked at .cache/gitops-tools)';

export interface GitopsTools {
  readonly dir: string;
  readonly flux: string;
  readonly kustomize: string;
  readonly argocdProbe: string;
  /** CRD directories: `flux-kustomize-controller`, `flux-source-controller`, `argo-cd`. */
  readonly crds: string;
}

export function findGitopsTools(): GitopsTools | undefined {
  const machine = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'specforge', 'gitops-tools');
  for (const dir of [process.env.SPECFORGE_GITOPS_DIR, join(ROOT, '.cache/gitops-tools'), machine]) {
    if (dir === undefined) continue;
    const tools = {
      dir,
      flux: join(dir, 'flux'),
      kustomize: join(dir, 'kustomize'),
      argocdProbe: join(dir, 'argocd-probe'),
      crds: join(dir, 'crds'),
    };
    if ([tools.flux, tools.kustomize, tools.argocdProbe, tools.crds].every((p) => existsSync(p)))
      return tools;
  }
  return undefined;
}

/** A cluster suite that also needs the GitOps tools: skipped without them, except under CI=true, where it fails. */
export function gitopsDescribe(name: string, fn: (tools: GitopsTools) => void): void {
  const tools = findGitopsTools();
  if (tools !== undefined) return clusterDescribe(name, () => fn(tools));
  if (process.env.CI === 'true') throw new Error(`CI=true and no GitOps tools. ${GITOPS_BUILD_HINT}`);
  describe.skip(`${name} [skipped: ${GITOPS_BUILD_HINT}]`, () => undefined);
}

export interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program; a non-listed exit code throws with everything it printed. */
export function run(
  cmd: string,
  args: readonly string[],
  opts: { allow?: readonly number[]; input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Run {
  const r = spawnSync(cmd, args, {
    encoding: 'utf8',
    cwd: opts.cwd ?? ROOT,
    maxBuffer: 256 * 1024 * 1024,
    ...(opts.env === undefined ? {} : { env: opts.env }),
    ...(opts.input === undefined ? {} : { input: opts.input }),
  });
  const status = r.status ?? -1;
  if (!(opts.allow ?? [0]).includes(status))
    throw new Error(
      `${cmd} ${args.join(' ')} exited ${status}: ${r.stderr}${r.stdout}${r.error?.message ?? ''}`,
    );
  return { status, stdout: r.stdout, stderr: r.stderr };
}

/** kubectl of the test control plane's release against `info`'s API server. */
export function kubectlAt(
  info: ControlPlaneInfo,
  args: readonly string[],
  opts: { allow?: readonly number[]; input?: string; env?: NodeJS.ProcessEnv } = {},
): Run {
  return run(
    join(ROOT, '.cache/control-plane/kubectl'),
    ['--kubeconfig', info.kubeconfigPath, ...args],
    opts,
  );
}

/** Applies CRD files and waits until the API server serves every CRD (conditions appear a moment after create). */
export async function installCrdFiles(info: ControlPlaneInfo, paths: readonly string[]): Promise<void> {
  for (const p of paths)
    kubectlAt(info, ['apply', '--server-side', '--field-manager=specforge-test', '-f', p]);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = kubectlAt(info, ['wait', '--for=condition=Established', '--all', 'crd', '--timeout=30s'], {
      allow: [0, 1],
    });
    if (r.status === 0) return;
    if (Date.now() > deadline) throw new Error(`CRDs not established: ${r.stderr}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}
