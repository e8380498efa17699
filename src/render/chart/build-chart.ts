import { App, Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import { AppService } from '../../constructs/app-service.js';
import { ChartNamespace } from '../../constructs/namespace.js';
import { ensureChartChecks } from '../../constructs/chart-checks.js';
import { skipPropsCheck } from '../../constructs/props-check.js';
import type { CommonProps, Exposure, GatewayRef, Platform } from '../../constructs/common.js';
import { Myapp } from '../../constructs/myapp.js';
import { NodePool } from '../../constructs/node-pool.js';
import { Podroute } from '../../constructs/podroute.js';
import { effectiveExposure } from '../../specs/spec-exposure.js';
import type { SpecDocument } from '../../specs/types.js';
import type { ChartSettings } from './chart-settings.js';
import type { ValueGuard } from './value-guard.js';

/**
 * A chart written in code: called with the chart to add constructs to (a `chart.ts`/`chart.js` default export).
 * `specforge render` awaits it when it is async.
 */
export type ChartModule = (chart: Chart) => void | Promise<void>;

/**
 * Builds one cdk8s chart from validated specs (a chart module is applied by the caller, which hands in a
 * {@link ValueGuard} for its objects: the app's first resolver). Each chart gets an `App` of its own: cdk8s'
 * app-wide dependency resolution is what makes its own synth grow with the square of the number of charts. Pure: no
 * I/O.
 */
export function buildChart(
  name: string,
  settings: ChartSettings,
  specs: readonly SpecDocument[],
  guard?: ValueGuard,
): Chart {
  // The chart's namespace and labels reach every object the way cdk8s' own ApiObjects take them (the constructs
  // honour them), so a chart.yaml and a cdk8s Chart with the same settings render the same objects.
  const app = new App({ outdir: '.', ...(guard === undefined ? {} : { resolvers: [guard] }) });
  const chart = new Chart(app, name, {
    disableResourceNameHashes: true,
    ...(settings.namespace === undefined ? {} : { namespace: settings.namespace }),
    ...(settings.labels === undefined ? {} : { labels: { ...settings.labels } }),
  });
  // The render checks the chart's settings (chart.yaml) and wiring itself, with file and line in its errors.
  ensureChartChecks(chart, { checkedByRender: true });
  if (settings.createNamespace === true && settings.namespace !== undefined)
    new ChartNamespace(
      chart,
      'namespace',
      settings.podSecurity === undefined ? {} : { podSecurity: settings.podSecurity },
    );
  for (const spec of specs) addSpec(chart, spec, settings);
  return chart;
}

/** The construct id of a spec: unique per kind, namespace and name. */
export function specId(
  spec: Pick<SpecDocument, 'kind' | 'namespace' | 'name'>,
  settings: ChartSettings,
): string {
  return `${spec.kind}.${spec.namespace ?? settings.namespace ?? ''}.${spec.name}`;
}

/**
 * The construct of one spec. The loader has checked the spec with the rule the constructs apply
 * (checkSpecDocument), with file and line in its errors: its construct takes the props without checking them again.
 */
function addSpec(chart: Chart, spec: SpecDocument, settings: ChartSettings): Construct {
  const id = specId(spec, settings);
  const common: CommonProps = {
    name: spec.name,
    partOf: chart.node.id,
    ...(spec.annotations === undefined ? {} : { annotations: spec.annotations }),
    ...(spec.labels === undefined ? {} : { labels: spec.labels }),
  };
  const namespaced = {
    ...common,
    ...(spec.namespace === undefined ? {} : { namespace: spec.namespace }),
    hardening: settings.hardening ?? 'none',
  };
  switch (spec.kind) {
    case 'AppService':
      return new AppService(
        chart,
        id,
        skipPropsCheck({
          ...namespaced,
          ...spec.spec,
          ports: spec.spec.ports ?? [],
          ...exposureOf(settings, spec),
          ...adoptOf(spec),
        }),
      );
    case 'Myapp':
      return new Myapp(
        chart,
        id,
        skipPropsCheck({ ...namespaced, ...spec.spec, ...exposure(settings, spec), ...adoptOf(spec) }),
      );
    case 'Podroute':
      return new Podroute(
        chart,
        id,
        skipPropsCheck({ ...namespaced, ...spec.spec, ...exposure(settings, spec), ...adoptOf(spec) }),
      );
    case 'NodePool': {
      const { labels: objectLabels, ...rest } = common;
      return new NodePool(
        chart,
        id,
        skipPropsCheck({
          ...rest,
          ...(objectLabels === undefined ? {} : { objectLabels }),
          ...spec.spec,
          ...adoptOf(spec),
        }),
      );
    }
  }
}

/** A spec's adoption pins (its `adopt` block) as the construct's `adopt` prop, typed by the spec's kind. */
function adoptOf<P>(spec: { readonly adopt?: P }): { adopt?: P } {
  return spec.adopt === undefined ? {} : { adopt: spec.adopt };
}

/**
 * The chart settings that decide how Myapp and Podroute are exposed: the platform, the Ingress class, the step of
 * the move to the Gateway API and its Gateway (those two the spec's own where it sets them).
 */
function exposure(
  settings: ChartSettings,
  spec: Pick<SpecDocument, 'kind' | 'exposure' | 'gateway'>,
): {
  platform?: Platform;
  ingressClassName?: string;
  exposure?: Exposure;
  gateway?: GatewayRef;
} {
  return {
    ...(settings.platform === undefined ? {} : { platform: settings.platform }),
    ...(settings.ingressClassName === undefined ? {} : { ingressClassName: settings.ingressClassName }),
    ...exposureOf(settings, spec),
  };
}

/** A spec's exposure and Gateway as its construct takes them (src/specs/spec-exposure.ts reads them), unset left out. */
function exposureOf(
  settings: ChartSettings,
  spec: Pick<SpecDocument, 'kind' | 'exposure' | 'gateway'>,
): { exposure?: Exposure; gateway?: GatewayRef } {
  const { exposure, gateway } = effectiveExposure(spec, settings);
  return {
    ...(exposure === undefined ? {} : { exposure }),
    ...(gateway === undefined ? {} : { gateway }),
  };
}
