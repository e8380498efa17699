/** Deployment, StatefulSet, DaemonSet, ReplicaSet and Job cases of test/diff/effects/immutable-cases.ts. */
import { edited, type CaseKit, type Json } from './immutable-case-kit.js';

/** The pod template of the Job (and CronJob) cases. */
export const JOB_TEMPLATE = {
  spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1' }] },
};

export function workloadCases({ id, meta, add }: CaseKit): void {
  const labels = { app: `w-${id}` };
  const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta('dep'),
    spec: { replicas: 1, selector: { matchLabels: labels }, template },
  };
  const reselect = (c: Json): void => {
    c.spec.selector.matchLabels.tier = 'x';
    c.spec.template.metadata.labels.tier = 'x';
  };
  add('Deployment selector changed', 'selector-immutable', deployment, reselect);
  add('Deployment replicas changed', undefined, { ...deployment, metadata: meta('dep2') }, (c) => {
    c.spec.replicas = 2;
  });
  const sts = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: meta('sts'),
    spec: { replicas: 1, serviceName: 'a', selector: { matchLabels: labels }, template },
  };
  add('StatefulSet serviceName changed', 'statefulset-immutable', sts, (c) => (c.spec.serviceName = 'b'));
  add(
    'StatefulSet podManagementPolicy changed',
    'statefulset-immutable',
    { ...sts, metadata: meta('sts2') },
    (c) => {
      c.spec.podManagementPolicy = 'Parallel';
    },
  );
  add(
    'StatefulSet podManagementPolicy default spelled out',
    undefined,
    { ...sts, metadata: meta('sts5') },
    (c) => {
      c.spec.podManagementPolicy = 'OrderedReady';
    },
  );
  add('StatefulSet minReadySeconds changed', undefined, { ...sts, metadata: meta('sts3') }, (c) => {
    c.spec.minReadySeconds = 5;
    c.spec.revisionHistoryLimit = 3;
  });

  add(
    'StatefulSet volumeClaimTemplates changed',
    'statefulset-immutable',
    { ...sts, metadata: meta('sts4') },
    (c) => {
      c.spec.volumeClaimTemplates = [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ];
    },
  );
  for (const kind of ['DaemonSet', 'ReplicaSet']) {
    const o = {
      apiVersion: 'apps/v1',
      kind,
      metadata: meta(kind.toLowerCase()),
      spec: { selector: { matchLabels: labels }, template },
    };
    add(`${kind} selector changed`, 'selector-immutable', o, reselect);
  }

  const jobTemplate = JOB_TEMPLATE;
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta('job'),
    spec: { suspend: true, completions: 2, parallelism: 2, template: jobTemplate },
  };
  const aJob = (n: string) => ({ ...job, metadata: meta(n) });
  add('Job template changed', 'job-immutable', aJob('job1'), (c) => {
    c.spec.template.spec.containers[0].image = 'busybox:2';
  });
  add(
    'Job completionMode changed',
    'job-spec-immutable',
    aJob('job2'),
    (c) => (c.spec.completionMode = 'Indexed'),
  );
  add('Job completions changed', 'job-completions-immutable', aJob('job3'), (c) => (c.spec.completions = 3));
  add(
    'Indexed Job completions changed with parallelism',
    undefined,
    edited(aJob('job4'), (c) => {
      c.spec.completionMode = 'Indexed';
    }),
    (c) => {
      c.spec.completions = 3;
      c.spec.parallelism = 3;
    },
  );
  add(
    'Job activeDeadlineSeconds changed',
    undefined,
    aJob('job5'),
    (c) => (c.spec.activeDeadlineSeconds = 60),
  );
}
