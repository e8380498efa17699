import { Chart, Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { ChartNamespace, POD_SECURITY_ENFORCE_LABEL } from '../../src/index.js';
import { renderSpecFiles } from '../../src/testing.js';

const chart = (): Chart =>
  new Chart(Testing.app(), 'shop', { namespace: 'shop', labels: { team: 'payments' } });

describe('ChartNamespace', () => {
  it('carries no Pod Security label unless asked', () => {
    const c = chart();
    new ChartNamespace(c, 'namespace');
    const [ns] = Testing.synth(c);
    expect(ns.metadata.labels).toEqual({
      team: 'payments',
      'app.kubernetes.io/managed-by': 'specforge',
      'app.kubernetes.io/part-of': 'shop',
    });
  });

  it.each(['privileged', 'baseline', 'restricted'] as const)(
    'labels the Namespace pod-security.kubernetes.io/enforce: %s, and nothing else of Pod Security',
    (level) => {
      const c = chart();
      new ChartNamespace(c, 'namespace', { podSecurity: level });
      const [ns] = Testing.synth(c);
      expect(ns.metadata.labels[POD_SECURITY_ENFORCE_LABEL]).toBe(level);
      expect(Object.keys(ns.metadata.labels).filter((k) => k.startsWith('pod-security.'))).toEqual([
        POD_SECURITY_ENFORCE_LABEL,
      ]);
    },
  );

  it('lets the podSecurity prop win over a chart label of the same key', () => {
    const c = new Chart(Testing.app(), 'shop', {
      namespace: 'shop',
      labels: { [POD_SECURITY_ENFORCE_LABEL]: 'privileged' },
    });
    new ChartNamespace(c, 'namespace', { podSecurity: 'restricted' });
    expect(Testing.synth(c)[0].metadata.labels[POD_SECURITY_ENFORCE_LABEL]).toBe('restricted');
  });

  it('refuses a level that does not exist, in the words of the chart setting', () => {
    expect(() => new ChartNamespace(chart(), 'namespace', { podSecurity: 'strict' as any })).toThrow(
      'specforge: invalid props for ChartNamespace shop/namespace:\n' +
        '  podSecurity: expected one of "privileged", "baseline", "restricted", found "strict".',
    );
  });

  it('gives the Namespace the chart setting podSecurity renders, byte for byte', () => {
    const c = chart();
    new ChartNamespace(c, 'namespace', { podSecurity: 'baseline' });
    const rendered = renderSpecFiles({
      'shop/chart.yaml':
        'namespace: shop\ncreateNamespace: true\nlabels: { team: payments }\npodSecurity: baseline\n',
    });
    expect(rendered.errors).toEqual([]);
    expect(rendered.charts.get('shop')).toEqual(Testing.synth(c));
  });
});
