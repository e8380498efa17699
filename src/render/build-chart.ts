import { App, Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import { AppService } from '../constructs/app-service.js';
import { MANAGED_BY } from '../constructs/labels.js';
import { ManifestObject, type Manifest } from '../constructs/manifest-object.js';
import type { CommonProps } from '../constructs/common.js';
import { Myapp } from '../constructs/myapp.js';
import { NodePool } from '../constructs/node-pool.js';
import { Podroute } from '../constructs/podroute.js';
import type { SpecDocument } from '../specs/types.js';
import type { ChartSettings } from './chart-settings.js';

/** A chart written in code: called with the chart to add constructs to (a `chart.ts`/`chart.js` default export). */
export type ChartModule = (chart: Chart) => void;

/**
 * Builds one cdk8s chart from validated specs (and an optional chart module). Each chart gets an `App` of its
 * own: cdk8s' app-wide dependency resolution is what makes its own synth grow with the square of the number of
 * charts. Pure: no I/O.
 */
export function buildChart(
  name: string,
  settings: ChartSettings,
  specs: readonly SpecDocument[],
  module?: ChartModule,
): Chart {
  const chart = new Chart(new App({ outdir: '.' }), name, { disableResourceNameHashes: true });
  if (settings.createNamespace === true && settings.namespace !== undefined)
    addNamespace(chart, settings.namespace);
  for (const spec of specs) addSpec(chart, spec, settings);
  module?.(chart);
  return chart;
}

/** The construct id of a spec: unique per kind, namespace and name. */
export function specId(
  spec: Pick<SpecDocument, 'kind' | 'namespace' | 'name'>,
  settings: ChartSettings,
): string {
  return `${spec.kind}.${spec.namespace ?? settings.namespace ?? ''}.${spec.name}`;
}

function addSpec(chart: Chart, spec: SpecDocument, settings: ChartSettings): Construct {
  const id = specId(spec, settings);
  const common: CommonProps = {
    name: spec.name,
    partOf: chart.node.id,
    ...(spec.annotations === undefined ? {} : { annotations: spec.annotations }),
    ...mergeLabels(settings.labels, spec.labels),
  };
  const namespace = spec.namespace ?? settings.namespace;
  const namespaced = {
    ...common,
    ...(namespace === undefined ? {} : { namespace }),
    hardening: settings.hardening ?? 'none',
  };
  switch (spec.kind) {
    case 'AppService':
      return new AppService(chart, id, { ...namespaced, ...spec.spec, ports: spec.spec.ports ?? [] });
    case 'Myapp':
      return new Myapp(chart, id, { ...namespaced, ...spec.spec, ...ingressClass(settings) });
    case 'Podroute':
      return new Podroute(chart, id, { ...namespaced, ...spec.spec });
    case 'NodePool': {
      const { labels: objectLabels, ...rest } = common;
      return new NodePool(chart, id, {
        ...rest,
        ...(objectLabels === undefined ? {} : { objectLabels }),
        ...spec.spec,
      });
    }
  }
}

function addNamespace(chart: Chart, name: string): void {
  new ManifestObject(chart, 'namespace', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: { 'app.kubernetes.io/managed-by': MANAGED_BY, 'app.kubernetes.io/part-of': chart.node.id },
    },
  } as Manifest);
}

function mergeLabels(
  chartLabels: Readonly<Record<string, string>> | undefined,
  specLabels: Readonly<Record<string, string>> | undefined,
): { labels?: Record<string, string> } {
  if (chartLabels === undefined && specLabels === undefined) return {};
  return { labels: { ...chartLabels, ...specLabels } };
}

function ingressClass(settings: ChartSettings): { ingressClassName?: string } {
  return settings.ingressClassName === undefined ? {} : { ingressClassName: settings.ingressClassName };
}
