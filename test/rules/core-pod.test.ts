import { describe, expect, it } from 'vitest';
import { validateBuiltIn } from '../../src/rules/validate.js';

/**
 * The pod fields of src/rules/core-security-context.ts, core-tolerations.ts, core-affinity.ts,
 * core-topology-spread.ts and core-lifecycle.ts are reached from every pod template, checked as the Pod it becomes.
 */

const labels = { app: 'web' };
const deployment = (
  pod: Record<string, unknown>,
  container: Record<string, unknown> = {},
  init?: unknown,
) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'fuzz' },
  spec: {
    selector: { matchLabels: labels },
    template: {
      metadata: { labels },
      spec: {
        containers: [{ name: 'web', image: 'nginx', ...container }],
        ...(init === undefined ? {} : { initContainers: [init] }),
        ...pod,
      },
    },
  },
});
const paths = (o: Record<string, unknown>) => validateBuiltIn(o).map((p) => p.path);
const S = 'spec.template.spec';

describe('the pod fields of a pod template (core-pod)', () => {
  it('reaches the security contexts, tolerations, affinity and spread constraints of a template', () => {
    expect(paths(deployment({ securityContext: { runAsUser: -1 } }))).toEqual([
      `${S}.securityContext.runAsUser`,
    ]);
    expect(paths(deployment({}, { securityContext: { procMount: 'Unmasked' } }))).toEqual([
      `${S}.containers[0].securityContext.procMount`,
    ]);
    expect(
      paths(
        deployment({ securityContext: { hostUsers: false } }, { securityContext: { procMount: 'Unmasked' } }),
      ),
    ).toEqual([]);
    expect(paths(deployment({ tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] }))).toEqual([
      `${S}.tolerations[0].value`,
    ]);
    expect(
      paths(
        deployment({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{}] } } }),
      ),
    ).toEqual([`${S}.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey`]);
    expect(
      paths(
        deployment({
          topologySpreadConstraints: [
            { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
          ],
        }),
      ),
    ).toEqual([`${S}.topologySpreadConstraints[0].maxSkew`]);
  });

  it("merges the template's labels into matchLabelKeys selectors, and a Pod's own labels", () => {
    const spread = {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: labels },
          matchLabelKeys: ['app'],
        },
      ],
    };
    expect(paths(deployment(spread))).toEqual([`${S}.topologySpreadConstraints[0].matchLabelKeys[0]`]);
    const pod = (meta: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', ...meta },
      spec: { containers: [{ name: 'web', image: 'nginx' }], ...spread },
    });
    expect(paths(pod({ labels }))).toEqual(['spec.topologySpreadConstraints[0].matchLabelKeys[0]']);
    expect(paths(pod({}))).toEqual([]);
  });

  it("checks hooks against the pod's grace period, and takes them on a sidecar only among init containers", () => {
    const sleep = (seconds: number) => ({ lifecycle: { preStop: { sleep: { seconds } } } });
    expect(paths(deployment({}, sleep(30)))).toEqual([]);
    expect(paths(deployment({}, sleep(31)))).toEqual([`${S}.containers[0].lifecycle.preStop.sleep.seconds`]);
    expect(paths(deployment({ terminationGracePeriodSeconds: 60 }, sleep(31)))).toEqual([]);
    const init = { name: 'init', image: 'busybox', ...sleep(1) };
    expect(paths(deployment({}, {}, init))).toEqual([`${S}.initContainers[0].lifecycle`]);
    expect(paths(deployment({}, {}, { ...init, restartPolicy: 'Always' }))).toEqual([]);
  });
});
