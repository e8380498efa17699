import { ApiObject, Chart } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { annotatedObjects } from './argocd-order.js';
import { dependenciesOf, locatedKey } from './dependencies.js';
import type { Manifest } from '../rules/manifest.js';

/**
 * Gives every object of the charts under `scope` (usually the App) the Argo CD ordering annotations `specforge
 * render` writes: a sync wave where Argo CD's kind order does not already apply a dependency first (a custom
 * resource after its CRD, a workload after the RuntimeClass and NodePool it uses), and
 * `SkipDryRunOnMissingResource=true` on a custom resource whose CRD is rendered too. The same rule
 * (src/gitops/argocd-order.ts) over the same dependency graph, across all the charts; call it once, after the
 * charts are built and before `app.synth()`.
 *
 * ```ts
 * const app = new App();
 * new ControllerChart(app, 'controller');
 * new PoolsChart(app, 'pools');
 * addSyncOrder(app);
 * app.synth();
 * ```
 */
export function addSyncOrder(scope: IConstruct): void {
  const charts = scope.node.findAll().filter((c): c is Chart => Chart.isChart(c));
  const entries = charts.map((chart) => ({
    chart: chart.node.path,
    objects: chart.node
      .findAll()
      .filter((c): c is ApiObject => ApiObject.isApiObject(c) && Chart.of(c) === chart)
      .map((api) => ({ api, json: api.toJson() as Manifest })),
  }));
  const located = entries.flatMap((e) =>
    e.objects.map((o) => ({ chart: e.chart, key: locatedKey(e.chart, o.json), obj: o.json, api: o.api })),
  );
  for (const [l, extra] of annotatedObjects(dependenciesOf(located))) {
    // Through cdk8s' own hatch, which every ApiObject honours (specforge's ManifestObject among them), whichever
    // copy of cdk8s made it.
    for (const [k, v] of Object.entries(extra)) l.api.metadata.addAnnotation(k, v);
  }
}
