import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invariantProblems, renderSpecFiles } from '../../src/testing.js';

/**
 * The chart setting `platform` on the example Myapp and Podroute charts: `kubernetes` exposes each through an
 * Ingress, `openshift` through an OpenShift Route. Each render is a reviewed YAML snapshot; without the setting,
 * each kind renders as its operator did (dist/, test/render/__snapshots__/myapp.yaml and pod-route.yaml).
 */

const PLATFORMS = ['kubernetes', 'openshift'] as const;
const CHARTS = ['myapp', 'pod-route'];

/** The spec files of an example chart, with its chart.yaml (if any) plus `extra` settings lines. */
function exampleFiles(chart: string, extra: string): Record<string, string> {
  const dir = join('charts', chart);
  const files: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.yaml') && x !== 'chart.yaml'))
    files[`${chart}/${f}`] = readFileSync(join(dir, f), 'utf8');
  const settings = existsSync(join(dir, 'chart.yaml')) ? readFileSync(join(dir, 'chart.yaml'), 'utf8') : '';
  files[`${chart}/chart.yaml`] = settings + extra;
  return files;
}

const render = (chart: string, extra = '') => renderSpecFiles(exampleFiles(chart, extra));

describe('chart setting platform', () => {
  it.each(CHARTS.flatMap((chart) => PLATFORMS.map((platform) => ({ chart, platform }))))(
    'renders chart $chart on $platform as the reviewed snapshot',
    async ({ chart, platform }) => {
      const { files, errors } = render(chart, `platform: ${platform}\n`);
      expect(errors).toEqual([]);
      const text = [...files].map(([p, bytes]) => `# ---- ${p}\n${bytes}`).join('');
      await expect(text).toMatchFileSnapshot(`__snapshots__/platform/${chart}.${platform}.yaml`);
    },
  );

  it.each(CHARTS.flatMap((chart) => PLATFORMS.map((platform) => ({ chart, platform }))))(
    'gives chart $chart on $platform one Ingress or Route per spec, naming its Service and a port it has',
    ({ chart, platform }) => {
      const objects = render(chart, `platform: ${platform}\n`).charts.get(chart) ?? [];
      expect(invariantProblems(objects)).toEqual([]);
      const kinds = objects.map((o) => o.kind);
      expect(kinds).toContain(platform === 'kubernetes' ? 'Ingress' : 'Route');
      expect(kinds).not.toContain(platform === 'kubernetes' ? 'Route' : 'Ingress');
      for (const o of objects.filter((x) => x.kind === 'Ingress' || x.kind === 'Route')) {
        const svc = objects.find((x) => x.kind === 'Service' && x.metadata.name === o.metadata.name);
        expect(svc, `the Service of ${o.kind}/${o.metadata.name}`).toBeDefined();
        if (o.kind === 'Ingress') {
          const backend = o.spec.rules[0].http.paths[0].backend.service;
          expect(backend.name).toBe(svc?.metadata.name);
          expect(svc?.spec.ports.map((p: any) => p.port)).toContain(backend.port.number);
        } else {
          expect(o.spec.to).toEqual({ kind: 'Service', name: svc?.metadata.name });
          expect(svc?.spec.ports.map((p: any) => p.targetPort)).toContain(o.spec.port.targetPort);
        }
      }
    },
  );

  it('is, when unset, each kind as its operator exposed it: Myapp on kubernetes, Podroute on openshift', () => {
    expect(render('myapp').files).toEqual(render('myapp', 'platform: kubernetes\n').files);
    expect(render('pod-route').files).toEqual(render('pod-route', 'platform: openshift\n').files);
  });

  it('gives a Podroute Ingress the chart ingressClassName, nginx when unset', () => {
    const ingressOf = (extra: string) =>
      (render('pod-route', extra).charts.get('pod-route') ?? []).find((o) => o.kind === 'Ingress');
    expect(ingressOf('platform: kubernetes\n')?.spec.ingressClassName).toBe('nginx');
    expect(ingressOf('platform: kubernetes\ningressClassName: traefik\n')?.spec.ingressClassName).toBe(
      'traefik',
    );
  });
});
