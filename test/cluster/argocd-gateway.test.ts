/**
 * Argo CD's own code (test/gitops-tools/argocd-probe: gitops-engine's Sync, with the Lua health checks Argo CD ships)
 * over the Gateway API example chart (dist/myapp-gateway), on a real kube-apiserver:
 * - with the Gateway API CRDs not installed, the HTTPRoutes' `SkipDryRunOnMissingResource=true` lets the sync apply
 *   the rest of the chart (without it, the dry run fails and nothing is applied);
 * - with them installed, Argo CD's built-in health check of HTTPRoute holds the next wave until a Gateway reports the
 *   route Accepted with its references resolved, and fails the sync once it reports ResolvedRefs false: the wait
 *   that `PruneLast=true` puts the Ingress's prune behind (gitops-engine prunes it in a wave after the last).
 * Each on a private control plane.
 */
import { spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_WAVE } from '../../src/gitops/argocd-order.js';
import { repoTempDir } from '../support/tmp.js';
import { startPrivateControlPlane, type ControlPlane } from './control-plane.js';
import type { Manifest } from './dist-objects.js';
import { gitopsDescribe, installCrdFiles, kubectlAt, ROOT, type GitopsTools } from './gitops-tools.js';

const CHART = join(ROOT, 'dist/myapp-gateway');
const NAMESPACE = 'myapp-gateway';
const ROUTES = ['web', 'always200'];
const HTTP_ROUTE_CRD = join(ROOT, 'test/fixtures/gateway-api/gateway.networking.k8s.io_httproutes.yaml');
const SKIP_DRY_RUN = 'argocd.argoproj.io/sync-options: SkipDryRunOnMissingResource=true';

interface SyncOutcome {
  readonly phase: string;
  readonly message: string;
  readonly applies: { kind: string; name: string; error?: string }[];
  readonly results: { Kind: string; Name: string; Status: string; Message: string }[];
}

/** The chart's YAML files (but its kustomization.yaml) copied into `dir`, each passed through `edit`. */
function chartFiles(dir: string, edit: (text: string) => string = (t) => t): string[] {
  return readdirSync(CHART)
    .filter((f) => f !== 'kustomization.yaml')
    .sort()
    .map((f) => {
      const file = join(dir, f);
      writeFileSync(file, edit(readFileSync(join(CHART, f), 'utf8')));
      return file;
    });
}

/** The probe's answer; Go writes an empty list as null. */
function outcomeOf(out: string): SyncOutcome {
  const o = JSON.parse(out) as SyncOutcome;
  return { ...o, applies: o.applies ?? [], results: o.results ?? [] };
}

/** gitops-engine's Sync of the files, as Argo CD's application controller runs it; resolves when it completes. */
function sync(tools: GitopsTools, cp: ControlPlane, files: readonly string[]): Promise<SyncOutcome> {
  const args = ['sync', '--kubeconfig', cp.info.kubeconfigPath, '--server-side', '--workloads-healthy'];
  const child = spawn(tools.argocdProbe, [...args, '--timeout', '60s', ...files], {
    env: { ...process.env, PATH: `${tools.dir}:${process.env.PATH}`, ARGOCD_SYNC_WAVE_DELAY: '0' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve(outcomeOf(out)) : reject(new Error(`argocd-probe ${code}: ${err}`)),
    ),
  );
}

/** What a Gateway's controller writes: its verdict on the route for the route's parent, at its generation. */
function reportStatus(cp: ControlPlane, name: string, resolved: boolean): void {
  const route = JSON.parse(
    kubectlAt(cp.info, ['get', 'httproute', name, '-n', NAMESPACE, '-o', 'json']).stdout,
  ) as Manifest;
  const condition = (type: string, ok: boolean) => ({
    type,
    status: ok ? 'True' : 'False',
    reason: ok ? type : 'BackendNotFound',
    message: ok ? `${type} by the test` : 'backend missing',
    observedGeneration: route.metadata.generation,
    lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  });
  const status = {
    parents: route.spec.parentRefs.map((parentRef: Manifest) => ({
      parentRef,
      controllerName: 'example.com/gateway-controller',
      conditions: [condition('Accepted', true), condition('ResolvedRefs', resolved)],
    })),
  };
  kubectlAt(cp.info, [
    'patch',
    'httproute',
    name,
    '-n',
    NAMESPACE,
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify({ status }),
  ]);
}

/** Resolves once every route of the chart exists, then reports each with `resolved`. */
async function whenRoutesExist(cp: ControlPlane, resolved: boolean): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const r = kubectlAt(cp.info, ['get', 'httproutes', '-n', NAMESPACE, '-o', 'name'], { allow: [0, 1] });
    if (ROUTES.every((n) => r.stdout.includes(`/${n}\n`))) {
      // a moment with no status: Argo CD's check says Progressing, and the sync waits
      await new Promise((done) => setTimeout(done, 1000));
      for (const n of ROUTES) reportStatus(cp, n, resolved);
      return;
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error('the HTTPRoutes were never applied');
}

/** A ConfigMap of the next wave: applied only once everything of wave 0, the routes among them, is healthy. */
const NEXT_WAVE = `apiVersion: v1
kind: ConfigMap
metadata:
  name: after-routes
  namespace: ${NAMESPACE}
  annotations:
    ${SYNC_WAVE}: "1"
`;

gitopsDescribe('Argo CD syncs the Gateway API chart (gitops-engine Sync, Argo CD health checks)', (tools) => {
  let dir: string;
  beforeAll(() => {
    dir = repoTempDir('argocd-gateway-');
    cpSync(CHART, join(dir, 'chart'), { recursive: true });
    expect(readFileSync(join(CHART, 'myapp.myapp-gateway.web.yaml'), 'utf8')).toContain(SKIP_DRY_RUN);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('on a cluster without the Gateway API CRDs', () => {
    let cp: ControlPlane;
    beforeAll(async () => {
      cp = await startPrivateControlPlane();
    });
    afterAll(async () => {
      await cp?.stop();
    });

    it('applies nothing at all when the routes lack SkipDryRunOnMissingResource (the dry run fails)', async () => {
      const files = chartFiles(repoTempDir('argocd-gateway-bare-'), (t) =>
        t.replace(
          /\n {2}annotations:\n {4}argocd\.argoproj\.io\/sync-options: SkipDryRunOnMissingResource=true/g,
          '',
        ),
      );
      expect(files.some((f) => readFileSync(f, 'utf8').includes('SkipDryRunOnMissingResource'))).toBe(false);
      const outcome = await sync(tools, cp, files);
      expect(outcome.phase).toBe('Failed');
      expect(outcome.applies).toEqual([]);
      expect(kubectlAt(cp.info, ['get', 'namespace', NAMESPACE], { allow: [1] }).stderr).toMatch(/NotFound/);
    });

    it('applies the rest of the chart with it, only the routes failing until the platform installs the CRDs', async () => {
      const outcome = await sync(tools, cp, chartFiles(repoTempDir('argocd-gateway-skip-')));
      expect(outcome.phase).toBe('Failed');
      const applied = outcome.applies.filter((a) => a.error === undefined).map((a) => `${a.kind}/${a.name}`);
      expect(applied).toEqual(
        expect.arrayContaining([
          `Namespace/${NAMESPACE}`,
          'Service/web',
          'Deployment/web',
          'Service/always200',
          'Deployment/always200',
        ]),
      );
      expect(applied.filter((a) => a.startsWith('HTTPRoute/'))).toEqual([]);
      expect(outcome.results.filter((r) => r.Kind === 'HTTPRoute').map((r) => r.Status)).toEqual([
        'SyncFailed',
        'SyncFailed',
      ]);
      kubectlAt(cp.info, ['get', 'deployment', 'web', '-n', NAMESPACE]);
    });
  });

  describe('on a cluster with them', () => {
    let cp: ControlPlane;
    beforeAll(async () => {
      cp = await startPrivateControlPlane();
      await installCrdFiles(cp.info, [HTTP_ROUTE_CRD]);
    });
    afterAll(async () => {
      await cp?.stop();
    });

    it('holds the next wave until the Gateway accepts the routes with their references resolved', async () => {
      const files = chartFiles(repoTempDir('argocd-gateway-ok-'));
      const next = join(dir, 'next-wave.yaml');
      writeFileSync(next, NEXT_WAVE);
      const [outcome] = await Promise.all([sync(tools, cp, [...files, next]), whenRoutesExist(cp, true)]);
      expect(outcome.message).toBe('successfully synced (all tasks run)');
      expect(outcome.phase).toBe('Succeeded');
      expect(outcome.results.filter((r) => r.Kind === 'HTTPRoute').map((r) => r.Message)).toEqual([
        'HTTPRoute is healthy',
        'HTTPRoute is healthy',
      ]);
      const kinds = outcome.applies.map((a) => a.kind);
      expect(kinds.at(-1)).toBe('ConfigMap');
      // Within wave 0, gitops-engine applied each route after the Service it routes to (kind order).
      for (const n of ROUTES)
        expect(kinds.indexOf('Service')).toBeLessThan(
          outcome.applies.findIndex((a) => a.kind === 'HTTPRoute' && a.name === n),
        );
    });

    it('fails the sync, the next wave never applied, once a route reports ResolvedRefs false', async () => {
      const fresh = await startPrivateControlPlane();
      try {
        await installCrdFiles(fresh.info, [HTTP_ROUTE_CRD]);
        const files = chartFiles(repoTempDir('argocd-gateway-bad-'));
        const next = join(dir, 'next-wave.yaml');
        writeFileSync(next, NEXT_WAVE);
        const [outcome] = await Promise.all([
          sync(tools, fresh, [...files, next]),
          whenRoutesExist(fresh, false),
        ]);
        expect(outcome.phase).toBe('Failed');
        expect(outcome.results.filter((r) => r.Kind === 'HTTPRoute').map((r) => r.Message)).toEqual([
          expect.stringMatching(/^Parent shared: backend missing/),
          expect.stringMatching(/^Parent shared: backend missing/),
        ]);
        expect(outcome.applies.map((a) => a.kind)).not.toContain('ConfigMap');
      } finally {
        await fresh.stop();
      }
    });
  });
});
