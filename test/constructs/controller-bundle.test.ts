import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  ControllerBundle,
  DEFAULT_CONTROLLER_IMAGE,
  type ControllerBundleProps,
} from '../../src/constructs/controller-bundle.js';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [k: string]: unknown;
}

function synth(props?: ControllerBundleProps): Manifest[] {
  const chart = Testing.chart();
  new ControllerBundle(chart, 'bundle', props);
  return Testing.synth(chart) as Manifest[];
}

function find(objs: Manifest[], kind: string): Manifest {
  const o = objs.find((x) => x.kind === kind);
  if (o === undefined) throw new Error(`no ${kind}`);
  return o;
}

const CLUSTER_SCOPED = ['CustomResourceDefinition', 'Namespace', 'ClusterRole', 'ClusterRoleBinding'];

describe('ControllerBundle', () => {
  it('emits the CRD, Namespace, ServiceAccount, RBAC, Lease Role, Deployment and metrics Service', () => {
    expect(synth().map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'CustomResourceDefinition/nodepools.nodes.specforge.dev',
      'Namespace/specforge-system',
      'ServiceAccount/specforge-controller',
      'ClusterRole/specforge-controller',
      'ClusterRoleBinding/specforge-controller',
      'Role/specforge-controller',
      'RoleBinding/specforge-controller',
      'Deployment/specforge-controller',
      'Service/specforge-controller',
    ]);
  });

  it('puts no namespace on cluster-scoped objects and its own namespace on the others', () => {
    for (const o of synth({ namespace: 'ops' })) {
      if (CLUSTER_SCOPED.includes(o.kind)) expect(o.metadata.namespace, o.kind).toBeUndefined();
      else expect(o.metadata.namespace, o.kind).toBe('ops');
    }
  });

  it("enforces Pod Security restricted on its own namespace, which the controller's pods meet", () => {
    expect(find(synth(), 'Namespace').metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe(
      'restricted',
    );
  });

  it('grants exactly the verbs the controller uses, and Lease access only in its namespace', () => {
    const objs = synth();
    expect(find(objs, 'ClusterRole').rules).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
      { apiGroups: ['nodes.specforge.dev'], resources: ['nodepools'], verbs: ['list', 'watch', 'patch'] },
      { apiGroups: ['nodes.specforge.dev'], resources: ['nodepools/status'], verbs: ['patch'] },
      { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create'] },
    ]);
    expect(find(objs, 'Role').rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
    ]);
    expect(find(objs, 'ClusterRoleBinding').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'specforge-controller', namespace: 'specforge-system' },
    ]);
  });

  it('runs 2 replicas with a restricted security context, probes and resource requests', () => {
    const dep = find(synth(), 'Deployment') as Manifest & { spec: any };
    expect(dep.spec.replicas).toBe(2);
    const pod = dep.spec.template.spec;
    expect(pod.serviceAccountName).toBe('specforge-controller');
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    const [c] = pod.containers;
    expect(c.args).toEqual(['controller', '--namespace=specforge-system', '--port=8080']);
    expect(c.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(c.resources.requests).toEqual({ cpu: '50m', memory: '128Mi' });
    expect(dep.spec.selector.matchLabels).toEqual({ app: 'specforge-controller' });
  });

  it('serves NodePool v1 cluster-scoped with a status subresource and the design §1 validation', () => {
    const crd = find(synth(), 'CustomResourceDefinition') as Manifest & { spec: any };
    expect(crd.spec.scope).toBe('Cluster');
    const [v1] = crd.spec.versions;
    expect(v1).toMatchObject({ name: 'v1', served: true, storage: true, subresources: { status: {} } });
    const spec = v1.schema.openAPIV3Schema.properties.spec.properties;
    expect(spec.handler.default).toBe('runc');
    expect(spec.taints.items.properties.effect.enum).toEqual(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);
    expect(spec.taints.items.required).toEqual(['key', 'effect']);
    expect(spec.labels.additionalProperties.type).toBe('string');
    expect(spec.labels['x-kubernetes-validations'][0].rule).toContain('self.all(k');
  });

  it('emits only Kubernetes field names in the schema (no camelCase x-kubernetes extensions lost by the API server)', () => {
    const crd = find(synth(), 'CustomResourceDefinition') as Manifest & { spec: any };
    expect(JSON.stringify(crd)).not.toMatch(/xKubernetes|openApiv3Schema/);
    expect(
      crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.taints.items.properties.key
        .pattern,
    ).toMatch(/^\^/);
  });

  it('labels every object with the recommended labels', () => {
    for (const o of synth({ partOf: 'platform' })) {
      expect(o.metadata.labels).toMatchObject({
        'app.kubernetes.io/managed-by': 'specforge',
        'app.kubernetes.io/part-of': 'platform',
        'app.kubernetes.io/name': 'specforge-controller',
      });
    }
  });

  it('throws if replicas is not a positive integer', () => {
    expect(() => synth({ replicas: 0 })).toThrow(/replicas: expected an integer of at least 1, found 0\./);
  });

  it('can leave the CRD out', () => {
    expect(synth({ crd: false }).some((o) => o.kind === 'CustomResourceDefinition')).toBe(false);
  });
});

describe('ControllerBundle image', () => {
  const image = (props?: ControllerBundleProps): unknown =>
    (
      find(synth(props), 'Deployment') as unknown as {
        spec: { template: { spec: { containers: { image: string }[] } } };
      }
    ).spec.template.spec.containers[0]?.image;

  it('runs DEFAULT_CONTROLLER_IMAGE, specforge tagged with the package version, unless image is set', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(DEFAULT_CONTROLLER_IMAGE).toBe(`ghcr.io/specforge/specforge:${pkg.version}`);
    expect(image()).toBe(DEFAULT_CONTROLLER_IMAGE);
    expect(image({ image: 'registry.example.com/specforge:0.1.0' })).toBe(
      'registry.example.com/specforge:0.1.0',
    );
  });
});
