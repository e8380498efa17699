/**
 * `npm run bench` (part): the custom-resource gate on a CEL-heavy corpus (issue 45): `specforge render` of one chart
 * module making 1,000 custom resources of a CRD with 20 `x-kubernetes-validations` rules on each (the CRD in
 * `crds/` beside the charts), beside the same render with no CRD known (the resources only named in a note), in turn,
 * median of {@link RUNS} fresh processes. Setup is not timed.
 */
import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { stringify } from 'yaml';
import { repoTempDir } from '../test/support/tmp.js';
import { median, ROOT, RUNS, timeCommand, type Sample } from './harness.js';

const RESOURCES = Number(process.env.CEL_RESOURCES ?? 1000);
const RULES = 20;
const GROUP = 'bench.specforge.test';

/** Twenty rules over ten integer fields, five strings and a list: comparisons, strings, regex, lists, quantity. */
function rules(): { rule: string; message: string }[] {
  const out: { rule: string; message: string }[] = [];
  for (let i = 0; i < 10; i++)
    out.push({ rule: `self.n${i} >= 0 && self.n${i} <= 1000000`, message: `n${i} in range` });
  for (let i = 0; i < 5; i++)
    out.push({
      rule: `self.s${i}.size() <= 63 && self.s${i}.lowerAscii() == self.s${i}`,
      message: `s${i} short, lowercase`,
    });
  out.push({ rule: "self.s0.matches('^[a-z][-a-z0-9]*$')", message: 's0 a name' });
  out.push({
    rule: 'self.items.all(x, x >= 0) && self.items.isSorted()',
    message: 'items sorted, not negative',
  });
  out.push({ rule: 'self.items.size() <= 16 && self.items.sum() < 100000', message: 'items few and small' });
  out.push({
    rule: "quantity(self.memory).compareTo(quantity('64Gi')) <= 0",
    message: 'memory at most 64Gi',
  });
  out.push({ rule: '!has(self.mode) || self.mode in ["a", "b"]', message: 'mode a or b' });
  return out.slice(0, RULES);
}

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `rules.${GROUP}` },
  spec: {
    group: GROUP,
    names: { kind: 'Rule', plural: 'rules' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': rules(),
                properties: {
                  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`n${i}`, { type: 'integer' }])),
                  ...Object.fromEntries(
                    Array.from({ length: 5 }, (_, i) => [`s${i}`, { type: 'string', maxLength: 63 }]),
                  ),
                  items: { type: 'array', maxItems: 16, items: { type: 'integer' } },
                  memory: { type: 'string', maxLength: 16 },
                  mode: { type: 'string' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

const MODULE = `import { ApiObject } from 'cdk8s';
export default (chart: any) => {
  for (let i = 0; i < ${RESOURCES}; i++) {
    const spec: Record<string, unknown> = { items: [1, 2, 3, 3 + i], memory: '1Gi', mode: 'a' };
    for (let n = 0; n < 10; n++) spec['n' + n] = i * n;
    for (let s = 0; s < 5; s++) spec['s' + s] = 'name-' + i + '-' + s;
    new ApiObject(chart, 'r' + i, { apiVersion: '${GROUP}/v1', kind: 'Rule', metadata: { name: 'r-' + i }, spec });
  }
};
`;

function corpus(withCrd: boolean): string {
  const root = repoTempDir('bench-crd-');
  mkdirSync(join(root, 'charts/rules'), { recursive: true });
  writeFileSync(join(root, 'charts/rules/chart.ts'), MODULE);
  if (withCrd) {
    mkdirSync(join(root, 'crds'));
    writeFileSync(join(root, 'crds/rules.yaml'), stringify(CRD));
  }
  return root;
}

function render(root: string): Sample {
  const out = join(root, 'dist');
  rmSync(out, { recursive: true, force: true });
  return timeCommand(
    process.execPath,
    [join(ROOT, 'bin/specforge.js'), 'render', join(root, 'charts'), '--out', out],
    'gnu-time',
  );
}

function main(): void {
  const checked = corpus(true);
  const unchecked = corpus(false);
  const load = loadavg()[0]!.toFixed(1);
  const a: Sample[] = [];
  const b: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(render(checked));
    b.push(render(unchecked));
  }
  const row = (what: string, s: Sample) =>
    `| ${what} | ${RESOURCES} custom resources, 1 chart module | ${s.seconds.toFixed(2)} s | ${s.maxRssMb.toFixed(0)} MB | ${RUNS} | ${load} |`;
  console.log('\n## Custom resources with CEL rules (issue 45)\n');
  console.log('| Command | Input | Wall (median) | Peak memory | Runs | Load |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(row(`**specforge render**, a CRD with ${RULES} rules each (crds/)`, median(a)));
  console.log(row('specforge render, the same with no CRD known (in turn with the row above)', median(b)));
  for (const root of [checked, unchecked]) rmSync(root, { recursive: true, force: true });
}

main();
