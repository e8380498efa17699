import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import { AppService, ChartNamespace, Myapp } from 'specforge';

/**
 * The shop: a storefront (Myapp: Deployment, Service, Ingress) and an API (AppService: Deployment, NodePort
 * Service) in namespace `shop`, labelled for the payments team. The same chart as spec files is in specs/shop/.
 */
export class Shop extends Chart {
  constructor(scope: Construct, id: string) {
    // Objects take the Chart's namespace and labels, as cdk8s' own objects do.
    super(scope, id, { namespace: 'shop', labels: { team: 'payments' } });
    new ChartNamespace(this, 'namespace');
    new Myapp(this, 'storefront', {
      image: 'ghcr.io/example/storefront:1.4.2',
      replicas: 2,
      containerPort: 8080,
      servicePort: 80,
      host: 'shop.example.com',
    });
    new AppService(this, 'api', {
      image: 'ghcr.io/example/api:2.0.1',
      replicas: 3,
      ports: [{ name: 'http', port: 80, targetPort: 8080 }],
      envs: [{ name: 'LOG_LEVEL', value: 'info' }],
    });
  }
}
