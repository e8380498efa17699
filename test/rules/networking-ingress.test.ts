import { describe, expect, it } from 'vitest';
import { checkIngressHost } from '../../src/rules/networking-ingress.js';

describe('Ingress hosts (networking-ingress)', () => {
  it('takes a host with leading zeros as an IP address, as the API server does', () => {
    expect(checkIngressHost(['host'], '0001.2.3.4')[0]?.expected).toBe('a DNS name, not an IP address');
    expect(checkIngressHost(['host'], '1.2.3')).toEqual([]);
  });
});
