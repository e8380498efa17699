import { afterAll, describe, expect, it } from 'vitest';
import { COPIES, removeProjects, runApp, type Layout } from '../support/two-cdk8s.js';

/**
 * `addSyncOrder` in a cdk8s app: it finds every API object of the app's charts with cdk8s' `isApiObject`, so
 * objects made with another copy of cdk8s than specforge's (the app's own) are ordered too.
 */

/**
 * An app with the controller bundle (specforge: the NodePool CRD) in one chart, and, in another, a NodePool and a
 * ConfigMap the app makes itself with its own cdk8s: prints each object's annotations and how many copies of
 * cdk8s there are.
 */
const APP = `${COPIES}
import { App, ApiObject, Chart } from 'cdk8s';
import { ControllerBundle, addSyncOrder } from 'specforge';
const app = new App();
new ControllerBundle(new Chart(app, 'controller'), 'controller');
const pools = new Chart(app, 'pools');
new ApiObject(pools, 'gpu', {
  apiVersion: 'nodes.specforge.dev/v1',
  kind: 'NodePool',
  metadata: { name: 'gpu' },
  spec: { handler: 'runc' },
});
new ApiObject(pools, 'settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
addSyncOrder(app);
const annotations = Object.fromEntries(
  app.charts.flatMap((c) => c.toJson()).map((o) => [o.kind + '/' + o.metadata.name, o.metadata.annotations ?? {}]),
);
console.log(JSON.stringify({ copies, annotations }));
`;

afterAll(removeProjects);

describe('addSyncOrder', () => {
  it.each<[Layout, number]>([
    ['one copy', 1],
    ['two copies', 2],
  ])(
    'orders the objects an app makes with its own cdk8s after the CRD specforge renders (%s of cdk8s)',
    (layout, copies) => {
      const r = runApp(layout, APP);
      expect(r.copies).toBe(copies);
      expect(r.annotations['NodePool/gpu']).toEqual({
        'argocd.argoproj.io/sync-wave': '1',
        'argocd.argoproj.io/sync-options': 'SkipDryRunOnMissingResource=true',
      });
      expect(r.annotations['ConfigMap/settings']).toEqual({});
    },
  );
});
