/**
 * Synthetic input for the render benchmark: `specs` high-level specs of all four kinds, spread evenly over
 * `charts` charts (one file per spec), plus the values of an equivalent Helm chart producing the same objects.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Generated {
  readonly specs: number;
  readonly objects: number;
}

const KINDS = ['AppService', 'Myapp', 'Podroute', 'NodePool'] as const;
const OBJECTS_PER_KIND = { AppService: 2, Myapp: 3, Podroute: 3, NodePool: 2 } as const;

/** The images of the kinds that have one, and what an image bump (`npm run bench` of `specforge diff`) makes them. */
export const IMAGES = {
  AppService: ['nginx:alpine', 'nginx:1.27-alpine'],
  Myapp: ['ikubernetes/myapp:v2', 'ikubernetes/myapp:v3'],
  Podroute: ['quay.io/austincunningham/always200:latest', 'quay.io/austincunningham/always200:v2'],
} as const;

function specText(kind: (typeof KINDS)[number], name: string, i: number, bumped: boolean): string {
  const image = (k: keyof typeof IMAGES): string => IMAGES[k][bumped ? 1 : 0];
  switch (kind) {
    case 'AppService':
      return `apiVersion: batch.schwarzeni.github.com/v1alpha1\nkind: AppService\nmetadata:\n  name: ${name}\nspec:\n  replicas: 2\n  image: ${image('AppService')}\n  envs:\n    - name: MODE\n      value: prod\n  resources:\n    limits:\n      cpu: 500m\n      memory: 128Mi\n  ports:\n    - name: http\n      port: 80\n      targetPort: 8080\n      nodePort: ${30000 + (Math.floor(i / 4) % 2700)}\n`;
    case 'Myapp':
      return `apiVersion: myapp.timd.cn/v1\nkind: Myapp\nmetadata:\n  name: ${name}\nspec:\n  replicas: 2\n  image: ${image('Myapp')}\n  containerPort: 8080\n  servicePort: 80\n  host: ${name}.example.com\n`;
    case 'Podroute':
      return `apiVersion: quay.io/v1alpha1\nkind: Podroute\nmetadata:\n  name: ${name}\nspec:\n  image: ${image('Podroute')}\n  replicas: 3\n`;
    case 'NodePool':
      return `apiVersion: nodes.lailin.xyz/v1\nkind: NodePool\nmetadata:\n  name: ${name}\nspec:\n  taints:\n    - key: node-pool.lailin.xyz\n      value: ${name}\n      effect: NoSchedule\n  labels:\n    node-pool.lailin.xyz/${name}: "10"\n  handler: runc\n`;
  }
}

/**
 * Writes `charts/<chart-NNN>/<kind>-<n>.yaml` under `root`; names are unique per chart (nodePorts too). Specs whose
 * index is in `bumped` get the second image of {@link IMAGES} (an image bump; NodePools have none).
 */
export function generateCharts(
  root: string,
  specs: number,
  charts: number,
  bumped: ReadonlySet<number> = new Set(),
): Generated {
  let objects = 0;
  const perChart = Math.ceil(specs / charts);
  for (let i = 0; i < specs; i++) {
    const chart = `chart-${String(Math.floor(i / perChart)).padStart(3, '0')}`;
    const kind = KINDS[i % KINDS.length] ?? 'AppService';
    const name = `${kind.toLowerCase()}-${i}`;
    mkdirSync(join(root, chart), { recursive: true });
    writeFileSync(join(root, chart, `${name}.yaml`), specText(kind, name, i % perChart, bumped.has(i)));
    objects += OBJECTS_PER_KIND[kind];
  }
  return { specs, objects };
}

/**
 * A Helm chart whose templates make the same objects from a values list, and that values file. Entries whose index
 * is in `bumped` carry another image.
 */
export function generateHelmChart(
  root: string,
  specs: number,
  onlyKind?: (typeof KINDS)[number],
  bumped: ReadonlySet<number> = new Set(),
): void {
  mkdirSync(join(root, 'templates'), { recursive: true });
  writeFileSync(join(root, 'Chart.yaml'), 'apiVersion: v2\nname: bench\nversion: 0.1.0\n');
  const kindOf = (i: number): string => onlyKind ?? KINDS[i % KINDS.length] ?? 'AppService';
  const apps = Array.from({ length: specs }, (_, i) => ({
    kind: kindOf(i),
    name: `${kindOf(i).toLowerCase()}-${i}`,
    nodePort: 30000 + (i % 2700),
    image: bumped.has(i) ? ', image: "nginx:1.27-alpine"' : '',
  }));
  writeFileSync(
    join(root, 'values.yaml'),
    `apps:\n${apps.map((a) => `  - {kind: ${a.kind}, name: ${a.name}, nodePort: ${a.nodePort}${a.image}}`).join('\n')}\n`,
  );
  writeFileSync(join(root, 'templates', 'all.yaml'), HELM_TEMPLATE);
}

const LABELS = `    app: {{ .name }}
    app.kubernetes.io/instance: {{ .name }}
    app.kubernetes.io/managed-by: specforge
    app.kubernetes.io/name: {{ .name }}
    app.kubernetes.io/part-of: bench
    specforge.dev/spec-kind: {{ .kind | lower }}
    specforge.dev/spec-name: {{ .name }}`;

const DEPLOYMENT = `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .name }}
  labels:
${LABELS}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: {{ .name }}
  template:
    metadata:
      labels:
${LABELS.replace(/^ {4}/gm, '        ')}
    spec:
      containers:
        - name: {{ .name }}
          image: {{ .image | default "nginx:alpine" }}
          ports:
            - containerPort: 8080
`;

const SERVICE = `---
apiVersion: v1
kind: Service
metadata:
  name: {{ .name }}
  labels:
${LABELS}
spec:
  type: NodePort
  selector:
    app: {{ .name }}
  ports:
    - port: 80
      targetPort: 8080
      nodePort: {{ .nodePort }}
`;

const HELM_TEMPLATE = `{{- range .Values.apps }}
{{- if eq .kind "NodePool" }}
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata:
  name: {{ .name }}
  labels:
${LABELS}
handler: runc
scheduling:
  nodeSelector:
    node-pool.lailin.xyz/{{ .name }}: "10"
  tolerations:
    - key: node-pool.lailin.xyz
      operator: Equal
      value: {{ .name }}
      effect: NoSchedule
---
apiVersion: nodes.specforge.dev/v1
kind: NodePool
metadata:
  name: {{ .name }}
  labels:
${LABELS}
spec:
  labels:
    node-pool.lailin.xyz/{{ .name }}: "10"
  handler: runc
{{- else }}
${DEPLOYMENT}${SERVICE}
{{- if eq .kind "Myapp" }}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ .name }}
  labels:
${LABELS}
spec:
  ingressClassName: nginx
  rules:
    - host: {{ .name }}.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: {{ .name }}
                port:
                  number: 80
{{- end }}
{{- if eq .kind "Podroute" }}
---
apiVersion: route.openshift.io/v1
kind: Route
metadata:
  name: {{ .name }}
  labels:
${LABELS}
spec:
  to:
    kind: Service
    name: {{ .name }}
  port:
    targetPort: 8080
{{- end }}
{{- end }}
{{- end }}
`;
