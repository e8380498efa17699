// A chart written in code: the controller's own deployment bundle (CRD, RBAC, Deployment), rendered by
// specforge into dist/specforge-controller/ so the same GitOps flow deploys it.
import type { Chart } from 'cdk8s';
import { ControllerBundle } from 'specforge';

export default function (chart: Chart): void {
  new ControllerBundle(chart, 'specforge-controller');
}
