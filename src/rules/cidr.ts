import { isIPv6 } from 'node:net';

/**
 * A CIDR as the API server parses one in a NetworkPolicy's `ipBlock` (k8s.io/utils/net `ParseCIDRSloppy`, which
 * takes leading zeros in IPv4 octets): an address, "/" and a prefix length of at most 32 (IPv4) or 128 (IPv6).
 * Undefined when valid. Pure.
 */
export function cidrProblem(cidr: string): string | undefined {
  const slash = cidr.indexOf('/');
  const address = cidr.slice(0, slash);
  const bits = cidr.slice(slash + 1);
  const v4 =
    /^[0-9]{1,3}(\.[0-9]{1,3}){3}$/.test(address) && address.split('.').every((o) => Number(o) <= 255);
  const max = v4 ? 32 : isIPv6(address) && !address.includes('%') ? 128 : -1;
  if (slash > 0 && max > 0 && /^[0-9]{1,3}$/.test(bits) && Number(bits) <= max) return undefined;
  return 'a CIDR such as 10.0.0.0/16 or fd00::/8';
}
