/**
 * The bad-input cases of the spec-file door, shared by the two tests that use them: `test/specs/bad-input.test.ts`
 * (the command line refuses each, naming file and field, and leaves dist/ untouched) and
 * `test/constructs/bad-input-parity.test.ts` (the constructs, given the same values as props, refuse each with the
 * same field and message). One list: a case added here is checked through both doors.
 */
/**
 * Every case: a chart holding one broken spec next to a valid one. `specforge render` must exit 1, name the file
 * and the field in its message, and leave the previously rendered dist/ exactly as it was.
 */
export interface BadInputCase {
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
  /** Substrings the error output must contain: at least the file and the field. */
  readonly expect: readonly string[];
}

export const app = (spec: string, meta = 'name: web'): string =>
  `apiVersion: apps.specforge.dev/v1alpha1\nkind: AppService\nmetadata:\n  ${meta}\nspec:\n${spec}`;
export const myapp = (spec: string): string =>
  `apiVersion: myapp.timd.cn/v1\nkind: Myapp\nmetadata:\n  name: shop\nspec:\n${spec}`;
export const pool = (spec: string, meta = 'name: gpu'): string =>
  `apiVersion: nodes.lailin.xyz/v1\nkind: NodePool\nmetadata:\n  ${meta}\nspec:\n${spec}`;
export const okPorts = '  image: nginx\n  ports:\n    - port: 80\n';

export const badInputCases: readonly BadInputCase[] = [
  {
    name: 'a YAML syntax error',
    files: { 'a/x.yaml': 'kind: AppService\nmetadata: [\n' },
    expect: ['a/x.yaml:', 'valid YAML'],
  },
  {
    name: 'tabs used for indentation',
    files: { 'a/x.yaml': 'kind: AppService\nspec:\n\timage: x\n' },
    expect: ['a/x.yaml:3', 'valid YAML'],
  },
  {
    name: 'a duplicate key',
    files: { 'a/x.yaml': app(okPorts + '  image: again\n') },
    expect: ['a/x.yaml:', 'duplicated mapping key'],
  },
  {
    name: 'an unknown kind',
    files: { 'a/x.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n' },
    expect: ['a/x.yaml:2:7 (document 1) kind', 'one of AppService, Myapp, Podroute, NodePool', '"Pod"'],
  },
  {
    name: 'a missing kind',
    files: { 'a/x.yaml': 'apiVersion: v1\nmetadata:\n  name: p\n' },
    expect: ['a/x.yaml', 'kind:', 'found nothing'],
  },
  {
    name: 'an unknown apiVersion',
    files: { 'a/x.yaml': app(okPorts).replace('apps.specforge.dev/v1alpha1', 'apps/v1') },
    expect: ['a/x.yaml:1:13 (document 1) apiVersion', 'batch.schwarzeni.github.com/v1alpha1', '"apps/v1"'],
  },
  {
    name: 'a missing name',
    files: { 'a/x.yaml': app(okPorts, 'labels: {a: b}') },
    expect: ['a/x.yaml', 'metadata.name', 'required'],
  },
  {
    name: 'a missing image',
    files: { 'a/x.yaml': app('  ports:\n    - port: 80\n') },
    expect: ['a/x.yaml:6:3 (document 1) spec.image', 'required'],
  },
  {
    name: 'negative replicas',
    files: { 'a/x.yaml': app(okPorts + '  replicas: -2\n') },
    expect: ['a/x.yaml:9:13 (document 1) spec.replicas', 'from 0 to', 'found -2'],
  },
  {
    name: 'Myapp replicas above 1000',
    files: { 'a/x.yaml': myapp('  image: shop:1\n  containerPort: 80\n  replicas: 5000\n') },
    expect: ['spec.replicas', 'from 1 to 1000', '5000'],
  },
  {
    name: 'replicas given as a string',
    files: { 'a/x.yaml': app(okPorts + '  replicas: "3"\n') },
    expect: ['spec.replicas', 'type integer', '"3"'],
  },
  {
    name: 'a port above 65535',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 70000\n') },
    expect: ['a/x.yaml:8:13 (document 1) spec.ports[0].port', 'from 1 to 65535', '70000'],
  },
  {
    name: 'an empty image and a port of 0 (the seed bug)',
    files: { 'a/x.yaml': app('  image: ""\n  ports:\n    - port: 0\n') },
    expect: ['a/x.yaml:6:10 (document 1) spec.image', 'spec.ports[0].port', 'found 0'],
  },
  {
    name: 'a named targetPort on an unnamed port (no container port gets that name)',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      targetPort: http\n') },
    expect: ['spec.ports[0].targetPort', 'no container port has a name', '"http"'],
  },
  {
    name: 'a chart label key that is not a label key',
    files: { 'a/chart.yaml': 'labels:\n  "bad key!": x\n', 'a/x.yaml': app(okPorts) },
    expect: ['a/chart.yaml:2:', 'labels["bad key!"]', 'label key'],
  },
  {
    name: 'a chart label value that is not a label value',
    files: { 'a/chart.yaml': 'labels:\n  team: "two words"\n', 'a/x.yaml': app(okPorts) },
    expect: ['a/chart.yaml:2:9', 'labels.team', 'label value', '"two words"'],
  },
  {
    name: 'a zero targetPort (never containerPort: 0)',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      targetPort: 0\n') },
    expect: ['spec.ports[0].targetPort', '1 to 65535', 'found 0'],
  },
  {
    name: 'a Myapp containerPort of 0',
    files: { 'a/x.yaml': myapp('  image: shop:1\n  containerPort: 0\n') },
    expect: ['spec.containerPort', 'from 1 to 65535', 'found 0'],
  },
  {
    name: 'a named targetPort with no matching container port',
    files: {
      'a/x.yaml': app(
        '  image: nginx\n  ports:\n    - name: http\n      port: 80\n    - name: admin\n      port: 81\n      targetPort: metrics\n',
      ),
    },
    expect: ['spec.ports[1].targetPort', 'name of a container port (http)', '"metrics"'],
  },
  {
    name: 'a NodePort service without ports',
    files: { 'a/x.yaml': app('  image: nginx\n') },
    expect: ['a/x.yaml', 'spec.ports', 'NodePort Service, which needs ports'],
  },
  {
    name: 'an empty port list',
    files: { 'a/x.yaml': app('  image: nginx\n  ports: []\n') },
    expect: ['spec.ports', 'an empty list'],
  },
  {
    name: 'two unnamed ports',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n    - port: 81\n') },
    expect: ['spec.ports[0].name', 'several ports'],
  },
  {
    name: 'a lowercase protocol',
    files: { 'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      protocol: tcp\n') },
    expect: ['spec.ports[0].protocol', '"TCP", "UDP", "SCTP"', '"tcp"'],
  },
  {
    name: 'two specs making the same object',
    files: { 'a/x.yaml': app(okPorts), 'a/y.yaml': app(okPorts) },
    expect: ['a/y.yaml', 'metadata.name', 'also defined in', 'a/x.yaml'],
  },
  {
    name: 'an AppService and a Myapp making the same Deployment',
    files: {
      'a/x.yaml': app(okPorts),
      'a/y.yaml': myapp('  image: shop:1\n  containerPort: 80\n').replace('name: shop', 'name: web'),
    },
    expect: ['a/y.yaml', 'Deployment/web', 'also made by', 'a/x.yaml'],
  },
  {
    name: 'two Services on one nodePort',
    files: {
      'a/x.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      nodePort: 30080\n'),
      'a/y.yaml': app('  image: nginx\n  ports:\n    - port: 80\n      nodePort: 30080\n', 'name: api'),
    },
    expect: ['nodePort not used by another Service', '30080'],
  },
  {
    name: 'a name that is not a DNS label',
    files: { 'a/x.yaml': app(okPorts, 'name: Web_App') },
    expect: ['a/x.yaml:4:9 (document 1) metadata.name', 'DNS label', '"Web_App"'],
  },
  {
    name: 'a name starting with a digit (Service names are RFC 1035)',
    files: { 'a/x.yaml': app(okPorts, 'name: 1web') },
    expect: ['metadata.name', 'RFC 1035', '"1web"'],
  },
  {
    name: 'an invalid label key on a NodePool',
    files: { 'a/x.yaml': pool('  labels:\n    "bad key!": "x"\n') },
    expect: ['a/x.yaml', 'spec.labels["bad key!"]', 'label key'],
  },
  {
    name: 'an invalid label value',
    files: { 'a/x.yaml': pool('  labels:\n    pool: "has spaces"\n') },
    expect: ['spec.labels.pool', 'label value', '"has spaces"'],
  },
  {
    name: 'an invalid taint effect',
    files: { 'a/x.yaml': pool('  taints:\n    - key: gpu\n      effect: NoScheduleX\n') },
    expect: [
      'a/x.yaml:8:15 (document 1) spec.taints[0].effect',
      '"NoSchedule", "PreferNoSchedule", "NoExecute"',
      '"NoScheduleX"',
    ],
  },
  {
    name: 'a taint on a reserved Kubernetes key',
    files: {
      'a/x.yaml': pool('  taints:\n    - key: node.kubernetes.io/unschedulable\n      effect: NoSchedule\n'),
    },
    expect: ['spec.taints[0].key', 'reserved', '"node.kubernetes.io/unschedulable"'],
  },
  {
    name: 'a label that would make Nodes members of another pool',
    files: { 'a/x.yaml': pool('  labels:\n    node-role.kubernetes.io/other: ""\n') },
    expect: ['spec.labels["node-role.kubernetes.io/other"]', 'reserved'],
  },
  {
    name: 'a taint without a key',
    files: { 'a/x.yaml': pool('  taints:\n    - effect: NoSchedule\n') },
    expect: ['spec.taints[0].key', 'required'],
  },
  {
    name: 'a namespace on a cluster-scoped NodePool',
    files: { 'a/x.yaml': pool('  labels: {a: b}\n', 'name: gpu\n  namespace: team') },
    expect: ['metadata.namespace', 'cluster-scoped'],
  },
  {
    name: 'a non-object spec',
    files: { 'a/x.yaml': app('  - image\n') },
    expect: ['a/x.yaml', 'spec', 'type object', 'a list of 1'],
  },
  {
    name: 'a document that is a plain string',
    files: { 'a/x.yaml': 'hello\n' },
    expect: ['a/x.yaml', 'a mapping with apiVersion', '"hello"'],
  },
  {
    name: 'an empty file',
    files: { 'a/x.yaml': '' },
    expect: ['a/x.yaml', 'at least one spec document', 'an empty file'],
  },
  {
    name: 'a file of comments only',
    files: { 'a/x.yaml': '# nothing yet\n' },
    expect: ['a/x.yaml', 'an empty file'],
  },
  {
    name: 'a misspelt field',
    files: { 'a/x.yaml': app(okPorts + '  replica: 2\n') },
    expect: ['spec.replica', 'unknown field', 'Did you mean "replicas"?'],
  },
  {
    name: 'a bad resource quantity',
    files: { 'a/x.yaml': app(okPorts + '  resources:\n    limits:\n      memory: lots\n') },
    expect: ['spec.resources.limits.memory', 'Kubernetes quantity', '"lots"'],
  },
  {
    name: 'an error in the second document of a file',
    files: {
      'a/x.yaml': app(okPorts) + '---\n' + app('  image: 5\n  ports:\n    - port: 80\n', 'name: api'),
    },
    expect: ['(document 2) spec.image', 'type string'],
  },
  {
    name: 'a Myapp host that is not a DNS name',
    files: { 'a/x.yaml': myapp('  image: shop:1\n  containerPort: 80\n  host: Shop_Example.com\n') },
    expect: ['spec.host', 'DNS name', '"Shop_Example.com"'],
  },
  {
    name: 'an invalid chart setting',
    files: { 'a/chart.yaml': 'hardening: maximal\n', 'a/x.yaml': app(okPorts) },
    expect: ['a/chart.yaml:1:12', 'hardening', '"none", "restricted"'],
  },
  {
    name: 'a chart directory that is not a DNS label',
    files: { 'Team_A/x.yaml': app(okPorts) },
    expect: ['Team_A', 'chart directory named as a DNS label'],
  },
  {
    name: 'size and replicas disagreeing',
    files: { 'a/x.yaml': app(okPorts + '  replicas: 2\n  size: 3\n') },
    expect: ['spec.size', 'same value as spec.replicas'],
  },
];
