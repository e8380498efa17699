import { App, Chart } from 'cdk8s';
import { parse, parseAllDocuments } from 'yaml';
import { AppService, ChartNamespace, Myapp, NodePool, Podroute } from '../../src/index.js';
import { skipPropsCheck } from '../../src/constructs/props-check.js';

/**
 * A chart of spec files rebuilt through the other door: a cdk8s `Chart` (namespace and labels from chart.yaml)
 * holding one construct per spec document, each given the document's values as props, the way a user moving
 * from YAML to code would write them. Written here, apart from the renderer's own spec-to-construct code, so
 * tests comparing the two doors compare two independent paths.
 */

/** A parsed spec document, loosely typed. */
type Doc = {
  apiVersion: string;
  kind: string;
  metadata: Record<string, any>;
  spec?: Record<string, any>;
  adopt?: any;
  exposure?: string;
  gateway?: any;
};

/** chart.yaml as a plain object. */
export type Settings = {
  namespace?: string;
  labels?: Record<string, string>;
  hardening?: string;
  ingressClassName?: string;
  platform?: string;
  exposure?: string;
  gateway?: any;
  createNamespace?: boolean;
  podSecurity?: string;
};

/** Parses chart.yaml text (empty: no settings). */
export function settingsOf(text: string | undefined): Settings {
  return text === undefined ? {} : ((parse(text) as Settings | null) ?? {});
}

/** Every document of the spec files' text (YAML 1.2, as the spec door reads them). */
export function docsOf(texts: readonly string[]): Doc[] {
  return texts.flatMap((t) => parseAllDocuments(t).map((d) => d.toJS() as Doc)).filter((d) => d !== null);
}

/**
 * A Chart named `name` carrying the settings' namespace and labels, as a cdk8s user writes it, in `app` (default: a
 * new one).
 */
export function chartFor(
  name: string,
  settings: Settings,
  outdir = '.',
  app: App = new App({ outdir }),
): { app: App; chart: Chart } {
  const chart = new Chart(app, name, {
    ...(settings.namespace === undefined ? {} : { namespace: settings.namespace }),
    ...(settings.labels === undefined ? {} : { labels: settings.labels }),
  });
  if (settings.createNamespace === true)
    new ChartNamespace(
      chart,
      'namespace',
      settings.podSecurity === undefined ? {} : { podSecurity: settings.podSecurity as any },
    );
  return { app, chart };
}

/**
 * The settings a Myapp or Podroute takes as props: the Ingress class, the platform, the exposure and its Gateway (the
 * last two the spec's own top-level fields where it sets them).
 */
function exposure(settings: Settings, doc: Doc): Record<string, any> {
  return {
    ...(settings.ingressClassName === undefined ? {} : { ingressClassName: settings.ingressClassName }),
    ...(settings.platform === undefined ? {} : { platform: settings.platform }),
    ...(settings.exposure === undefined ? {} : { exposure: settings.exposure }),
    ...(settings.gateway === undefined ? {} : { gateway: settings.gateway }),
    ...(doc.exposure === undefined ? {} : { exposure: doc.exposure }),
    ...(doc.gateway === undefined ? {} : { gateway: doc.gateway }),
  };
}

/** Adds the construct of one spec document to `chart`; its construct id is `<kind>-<index>`. */
export function addConstruct(chart: Chart, doc: Doc, index: number, settings: Settings): void {
  addTo({ chart, props: (p) => p }, doc, index, settings);
}

/**
 * {@link addConstruct}, the construct taking its props unchecked (`skipPropsCheck`): what the constructs make of props
 * the gate refuses.
 */
export function addUncheckedConstruct(chart: Chart, doc: Doc, index: number, settings: Settings): void {
  addTo({ chart, props: skipPropsCheck }, doc, index, settings);
}

function addTo(
  { chart, props }: { chart: Chart; props: <P extends object>(p: P) => P },
  doc: Doc,
  index: number,
  settings: Settings,
): void {
  const m = doc.metadata ?? {};
  const meta = {
    name: m.name,
    ...(m.namespace === undefined ? {} : { namespace: m.namespace }),
    ...(m.annotations === undefined ? {} : { annotations: m.annotations }),
  };
  const labels = m.labels === undefined ? {} : { labels: m.labels };
  // The spec's top-level `adopt` block is the constructs' `adopt` prop.
  const adopt = doc.adopt === undefined ? {} : { adopt: doc.adopt };
  const hardening = settings.hardening === undefined ? {} : { hardening: settings.hardening };
  const id = `${doc.kind}-${index}`;
  const spec = (doc.spec ?? {}) as any;
  switch (doc.kind) {
    case 'AppService': {
      const { size, ...rest } = spec;
      new AppService(
        chart,
        id,
        props({
          ...meta,
          ...labels,
          ...hardening,
          ...rest,
          ...(size === undefined ? {} : { replicas: rest.replicas ?? size }),
          ...adopt,
        }),
      );
      return;
    }
    case 'Myapp':
      new Myapp(
        chart,
        id,
        props({ ...meta, ...labels, ...hardening, ...exposure(settings, doc), ...spec, ...adopt }),
      );
      return;
    case 'Podroute':
      new Podroute(
        chart,
        id,
        props({ ...meta, ...labels, ...hardening, ...exposure(settings, doc), ...spec, ...adopt }),
      );
      return;
    case 'NodePool':
      new NodePool(
        chart,
        id,
        props({ ...meta, ...(m.labels === undefined ? {} : { objectLabels: m.labels }), ...spec, ...adopt }),
      );
      return;
    default:
      throw new Error(`no construct for kind ${doc.kind}`);
  }
}
