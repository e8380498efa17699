import { describe, expect, it } from 'vitest';
import { checkIngressHost, checkIngressTlsHost } from '../../src/rules/networking-ingress.js';
import { validateBuiltIn } from '../../src/rules/validate.js';

describe('Ingress hosts (networking-ingress)', () => {
  it('takes a host with leading zeros as an IP address, as the API server does', () => {
    expect(checkIngressHost(['host'], '0001.2.3.4')[0]?.expected).toBe('a DNS name, not an IP address');
    expect(checkIngressHost(['host'], '1.2.3')).toEqual([]);
  });
});

describe('Ingress TLS (networking-ingress, networking-validation)', () => {
  const ingress = (tls: unknown[]) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web', namespace: 'fuzz' },
    spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, tls },
  });
  const paths = (tls: unknown[]) => validateBuiltIn(ingress(tls)).map((p) => `${p.path}: ${p.expected}`);

  it('takes DNS names, a leading wildcard and, unlike a rule host, an IP address, which is a DNS subdomain', () => {
    expect(checkIngressTlsHost(['host'], '1.2.3.4')).toEqual([]);
    expect(
      paths([{ hosts: ['shop.example.com', '*.example.com', '10.0.0.1'], secretName: 'shop-tls' }]),
    ).toEqual([]);
    expect(paths([{ hosts: ['shop.example.com'] }])).toEqual([]);
  });

  it('refuses a TLS host that is no lowercase DNS name or has a wildcard inside, and a bad secretName', () => {
    expect(paths([{ hosts: ['Shop.example.com'] }])[0]).toContain(
      'spec.tls[0].hosts[0]: a lowercase DNS name',
    );
    expect(paths([{ hosts: ['a.*.example.com'] }])[0]).toContain('spec.tls[0].hosts[0]');
    expect(paths([{ hosts: ['*'] }])[0]).toContain('spec.tls[0].hosts[0]');
    expect(paths([{ hosts: [''] }])[0]).toContain('spec.tls[0].hosts[0]');
    expect(paths([{ secretName: 'Shop_TLS' }])[0]).toContain('spec.tls[0].secretName');
  });
});
