/**
 * The API server's verdict on a chart: what the constructs make of its specs with the gate switched off
 * (`addUncheckedConstruct`), plus a Pod built from every pod template, applied server-side (dry run) to the real
 * kube-apiserver, as the GitOps tools apply them. Used by the
 * differential test and by the bad-input cases, which must be refused there too.
 */
import { chartObjects } from '../../src/constructs/chart-checks.js';
import { KubeClient } from '../../src/kube/client.js';
import { addUncheckedConstruct, chartFor, type Settings } from '../support/as-constructs.js';
import { controlPlane } from './helpers.js';
import { adminConfig } from './kubeconfig.js';
import { kubectl } from './kubectl.js';

/** The namespace the verdicts are asked in (objects without one go there). */
export const NS = 'fuzz';

/** The content type of a server-side apply. */
const APPLY_PATCH = 'application/apply-patch+yaml';

/**
 * specforge's own rules, stricter than the API server on purpose (docs/decisions.md "Gate"): a refusal for one of
 * these is not a disagreement.
 */
export const POLICY = [
  /a container port the spec makes/, // an adoption pin naming a port the spec does not make pins nothing
  /no such pin \(platform/, // an adoption pin for an object the chart's platform does not render
  /name of a container port|no container port has a name/, // a named targetPort must resolve to a container port
  /reserved for Kubernetes/, // NodePool keys in the kubernetes.io and k8s.io namespaces (the CRD refuses them too)
  /from 1 to 1000|length from 3 to 1000/, // the Myapp seed CRD's ranges
  /one taint per key and effect/, // a Node cannot hold two taints with one key and effect
  /metadata\.name: expected a DNS label \(RFC 1123\)/, // NodePool names become the label key node-role.kubernetes.io/<name>
  /chart\.yaml.* (hardening|platform|podSecurity): expected one of/, // specforge settings, not API fields
  /not used by another spec of the chart|also made by/, // two specs of a chart making one object: the second would replace the first
  /nodePort not used by another Service/, // node ports are cluster-wide; one verdict at a time cannot show the clash
  /cluster-scoped/, // a namespace on a cluster-scoped spec is a mistake, not something to drop silently
  /unknown field/, // a typo such as `replica:` stops the pipeline instead of being pruned
];

const PATHS: Record<string, (ns: string) => string> = {
  Deployment: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`,
  Service: (ns) => `/api/v1/namespaces/${ns}/services`,
  Ingress: (ns) => `/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`,
  Route: (ns) => `/apis/route.openshift.io/v1/namespaces/${ns}/routes`,
  Pod: (ns) => `/api/v1/namespaces/${ns}/pods`,
  RuntimeClass: () => '/apis/node.k8s.io/v1/runtimeclasses',
  NodePool: () => '/apis/nodes.specforge.dev/v1/nodepools',
};

let client: KubeClient | undefined;

/** Connects to the test control plane and readies namespace `fuzz` (its Route CRD, its default ServiceAccount). */
export async function connect(): Promise<void> {
  const info = controlPlane();
  if (info === null || client !== undefined) return;
  client = await KubeClient.fromKubeConfig(adminConfig(info));
  kubectl(['apply', '--server-side', '-f', 'test/fixtures/openshift-route-crd.yaml']);
  kubectl(['wait', '--for=condition=Established', 'crd/routes.route.openshift.io', '--timeout=30s']);
  kubectl(['create', 'namespace', NS], [0, 1]);
  // No controller-manager here: the service account Pods default to is made by hand.
  kubectl(['create', 'serviceaccount', 'default', '-n', NS], [0, 1]);
}

/**
 * Applies `o` server-side with dry run, as Flux and the generated Argo CD Applications apply (so a list-map key
 * given twice is refused, where a create only warns); a Service with node ports is applied for real and deleted at
 * once, since dry run skips node-port allocation (range and sharing are checked only by the allocator).
 */
async function apply(path: string, o: any): Promise<void> {
  if (client === undefined) throw new Error('connect() first');
  const real = o.kind === 'Service' && (o.spec?.ports ?? []).some((p: any) => p.nodePort !== undefined);
  const query = `fieldManager=specforge-verdict&force=true&fieldValidation=Strict${real ? '' : '&dryRun=All'}`;
  const at = `${path}/${encodeURIComponent(String(o.metadata?.name))}`;
  await client.request('PATCH', `${at}?${query}`, o, { contentType: APPLY_PATCH });
  if (real) await client.request('DELETE', at);
}

/** The API server's verdict on what the constructs make of the scenario: undefined when it accepts all. */
export async function apiVerdict(s: {
  settings: Settings;
  docs: readonly any[];
}): Promise<string | undefined> {
  let objects: any[];
  try {
    const { chart } = chartFor('fuzz', s.settings);
    s.docs.forEach((doc, i) => addUncheckedConstruct(chart, doc, i, s.settings));
    objects = chartObjects(chart).map((o) => o.json);
  } catch (e) {
    return `no objects: ${(e as Error).message}`;
  }
  const pods = objects
    .filter((o) => o.kind === 'Deployment')
    .map((d) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${d.metadata.name}-pod`,
        namespace: d.metadata.namespace,
        labels: d.spec?.template?.metadata?.labels,
      },
      spec: d.spec?.template?.spec,
    }));
  for (const o of [...objects, ...pods]) {
    const path = PATHS[o.kind]?.(typeof o.metadata?.namespace === 'string' ? o.metadata.namespace : NS);
    if (path === undefined) return `unexpected kind ${o.kind}`;
    try {
      await apply(path, o);
    } catch (e) {
      return `${o.kind}: ${(e as Error).message}`;
    }
  }
  return undefined;
}
