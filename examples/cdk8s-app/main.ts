// The cdk8s app: `npx cdk8s synth` (cdk8s.yaml) runs this file and writes cdk8s.out/shop.k8s.yaml.
// A mistake in the props throws at construction; a broken chart (a Service selecting nothing, two objects with
// one name, ...) fails app.synth() with the same words `specforge render` uses for spec files.
import { App } from 'cdk8s';
import { Shop } from './shop.js';

const app = new App();
new Shop(app, 'shop');
app.synth();
