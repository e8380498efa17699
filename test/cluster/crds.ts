/** Installs the rendered NodePool CRD (from ControllerBundle: the same bytes users apply) and waits until served. */
import { Testing } from 'cdk8s';
import { ControllerBundle } from '../../src/constructs/controller-bundle.js';
import { KubeClient } from '../../src/kube/client.js';
import type { ControlPlaneInfo } from './control-plane.js';
import { adminConfig } from './kubeconfig.js';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [k: string]: unknown };
  [k: string]: unknown;
}

/** The bundle's manifests, rendered with the given props. */
export function bundleManifests(props: ConstructorParameters<typeof ControllerBundle>[2] = {}): Manifest[] {
  const chart = Testing.chart();
  new ControllerBundle(chart, 'bundle', props);
  return Testing.synth(chart) as Manifest[];
}

export async function installCrds(info: ControlPlaneInfo): Promise<void> {
  const client = await KubeClient.fromKubeConfig(adminConfig(info));
  try {
    for (const crd of bundleManifests().filter((m) => m.kind === 'CustomResourceDefinition')) {
      await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    }
    await waitServed(client);
  } finally {
    client.close();
  }
}

async function waitServed(client: KubeClient): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.request('GET', '/apis/nodes.specforge.dev/v1/nodepools?limit=1');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
