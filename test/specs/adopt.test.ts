import { describe, expect, it } from 'vitest';
import { checkAdoptPlatform, effectiveSelector } from '../../src/specs/adopt.js';
import { checkSpecDocument } from '../../src/specs/load.js';
import { checkChartSettingsSemantics } from '../../src/specs/semantic.js';
import { formatPath } from '../../src/rules/field-path.js';

/**
 * The `adopt` block of a spec document (schemas/adopt.schema.json plus src/specs/adopt.ts): which pins each kind
 * takes, and the rules the API server (or the render) would otherwise break on. Every rule is shown failing, and
 * the same block without the mistake passing.
 */

const DOCS = {
  AppService: {
    apiVersion: 'apps.specforge.dev/v1alpha1',
    kind: 'AppService',
    metadata: { name: 'web' },
    spec: { image: 'nginx', ports: [{ name: 'http', port: 80 }] },
  },
  Myapp: {
    apiVersion: 'myapp.timd.cn/v1',
    kind: 'Myapp',
    metadata: { name: 'shop', namespace: 'shop' },
    spec: { image: 'shop:1', containerPort: 8080 },
  },
  Podroute: {
    apiVersion: 'quay.io/v1alpha1',
    kind: 'Podroute',
    metadata: { name: 'hello' },
    spec: { image: 'hello:1' },
  },
  NodePool: {
    apiVersion: 'nodes.lailin.xyz/v1',
    kind: 'NodePool',
    metadata: { name: 'master' },
    spec: { labels: { 'node-pool.lailin.xyz/master': '' } },
  },
} as const;

type Kind = keyof typeof DOCS;

/** `path: found` of every violation of the kind's document with this `adopt` block (and `extra` merged in). */
function problems(kind: Kind, adopt: unknown, extra: Record<string, unknown> = {}): string[] {
  return checkSpecDocument({ ...DOCS[kind], ...extra, adopt }).map(
    (v) => `${formatPath(v.path)}: ${v.found}`,
  );
}

function messages(kind: Kind, adopt: unknown): string[] {
  return checkSpecDocument({ ...DOCS[kind], adopt }).map(
    (v) => `${formatPath(v.path)}: expected ${v.expected}, found ${v.found}`,
  );
}

const PODROUTE_PINS = {
  selector: { app: 'PodRoute', podroute_cr: 'hello', tier: 'backend-podroute' },
  podLabels: { app: 'PodRoute', podroute_cr: 'hello', tier: 'backend-podroute' },
  container: { name: 'podroute-pod', imagePullPolicy: 'Always', portNames: { '8080': 'podroute' } },
  names: { deployment: 'pod-route', service: 'podroute-service', route: 'podroute-route' },
  routeHost: 'podroute-route-default.apps-crc.testing',
};

describe('adopt block', () => {
  it('accepts the pins each seed operator needs, on its kind', () => {
    expect(
      problems('AppService', { podLabels: { app: 'web' }, container: { imagePullPolicy: 'IfNotPresent' } }),
    ).toEqual([]);
    expect(
      problems('Myapp', {
        selector: { app: 'shop', release: 'canary' },
        podLabels: { app: 'shop', release: 'canary' },
        container: { imagePullPolicy: 'IfNotPresent' },
        ingressClassAnnotation: 'nginx',
      }),
    ).toEqual([]);
    expect(problems('Podroute', PODROUTE_PINS)).toEqual([]);
    expect(
      problems('NodePool', {
        runtimeClassName: 'node-pool-master',
        nodeKeys: { labels: ['node-pool.lailin.xyz/master'], taints: ['node-pool.lailin.xyz:NoSchedule'] },
        membership: { value: '' },
      }),
    ).toEqual([]);
  });

  it('refuses a pin that does not apply to the kind, naming the pins it takes', () => {
    expect(messages('AppService', { routeHost: 'a.example.com' })).toEqual([
      'adopt.routeHost: expected one of the known fields (selector, podLabels, container, replicas, names), found unknown field "routeHost"',
    ]);
    expect(problems('AppService', { names: { route: 'r' } })).toEqual([
      'adopt.names.route: unknown field "route"',
    ]);
    expect(problems('Myapp', { nodeKeys: { labels: ['a'] } })).toEqual([
      'adopt.nodeKeys: unknown field "nodeKeys"',
    ]);
    expect(problems('Myapp', { routeHost: 'a.example.com' })).toEqual([
      'adopt.routeHost: unknown field "routeHost"',
    ]);
    expect(problems('Podroute', { ingressClassAnnotation: 'nginx' })).toEqual([
      'adopt.ingressClassAnnotation: unknown field "ingressClassAnnotation"',
    ]);
    expect(problems('NodePool', { selector: { a: 'b' } })).toEqual([
      'adopt.selector: unknown field "selector"',
    ]);
    expect(problems('NodePool', { names: { deployment: 'x' } })).toEqual([
      'adopt.names: unknown field "names"',
    ]);
  });

  it('refuses an empty selector (a Deployment must select something) and values that are not strings', () => {
    expect(problems('AppService', { selector: {} })).toEqual(['adopt.selector: an empty mapping']);
    expect(problems('AppService', { selector: { app: 1 } })).toEqual(['adopt.selector.app: 1']);
  });

  it('checks selector and pod label keys and values as the API server does', () => {
    expect(
      problems('AppService', { selector: { 'bad key!': 'x' }, podLabels: { 'bad key!': 'x', app: 'a b' } }),
    ).toEqual([
      'adopt.selector["bad key!"]: key "bad key!"',
      'adopt.podLabels["bad key!"]: key "bad key!"',
      'adopt.podLabels.app: "a b"',
    ]);
  });

  it('requires the pod labels to carry the selector, pinned or the default {app: <name>}', () => {
    expect(
      messages('Myapp', { selector: { app: 'shop', release: 'canary' }, podLabels: { app: 'shop' } }),
    ).toEqual([
      'adopt.podLabels.release: expected "canary", the value of release in adopt.selector (a Deployment\'s pods must carry its selector), found nothing',
    ]);
    expect(problems('AppService', { podLabels: { app: 'other' } })).toEqual(['adopt.podLabels.app: "other"']);
    expect(problems('AppService', { podLabels: { app: 'web', extra: 'x' } })).toEqual([]);
    expect(effectiveSelector('web', undefined)).toEqual({ app: 'web' });
    expect(effectiveSelector('web', { selector: { a: 'b' } })).toEqual({ a: 'b' });
  });

  it('checks the container name as a DNS label and the pull policy against the API enum', () => {
    expect(problems('Podroute', { container: { name: 'PodRoute-pod' } })).toEqual([
      'adopt.container.name: "PodRoute-pod"',
    ]);
    expect(messages('Podroute', { container: { imagePullPolicy: 'Sometimes' } })).toEqual([
      'adopt.container.imagePullPolicy: expected one of "Always", "IfNotPresent", "Never", found "Sometimes"',
    ]);
  });

  it('lets port names pin only container ports the spec makes, each a valid and distinct port name', () => {
    expect(messages('Podroute', { container: { portNames: { '80': 'web' } } })).toEqual([
      'adopt.container.portNames["80"]: expected a container port the spec makes (8080), found port 80',
    ]);
    expect(problems('Myapp', { container: { portNames: { '8080': 'http--alt' } } })).toEqual([
      'adopt.container.portNames["8080"]: "http--alt"',
    ]);
    expect(problems('Myapp', { container: { portNames: { http: 'web' } } })).toEqual([
      'adopt.container.portNames.http: key "http"',
    ]);
    const twoPorts = {
      spec: {
        image: 'nginx',
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81 },
        ],
      },
    };
    expect(
      problems('AppService', { container: { portNames: { '80': 'web', '81': 'web' } } }, twoPorts),
    ).toEqual(['adopt.container.portNames["81"]: "web"']);
    const twoProtocols = {
      spec: {
        image: 'dns',
        ports: [
          { name: 'tcp', port: 53 },
          { name: 'udp', port: 53, protocol: 'UDP' },
        ],
      },
    };
    expect(problems('AppService', { container: { portNames: { '53': 'dns' } } }, twoProtocols)).toEqual([
      'adopt.container.portNames["53"]: port 53 on 2 protocols',
    ]);
  });

  it('resolves a named targetPort against the pinned port names', () => {
    const named = {
      spec: {
        image: 'nginx',
        ports: [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'alt', port: 81, targetPort: 'web' },
        ],
      },
    };
    expect(problems('AppService', { container: { portNames: { '8080': 'web' } } }, named)).toEqual([]);
    expect(problems('AppService', undefined, named)).toEqual(['spec.ports[1].targetPort: "web"']);
  });

  it('takes container ports pinned as live only for the port numbers the spec makes, each port and protocol once', () => {
    const spec = {
      spec: {
        image: 'nginx',
        ports: [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'dns', protocol: 'UDP', port: 53, targetPort: 5353 },
        ],
      },
    };
    const live = [{ containerPort: 8080 }, { containerPort: 5353, protocol: 'TCP' }];
    expect(problems('AppService', { container: { ports: live } }, spec)).toEqual([]);
    expect(problems('AppService', { container: { ports: [{ containerPort: 8080 }] } }, spec)).toEqual([
      'adopt.container.ports: ports 8080',
    ]);
    expect(
      problems(
        'AppService',
        { container: { ports: [...live, { containerPort: 8080, protocol: 'TCP' }] } },
        spec,
      ),
    ).toEqual(['adopt.container.ports[2]: a second 8080/TCP']);
    expect(
      problems('AppService', { container: { ports: live, portNames: { '8080': 'web' } } }, spec),
    ).toEqual(['adopt.container.portNames: both']);
    // A named targetPort resolves against the pinned entries' names only.
    const named = {
      spec: {
        image: 'nginx',
        ports: [
          { name: 'a', port: 80, targetPort: 'web' },
          { name: 'b', port: 81, targetPort: 8080 },
        ],
      },
    };
    expect(
      problems('AppService', { container: { ports: [{ name: 'web', containerPort: 8080 }] } }, named),
    ).toEqual([]);
    expect(problems('AppService', { container: { ports: [{ containerPort: 8080 }] } }, named)).toEqual([
      'spec.ports[0].targetPort: "web"',
    ]);
  });

  it('takes container ports pinned unmanaged (no other word, no portNames beside it, a targetPort a number)', () => {
    const spec = {
      spec: {
        image: 'nginx',
        ports: [
          { name: 'a', port: 80, targetPort: 8080 },
          { name: 'b', port: 81, targetPort: 8080 },
        ],
      },
    };
    expect(problems('AppService', { container: { ports: 'unmanaged' } }, spec)).toEqual([]);
    expect(messages('AppService', { container: { ports: 'keep' } })).toEqual([
      'adopt.container.ports: expected "unmanaged", found "keep"',
    ]);
    expect(messages('AppService', { container: { ports: 5 } })).toEqual([
      'adopt.container.ports: expected a value of type array, found 5',
    ]);
    expect(
      problems('AppService', { container: { ports: 'unmanaged', portNames: { '8080': 'web' } } }, spec),
    ).toEqual(['adopt.container.portNames: both']);
    // The live ports are not in the render: no name is known to a named targetPort.
    const named = {
      spec: {
        image: 'nginx',
        ports: [
          { name: 'a', port: 80, targetPort: 8080 },
          { name: 'b', port: 81, targetPort: 'a' },
        ],
      },
    };
    expect(problems('AppService', { container: { ports: 'unmanaged' } }, named)).toEqual([
      'spec.ports[1].targetPort: "a"',
    ]);
    expect(problems('AppService', {}, named)).toEqual([]);
    // The label that says so is specforge's: a user's own would hide the ports from adopt and the checks.
    const labelled = { metadata: { name: 'web', labels: { 'specforge.dev/container-ports': 'unmanaged' } } };
    expect(messages('AppService', undefined).length).toBe(0);
    expect(
      checkSpecDocument({ ...DOCS.AppService, ...labelled }).map(
        (v) => `${formatPath(v.path)}: ${v.expected}`,
      ),
    ).toEqual([
      'metadata.labels["specforge.dev/container-ports"]: no specforge.dev/container-ports label (specforge sets it where adopt.container.ports is unmanaged)',
    ]);
    expect(checkChartSettingsSemantics({ labels: { 'specforge.dev/container-ports': 'x' } })).toHaveLength(1);
  });

  it('takes a replicas pin only for a spec that gives no pod count (size null is none)', () => {
    expect(problems('Podroute', { replicas: 0 })).toEqual([]);
    expect(problems('Podroute', { replicas: 0 }, { spec: { image: 'hello:1', replicas: 2 } })).toEqual([
      'adopt.replicas: a pin beside spec.replicas: 2',
    ]);
    const opdemo = {
      apiVersion: 'app.example.com/v1',
      spec: { size: null, image: 'nginx', ports: [{ port: 80 }] },
    };
    expect(problems('AppService', { replicas: 3 }, opdemo)).toEqual([]);
    expect(problems('AppService', { replicas: -1 })).toHaveLength(1);
  });

  it('checks pinned object names by their kind: a Service a DNS-1035 label, the others DNS subdomains', () => {
    expect(
      problems('Podroute', {
        names: { deployment: 'Pod_Route', service: '1service', route: 'route.ok', ingress: '-x' },
      }),
    ).toEqual([
      'adopt.names.deployment: "Pod_Route"',
      'adopt.names.service: "1service"',
      'adopt.names.ingress: "-x"',
    ]);
    expect(problems('Podroute', { names: { deployment: 'pod.route', service: 'podroute-service' } })).toEqual(
      [],
    );
  });

  it('takes a Route host without a wildcard, lowercase, not an IP address', () => {
    expect(problems('Podroute', { routeHost: '*.apps.example.com' })).toEqual([
      'adopt.routeHost: "*.apps.example.com"',
    ]);
    expect(problems('Podroute', { routeHost: 'Apps.Example.com' })).toEqual([
      'adopt.routeHost: "Apps.Example.com"',
    ]);
    expect(problems('Podroute', { routeHost: '10.0.0.1' })).toEqual(['adopt.routeHost: "10.0.0.1"']);
  });

  it('takes an Ingress class annotation that names a class, and refuses a different one among the annotations', () => {
    expect(problems('Myapp', { ingressClassAnnotation: 'Nginx Class' })).toEqual([
      'adopt.ingressClassAnnotation: "Nginx Class"',
    ]);
    const annotated = (value: string) => ({
      metadata: { name: 'shop', annotations: { 'kubernetes.io/ingress.class': value } },
    });
    expect(problems('Myapp', { ingressClassAnnotation: 'nginx' }, annotated('traefik'))).toEqual([
      'metadata.annotations["kubernetes.io/ingress.class"]: "traefik"',
    ]);
    expect(problems('Myapp', { ingressClassAnnotation: 'nginx' }, annotated('nginx'))).toEqual([]);
  });

  it('checks the RuntimeClass name as a DNS subdomain', () => {
    expect(problems('NodePool', { runtimeClassName: 'Node_Pool' })).toEqual([
      'adopt.runtimeClassName: "Node_Pool"',
    ]);
    expect(problems('NodePool', { runtimeClassName: 'node-pool.master' })).toEqual([]);
  });

  it('takes Node keys that are valid label keys, outside the reserved prefixes, each once', () => {
    expect(
      problems('NodePool', {
        nodeKeys: {
          labels: ['node-role.kubernetes.io/master', 'bad key!', 'a', 'a'],
          taints: [
            'node.kubernetes.io/unschedulable:NoSchedule',
            'k:NoSchedule',
            'k:NoSchedule',
            'k:NoExecute',
          ],
        },
      }),
    ).toEqual([
      'adopt.nodeKeys.labels[0]: "node-role.kubernetes.io/master"',
      'adopt.nodeKeys.labels[1]: key "bad key!"',
      'adopt.nodeKeys.labels[3]: a second "a"',
      'adopt.nodeKeys.taints[0]: "node.kubernetes.io/unschedulable:NoSchedule"',
      'adopt.nodeKeys.taints[2]: a second "k:NoSchedule"',
    ]);
    expect(messages('NodePool', { nodeKeys: { taints: ['k:Never', 'k'] } })).toEqual([
      'adopt.nodeKeys.taints[0]: expected a taint key and effect as key:effect, the effect one of NoSchedule, PreferNoSchedule, NoExecute, found "k:Never"',
      'adopt.nodeKeys.taints[1]: expected a taint key and effect as key:effect, the effect one of NoSchedule, PreferNoSchedule, NoExecute, found "k"',
    ]);
    const many = Array.from({ length: 65 }, (_, i) => `k${i}`);
    expect(problems('NodePool', { nodeKeys: { labels: many } })).toEqual([
      'adopt.nodeKeys.labels: a list of 65',
    ]);
  });

  it('takes a membership value that is a label value, and requires it', () => {
    expect(problems('NodePool', { membership: { value: '' } })).toEqual([]);
    expect(problems('NodePool', { membership: { value: '-x' } })).toEqual(['adopt.membership.value: "-x"']);
    expect(problems('NodePool', { membership: {} })).toEqual(['adopt.membership.value: nothing']);
  });
});

describe('adopt pins and the platform', () => {
  it('refuses a Route pin where the platform renders an Ingress, and an Ingress pin where it renders a Route', () => {
    const found = (kind: 'Myapp' | 'Podroute', adopt: object, platform?: 'kubernetes' | 'openshift') =>
      checkAdoptPlatform(kind, adopt, platform).map((v) => formatPath(v.path));
    expect(found('Podroute', { names: { ingress: 'i' }, routeHost: 'a.example.com' })).toEqual([
      'adopt.names.ingress',
    ]);
    expect(found('Podroute', PODROUTE_PINS, 'kubernetes')).toEqual(['adopt.names.route', 'adopt.routeHost']);
    expect(found('Myapp', { names: { route: 'r', ingress: 'i' }, ingressClassAnnotation: 'nginx' })).toEqual([
      'adopt.names.route',
    ]);
    expect(found('Myapp', { ingressClassAnnotation: 'nginx' }, 'openshift')).toEqual([
      'adopt.ingressClassAnnotation',
    ]);
    expect(found('Podroute', PODROUTE_PINS, 'openshift')).toEqual([]);
    expect(checkAdoptPlatform('AppService', { names: { deployment: 'x' } }, 'kubernetes')).toEqual([]);
  });

  it('refuses, with the HTTPRoute alone (exposure gateway), the pins of the Ingress and the Route it no longer renders', () => {
    const found = (kind: 'Myapp' | 'Podroute', adopt: object, platform?: 'kubernetes' | 'openshift') =>
      checkAdoptPlatform(kind, adopt, platform, 'gateway').map((v) => `${formatPath(v.path)}: ${v.expected}`);
    expect(
      found('Myapp', { names: { ingress: 'i', service: 's' }, ingressClassAnnotation: 'nginx' }),
    ).toEqual([
      'adopt.names.ingress: no such pin (exposure gateway renders an HTTPRoute alone, neither an Ingress nor a Route)',
      'adopt.ingressClassAnnotation: no such pin (exposure gateway renders an HTTPRoute alone, neither an Ingress nor a Route)',
    ]);
    // a Podroute's Route host stays its HTTPRoute's hostname
    expect(found('Podroute', { names: { route: 'r' }, routeHost: 'a.example.com' }, 'openshift')).toEqual([
      'adopt.names.route: no such pin (exposure gateway renders an HTTPRoute alone, neither an Ingress nor a Route)',
    ]);
    expect(checkAdoptPlatform('Myapp', { names: { ingress: 'i' } }, undefined, 'both')).toEqual([]);
  });
});
