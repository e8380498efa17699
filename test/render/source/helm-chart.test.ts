import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHelmChart, isHelmChartYaml } from '../../../src/render/source/helm-chart.js';
import { run, tempDir, writeFiles } from '../../support/tmp.js';

const spec =
  'apiVersion: apps.specforge.dev/v1alpha1\nkind: Myapp\nmetadata:\n  name: shop\nspec:\n  image: shop:1\n  containerPort: 80\n';

/** A chart as `helm create` lays it out. */
const helm = (name: string): Record<string, string> => ({
  [`${name}/Chart.yaml`]: `apiVersion: v2\nname: ${name}\ndescription: A Helm chart\ntype: application\nversion: 0.1.0\n`,
  [`${name}/values.yaml`]: 'replicaCount: 1\nimage:\n  repository: nginx\n',
  [`${name}/templates/deployment.yaml`]:
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include "web.fullname" . }}\nspec:\n  replicas: {{ .Values.replicaCount }}\n',
  [`${name}/templates/service.yaml`]: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n',
});

describe('a Helm chart where specforge expects a chart', () => {
  it.each(['render', 'check', 'validate'])(
    '%s names it as a Helm chart in one sentence, with the fix, and exits 2 writing nothing',
    async (command) => {
      const root = tempDir();
      const charts = writeFiles(join(root, 'charts'), { ...helm('web'), 'shop/app.yaml': spec });
      const out = join(root, 'dist');
      const r = await run([command, charts, ...(command === 'validate' ? [] : ['--out', out])]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        `specforge: ${join(charts, 'web')} is a Helm chart, not a specforge chart: give specforge a charts directory of its own (e.g. \`specforge render specs/\`, with one directory of spec files per chart), or render the Helm chart with \`helm template ${join(charts, 'web')}\`.`,
      );
      expect(existsSync(out)).toBe(false);
    },
  );

  it('names the charts directory itself when it is a Helm chart', async () => {
    const charts = join(writeFiles(tempDir(), helm('web')), 'web');
    const r = await run(['validate', charts]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(`^specforge: ${charts} is a Helm chart, .*helm template ${charts}\`\\.$`),
    );
  });

  it('takes templates/ beside values.yaml for a Helm chart, whatever Chart.yaml says', async () => {
    const files = helm('web');
    delete files['web/Chart.yaml'];
    const r = await run(['validate', writeFiles(tempDir(), files)]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('web is a Helm chart');
  });

  it('renders a chart whose settings are named Chart.yaml, and one with a templates/ directory of specs', async () => {
    const charts = writeFiles(tempDir(), {
      'team/Chart.yaml': 'namespace: team\n',
      'team/templates/app.yaml': spec,
    });
    const r = await run(['validate', charts]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('isHelmChartYaml', () => {
  it.each([
    ['apiVersion: v2\nname: web\nversion: 0.1.0\n', true],
    ['apiVersion: "v1"\r\nname: web\r\n', true],
    ["# Helm 2\napiVersion: 'v1' # old\nversion: 1.0.0\n", true],
    ['namespace: team\nlabels: { name: x }\n', false],
    ['apiVersion: v2\n', false],
    ['metadata:\n  apiVersion: v2\n  name: web\n', false],
  ])("reads %j as Helm's: %s", (text, expected) => {
    expect(isHelmChartYaml(text)).toBe(expected);
  });
});

describe('isHelmChart', () => {
  it('reads a settings file only when one is there, in any case of its name', () => {
    const asked: string[] = [];
    const text = (n: string): string => (asked.push(n), 'apiVersion: v2\nname: x\n');
    expect(isHelmChart(['app.yaml', 'templates'], text)).toBe(false);
    expect(asked).toEqual([]);
    expect(isHelmChart(['CHART.YML'], text)).toBe(true);
    expect(asked).toEqual(['CHART.YML']);
  });
});
