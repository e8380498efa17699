// A chart written in code: the controller's own deployment bundle (CRD, RBAC, Deployment), rendered by
// specforge into dist/specforge-controller/ so the same GitOps flow deploys it.
import type { Chart } from 'cdk8s';
import { ControllerBundle, DEFAULT_CONTROLLER_IMAGE } from 'specforge';

// The controller's image: by default specforge's own, ghcr.io/specforge/specforge:<version>, which `npm run image`
// (or the repository's Dockerfile) builds. Push it where your cluster pulls from (or load it into a local cluster)
// and name that copy here.
const image = DEFAULT_CONTROLLER_IMAGE;

export default function (chart: Chart): void {
  new ControllerBundle(chart, 'specforge-controller', { image });
}
