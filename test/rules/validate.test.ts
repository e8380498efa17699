import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasRuleSet, kindsWithRuleSets, validateBuiltIn } from '../../src/rules/validate.js';
import { checkObject } from '../../src/rules/object-rules.js';
import { repoTempDir, tempDir, writeFiles } from '../support/tmp.js';
import { GATE_CASES, chartModule } from './validate-cases.js';

/**
 * The built-in validation is the gate of every object that leaves a render, whoever built it: the objects of
 * issue 45 that kube-apiserver refuses, each built by a chart module as a new user writes one, stop the render
 * (bin/specforge.js, the built lib/ behind it: `npm run build` first) with one error per object naming the module
 * and the field, all together, and dist/ untouched; their valid neighbours render.
 */

const ROOT = resolve(import.meta.dirname, '../..');

/** `specforge render <charts> --out <dist>` in a process of its own, from the charts' parent as a user runs it. */
function render(charts: string, dist: string): { status: number | null; stderr: string; stdout: string } {
  return spawnSync(
    process.execPath,
    [join(ROOT, 'bin/specforge.js'), 'render', basename(charts), '--out', dist],
    {
      encoding: 'utf8',
      cwd: dirname(charts),
      timeout: 120_000,
    },
  );
}

function chartsOf(pick: (c: (typeof GATE_CASES)[number]) => Record<string, unknown>): string {
  return writeFiles(
    repoTempDir('gate-'),
    Object.fromEntries(
      GATE_CASES.map((c) => [`${c.chart}/chart.ts`, chartModule([pick(c), ...(c.beside ?? [])])]),
    ),
  );
}

describe('the built-in validation of every rendered object', () => {
  it('renders the valid neighbour of each case, then refuses every refused one naming module and field, all in one run, that render untouched', () => {
    const dist = join(tempDir(), 'dist');
    const ok = render(
      chartsOf((c) => c.valid),
      dist,
    );
    expect(ok.stderr).not.toContain('expected'); // notes only (several charts render one Deployment fuzz/web)
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain(`from ${GATE_CASES.length} charts`);
    const before = snapshot(dist);
    const charts = chartsOf((c) => c.refused);
    const r = render(charts, dist);
    expect(r.status).toBe(1);
    for (const c of GATE_CASES) {
      const line = r.stderr
        .split('\n')
        .find((l) => l.startsWith(`${basename(charts)}/${c.chart}/chart.ts (`));
      expect(line, `an error for ${c.chart}`).toBeDefined();
      expect(line).toContain(`) ${c.field}`);
    }
    expect(r.stderr).toContain(`${GATE_CASES.length} errors`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // one sentence each, no stack trace
    expect(snapshot(dist)).toEqual(before);
  }, 180_000);

  it('gives every object of a kind with a rule set its problems, and none to the valid one', () => {
    for (const c of GATE_CASES) {
      expect(
        checkObject(c.refused).map((p) => p.path),
        c.chart,
      ).toContainEqual(expect.stringContaining(c.field));
      expect(checkObject(c.valid), c.chart).toEqual([]);
    }
  });

  it('takes what the API server takes where the differential test found it lenient or defaulting', () => {
    const paths = (o: Record<string, unknown>) => validateBuiltIn(o).map((p) => p.path);
    const pod = (c: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      spec: { containers: [{ name: 'a', image: 'x', ...c }] },
    });
    expect(
      paths(pod({ readinessProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 10 } })),
    ).toEqual(['spec.containers[0].readinessProbe.terminationGracePeriodSeconds']);
    expect(
      paths(pod({ livenessProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 10 } })),
    ).toEqual([]);
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    };
    expect(paths({ ...binding, subjects: [{ kind: 'User', name: 'jane' }] })).toEqual([]);
    expect(paths({ ...binding, subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac' }] })).toEqual([
      'subjects[0].apiGroup',
    ]);
    const template = {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'a', image: 'x' }], restartPolicy: 'Never' },
    };
    const daemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { ...template, spec: { containers: template.spec.containers } },
      },
    };
    expect(
      paths({
        ...daemonSet,
        spec: {
          ...daemonSet.spec,
          updateStrategy: { type: 'OnDelete', rollingUpdate: { maxUnavailable: 1 } },
        },
      }),
    ).toEqual([]);
    const job = (spec: Record<string, unknown>) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      spec: { template, completionMode: 'Indexed', ...spec },
    });
    expect(paths(job({}))).toEqual([]);
    expect(paths(job({ parallelism: 2 }))).toEqual(['spec.completions']);
    const cronJob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      spec: { schedule: '@daily', jobTemplate: job({}) },
    };
    expect(paths(cronJob)).toEqual(['spec.jobTemplate.spec.completions']); // a template is not defaulted
    expect(
      paths({
        apiVersion: 'v1',
        kind: 'LimitRange',
        spec: { limits: [{ type: 'Container', max: { cpu: '-1' } }] },
      }),
    ).toEqual([]);
    expect(paths({ apiVersion: 'v1', kind: 'ServiceAccount', imagePullSecrets: [{ name: '' }] })).toEqual([]);
  });

  it('takes what kube-apiserver v1.34 takes where the review found it refused: claim-template mounts, resource claims, host ports (and no host port but the container port under hostNetwork)', () => {
    const paths = (o: Record<string, unknown>) => validateBuiltIn(o).map((p) => p.path);
    const template = (spec: Record<string, unknown>) => ({
      metadata: { labels: { app: 'db' } },
      spec: {
        containers: [{ name: 'c', image: 'x', volumeMounts: [{ name: 'data', mountPath: '/d' }] }],
        ...spec,
      },
    });
    const statefulSet = (extra: Record<string, unknown>) => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: { selector: { matchLabels: { app: 'db' } }, template: template({}), ...extra },
    });
    // A StatefulSet's Pods get a volume per claim template: a mount of one is no mount of a missing volume.
    const claim = {
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    };
    expect(paths(statefulSet({ volumeClaimTemplates: [claim] }))).toEqual([]);
    expect(paths(statefulSet({}))).toEqual(['spec.template.spec.containers[0].volumeMounts[0].name']);
    // A container's resources.claims may name the pod's spec.resourceClaims (Dynamic Resource Allocation).
    const pod = (spec: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec,
    });
    const claims = { claims: [{ name: 'gpu' }] };
    expect(
      paths(
        pod({
          resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 't' }],
          containers: [{ name: 'c', image: 'x', resources: claims }],
        }),
      ),
    ).toEqual([]);
    expect(paths(pod({ containers: [{ name: 'c', image: 'x', resources: claims }] }))).toEqual([
      'spec.containers[0].resources.claims[0]',
    ]);
    // Host ports: an init container's port an app container uses too is taken (a warning), and under hostNetwork a
    // container port is a host port.
    const port80 = { ports: [{ containerPort: 80, hostPort: 80 }] };
    expect(
      paths(
        pod({
          initContainers: [{ name: 'i', image: 'x', ...port80 }],
          containers: [{ name: 'c', image: 'x', ...port80 }],
        }),
      ),
    ).toEqual([]);
    const listens = (name: string) => ({ name, image: 'x', ports: [{ containerPort: 8080 }] });
    expect(paths(pod({ hostNetwork: true, containers: [listens('a'), listens('b')] }))).toEqual([
      'spec.containers[1].ports[0].containerPort',
    ]);
    expect(paths(pod({ containers: [listens('a'), listens('b')] }))).toEqual([]);
    // Under hostNetwork a host port given is the container port (a template's unset one is defaulted in its Pod).
    const hostPort = (h: number) => ({
      name: 'a',
      image: 'x',
      ports: [{ containerPort: 8080, hostPort: h }],
    });
    expect(paths(pod({ hostNetwork: true, containers: [hostPort(8081)] }))).toEqual([
      'spec.containers[0].ports[0].hostPort',
    ]);
    expect(paths(pod({ hostNetwork: true, containers: [hostPort(8080)] }))).toEqual([]);
    expect(paths(pod({ containers: [hostPort(8081)] }))).toEqual([]);
  });

  it('refuses ephemeral containers in a Pod and in a pod template, as a create refuses them, and takes an empty list', () => {
    const paths = (o: Record<string, unknown>) => validateBuiltIn(o).map((p) => p.path);
    const spec = (ephemeralContainers: unknown[]) => ({
      containers: [{ name: 'web', image: 'nginx' }],
      ephemeralContainers,
    });
    const debug = [{ name: 'debug', image: 'busybox' }];
    expect(paths({ apiVersion: 'v1', kind: 'Pod', spec: spec(debug) })).toEqual(['spec.ephemeralContainers']);
    expect(paths({ apiVersion: 'v1', kind: 'Pod', spec: spec([]) })).toEqual([]);
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      spec: { template: { spec: { ...spec(debug), restartPolicy: 'Never' } } },
    };
    expect(paths(job)).toEqual(['spec.template.spec.ephemeralContainers']);
  });

  it('says which kinds have a rule set, so the others can be named as checked against their schema only', () => {
    expect(hasRuleSet('apps', 'Deployment')).toBe(true);
    expect(hasRuleSet('', 'Service')).toBe(true);
    expect(hasRuleSet('batch', 'CronJob')).toBe(true);
    expect(hasRuleSet('', 'Deployment')).toBe(false);
    expect(hasRuleSet('storage.k8s.io', 'StorageClass')).toBe(false);
    expect(hasRuleSet('example.com', 'Widget')).toBe(false);
    expect(
      kindsWithRuleSets().every((k) => hasRuleSet(k.slice(0, k.indexOf('/')), k.slice(k.indexOf('/') + 1))),
    ).toBe(true);
    expect(validateBuiltIn({ apiVersion: 'example.com/v1', kind: 'Widget', spec: { replicas: -1 } })).toEqual(
      [],
    );
  });

  it('reads objects of any shape without throwing: wrong types are the schema check’s to report', () => {
    const odd = [null, 1, 'x', [], {}, [null], { a: null }];
    for (const kind of kindsWithRuleSets()) {
      const [group, name] = [kind.slice(0, kind.indexOf('/')), kind.slice(kind.indexOf('/') + 1)];
      const apiVersion = group === '' ? 'v1' : `${group}/v1`;
      for (const v of odd)
        for (const field of ['spec', 'data', 'rules', 'subjects', 'roleRef', 'template', 'metadata'])
          expect(() => validateBuiltIn({ apiVersion, kind: name, [field]: v })).not.toThrow();
      const deep = {
        containers: [
          { ports: v0(), env: v0(), resources: { limits: 'x' }, volumeMounts: v0(), livenessProbe: 1 },
        ],
        volumes: v0(),
      };
      expect(() =>
        validateBuiltIn({
          apiVersion,
          kind: name,
          spec: { template: { spec: deep }, ports: v0(), rules: v0() },
        }),
      ).not.toThrow();
    }
  });
});

/** Every file under `dir` with its text. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile())
      out[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), 'utf8');
  return out;
}

function v0(): unknown[] {
  return [null, 1, 'x', {}, { name: 1 }];
}
