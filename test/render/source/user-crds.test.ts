/**
 * Custom resources end to end: `specforge render` (bin/specforge.js, after `npm run build`) checks a chart module's
 * custom resources against the CRDs in `crds/` beside the charts directory and the vendored ones, reports every
 * problem of the run with the module's file, the object and the field, leaves dist/ untouched, and names in a note
 * a custom resource whose CRD it does not know.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readUserCrds } from '../../../src/render/source/user-crds.js';
import { repoTempDir, writeFiles } from '../../support/tmp.js';
import { WIDGET_CRD } from '../../support/widget-crd.js';

const ROOT = resolve(import.meta.dirname, '../../..');

function module(objects: readonly object[]): string {
  const made = objects.map((o, i) => `  new ApiObject(chart, 'o${i}', ${JSON.stringify(o)});`).join('\n');
  return `import { ApiObject } from 'cdk8s';\nexport default (chart: any) => {\n${made}\n};\n`;
}

const widget = (spec: object) => ({
  apiVersion: 'gate.specforge.test/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec,
});
const application = (spec: object) => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: { name: 'a' },
  spec,
});
const thing = { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' } };

function specforge(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'bin/specforge.js'), ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('custom resources of a render', () => {
  it('refuses a chart module whose custom resources break their CRDs, with every problem and dist/ untouched', () => {
    const root = writeFiles(repoTempDir('crd-gate-'), {
      'crds/widget.yaml': stringify(WIDGET_CRD),
      'charts/app/chart.ts': module([widget({ size: 0, mode: 'Paused', schedule: '0 * * * *', typo: 1 })]),
      'charts/other/chart.ts': module([widget({ size: 'big' })]),
    });
    const r = specforge(root, 'render', 'charts', '--out', 'dist');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /charts\/app\/chart\.ts \(Widget\/w\) spec\.typo: expected .*found an unknown field/,
    );
    expect(r.stderr).toMatch(/charts\/app\/chart\.ts \(Widget\/w\) spec\.size: expected at least 1, found 0/);
    expect(r.stderr).toMatch(
      /charts\/app\/chart\.ts \(Widget\/w\) spec: expected schedule is forbidden in mode Paused/,
    );
    expect(r.stderr).toMatch(
      /charts\/other\/chart\.ts \(Widget\/w\) spec\.size: expected an integer, found "big"/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('refuses a custom resource of a vendored CRD (Argo CD Application) where the chart module makes it', () => {
    const root = writeFiles(repoTempDir('crd-gate-'), {
      'charts/app/chart.ts': module([
        application({ project: 3, destination: {}, syncPolicy: { retry: { limit: '5' } } }),
      ]),
    });
    const r = specforge(root, 'render', 'charts', '--out', 'dist');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /charts\/app\/chart\.ts \(Application\/a\) spec\.project: expected a string, found 3/,
    );
    expect(r.stderr).toMatch(
      /\(Application\/a\) spec\.syncPolicy\.retry\.limit: expected an integer, found "5"/,
    );
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('renders valid custom resources, and names in a note those whose CRD is unknown', () => {
    const root = writeFiles(repoTempDir('crd-gate-'), {
      'crds/widget.yaml': stringify(WIDGET_CRD),
      'charts/app/chart.ts': module([
        widget({ size: 3 }),
        application({ project: 'default', destination: {} }),
        thing,
      ]),
    });
    const r = specforge(root, 'render', 'charts', '--out', 'dist');
    expect(r.stderr + r.stdout).toContain('not checked against a schema');
    expect(r.stderr + r.stdout).toContain('Thing/t (example.com/v1)');
    expect(r.status).toBe(0);
    expect(existsSync(join(root, 'dist/app'))).toBe(true);
  });
});

/** The test CRD with its `spec` node's CEL rules replaced by `rules`. */
function widgetCrdWith(rules: unknown): object {
  const crd = structuredClone(WIDGET_CRD) as any;
  crd.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = rules;
  return crd;
}

const SPEC_RULES = 'spec.versions[0].schema.openAPIV3Schema.properties.spec["x-kubernetes-validations"]';

describe('crds/ files specforge cannot take', () => {
  it("are each a sentence naming the file, beside the charts' own errors, exit 1, dist/ untouched: a dangling link, an alias bomb, malformed CEL rules", () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [i, n] of [...'bcdefghi'].entries()) {
      const prev = 'abcdefghi'[i];
      laughs.push(`${n}: &${n} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const root = writeFiles(repoTempDir('crd-gate-'), {
      'crds/bomb.yaml': `${laughs.join('\n')}\n`,
      'crds/not-a-list.yaml': stringify(widgetCrdWith('self.size > 1')),
      'crds/rules.yaml': stringify(widgetCrdWith([{ rule: 5 }, { message: 'no rule' }])),
      'charts/app/chart.ts': module([widget({ size: 3 })]),
      // a chart's own error, reported in the same run
      'charts/bad/chart.ts': module([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad' } }]),
    });
    symlinkSync(join(root, 'crds/nowhere.yaml'), join(root, 'crds/gone.yaml'));
    const r = specforge(root, 'render', 'charts', '--out', 'dist');
    expect(r.status).toBe(1);
    const crds = (f: string) => join('crds', f);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `${crds('bomb.yaml')} (document 1): expected YAML whose aliases expand to a document of bounded size (at most 100 expansions), found more (Excessive alias count indicates a resource exhaustion attack). Write the repeated parts out instead of using anchors and aliases.`,
      `${crds('gone.yaml')}: expected a CRD file specforge can read (crds/ holds the CRDs that check the render's custom resources), found a symbolic link to nothing. Remove the link, or point it at the CRD file.`,
      `${crds('not-a-list.yaml')} (document 1) ${SPEC_RULES}: expected a list, found "self.size > 1".`,
      `${crds('rules.yaml')} (document 1) ${SPEC_RULES}[0].rule: expected a string, found 5.`,
      `${crds('rules.yaml')} (document 1) ${SPEC_RULES}[1].rule: expected a CEL expression (a string: required), found nothing.`,
      expect.stringMatching(/^charts\/bad\/chart\.ts \(ConfigMap\/Bad\) metadata\.name: /),
      'specforge: 6 errors; dist left unchanged.',
    ]);
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it("refuses a chart module's CRD with malformed CEL rules, and checks its custom resources against nothing", () => {
    const crd = widgetCrdWith([{ message: 'no rule' }]);
    const root = writeFiles(repoTempDir('crd-gate-'), {
      'charts/app/chart.ts': module([crd, widget({ size: 0 })]),
    });
    const r = specforge(root, 'render', 'charts', '--out', 'dist');
    expect(r.status).toBe(1);
    const file = join('charts', 'app', 'chart.ts');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `${file} (CustomResourceDefinition/widgets.gate.specforge.test) ${SPEC_RULES}[0].rule: expected a CEL expression (a string: required), found nothing.`,
      'specforge: 1 error; dist left unchanged.',
    ]);
  });
});

describe('readUserCrds', () => {
  it('reads nothing where there is no crds/ beside the charts', () => {
    expect(readUserCrds(join(repoTempDir('crd-gate-'), 'charts'))).toEqual({ crds: [], errors: [] });
  });

  it('refuses a document in crds/ that is not a CRD, naming its file and document', () => {
    const root = writeFiles(repoTempDir('crd-gate-'), {
      'crds/a.yaml': `${stringify(WIDGET_CRD)}---\nkind: ConfigMap\n`,
    });
    const { crds, errors } = readUserCrds(join(root, 'charts'));
    expect(crds).toHaveLength(1);
    expect(errors).toEqual([
      expect.objectContaining({
        file: join(root, 'crds/a.yaml'),
        document: 2,
        path: 'kind',
        found: '"ConfigMap"',
      }),
    ]);
  });
});
