/**
 * The vendored time zones (src/rules/time-zones.json, written by `npm run vendor-time-zones`) are names the test
 * kube-apiserver takes in a CronJob's `spec.timeZone`, every one of them; and the names specforge refuses as no zone
 * it refuses too. (Its host's own zoneinfo files, `posix/…` and the like, which it also takes, are refused by
 * specforge on purpose: src/rules/time-zone.ts.)
 */
import { beforeAll, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import type { Problem } from '../../src/rules/problem.js';
import { checkTimeZone } from '../../src/rules/time-zone.js';
import timeZones from '../../src/rules/time-zones.json' with { type: 'json' };
import { clusterDescribe, controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';

const CONCURRENCY = 24;
const NOT_ZONES = ['Mars/Base', 'Local', 'local', '', 'america/new_york', 'utc', '/Etc/UTC', 'Etc/GMT+15'];

let client: KubeClient;

/** kube-apiserver's verdict on a CronJob in `timeZone` (dry run): undefined when it takes it. */
async function verdict(timeZone: string): Promise<string | undefined> {
  const cronJob = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'zone', namespace: 'default' },
    spec: {
      schedule: '0 3 * * *',
      timeZone,
      jobTemplate: {
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'x' }] } } },
      },
    },
  };
  try {
    await client.request('POST', '/apis/batch/v1/namespaces/default/cronjobs?dryRun=All', cronJob);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

async function verdicts(names: readonly string[]): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      out.set(name, await verdict(name));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

clusterDescribe('the vendored time zones of a CronJob', () => {
  beforeAll(async () => {
    client = await KubeClient.fromKubeConfig(adminConfig(controlPlane()!));
  });

  it('are every one taken by kube-apiserver, and what specforge refuses as no zone it refuses', async () => {
    const taken = await verdicts(timeZones.names);
    expect([...taken].filter(([, v]) => v !== undefined)).toEqual([]);
    const refused = await verdicts(NOT_ZONES);
    for (const name of NOT_ZONES) {
      const out: Problem[] = [];
      checkTimeZone(['spec', 'timeZone'], name, out);
      expect(out, name).toHaveLength(1);
      expect(refused.get(name), name).toMatch(/timeZone/);
    }
  }, 120_000);
});
