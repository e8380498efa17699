import { isIP } from 'node:net';
import { parseQuantity } from '../quantity.js';
import { parseRequestUri } from './go-url.js';

/**
 * The string formats a CRD schema may use and the API server (kube-openapi's strfmt, v1.34) checks; any other
 * format is ignored, as the API server ignores it (apiextensions-apiserver validation/formats.go). Names are
 * compared without dashes, as go-openapi normalises them (`date-time` is `datetime`). Pure.
 */
const CHECKS: Readonly<Record<string, (s: string) => boolean>> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestUri,
  email: (s) => /^[^\s@<>]+@[^\s@<>]+$/.test(s),
  hostname: (s) =>
    /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u.test(
      s,
    ) && s.length <= 255,
  ipv4: (s) => isIP(s) === 4,
  ipv6: (s) => isIP(s) === 6 && !s.includes('%'),
  cidr: isCidr,
  mac: (s) => /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$|^([0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4}$/.test(s),
  uuid: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid3: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid4: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  uuid5: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) =>
    /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/.test(
      s,
    ),
  byte: (s) => /^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s),
  password: () => true,
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && validDate(s),
  datetime: isDateTime,
  duration: (s) =>
    /^(([0-9]+(\.[0-9]*)?|\.[0-9]+)\s*(ns|us|µs|μs|ms|s|m|h|d|w)\s*)+$/.test(s.trim()) || s === '0',
  quantity: (s) => parseQuantity(s) !== undefined,
  k8sshortname: (s) => s.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(s),
  k8slongname: (s) =>
    s.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(s),
};

/** Whether `format` is one the API server checks (after dropping dashes). */
export function checkedFormat(format: string | undefined): string | undefined {
  if (format === undefined) return undefined;
  const name = format.replaceAll('-', '');
  return Object.hasOwn(CHECKS, name) ? name : undefined;
}

/** Whether `value` is of the (checked) format `name`. */
export function hasFormat(name: string, value: string): boolean {
  return CHECKS[name]?.(value) ?? true;
}

/** Go's url.ParseRequestURI: an absolute URI, or an absolute path. */
function isRequestUri(s: string): boolean {
  return parseRequestUri(s) !== undefined;
}

function isCidr(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash === -1) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  const v = isIP(ip);
  if (v === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (v === 4 ? 32 : 128);
}

function validDate(s: string): boolean {
  const [y, m, d] = s.split('-').map(Number);
  const date = new Date(Date.UTC(y!, m! - 1, d!));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m! - 1 && date.getUTCDate() === d;
}

function isDateTime(s: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(s);
  if (m === null) return false;
  return validDate(m[1]!) && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) < 61;
}
