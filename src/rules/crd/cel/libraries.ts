import { isIP } from 'node:net';
import { compareQuantities, parseQuantity, type Quantity } from '../../quantity.js';
import { compileRe2 } from '../regex.js';
import { hostnameOf, parseRequestUri, portOf, type GoUrl } from '../go-url.js';
import { checkedFormat, hasFormat } from '../formats.js';
import { compareSemver, parseSemver, type Semver } from './semver.js';
import { checkDns1035Label, checkDns1123Label, DNS1123_SUBDOMAIN } from '../../k8s-names.js';

/**
 * The functions the API server adds to CEL for CRD rules (k8s.io/apiserver/pkg/cel/library), on @bufbuild/cel's
 * function declarations: lists (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`), regex (`find`,
 * `findAll`), quantity, semver, URL, IP and CIDR, and format (`format.dns1123Label()…validate(s)`). Opaque values
 * (a quantity, a URL, an IP, a CIDR, a format) are CEL maps holding one hidden key that names their kind, as
 * @bufbuild/cel has no host types; rules cannot see inside them but through these functions.
 */
export type Cel = typeof import('@bufbuild/cel');

const TAG = '\u0000k8s';

function opaque(kind: string, value: string): Map<string, string> {
  return new Map([
    [TAG, kind],
    ['v', value],
  ]);
}

function unwrap(x: unknown, kind: string): string {
  const m = x as { get?(k: string): unknown } | undefined;
  if (m?.get?.(TAG) !== kind) throw new Error(`no such overload: expected a ${kind}`);
  return String(m.get('v'));
}

function kindOf(x: unknown): unknown {
  return (x as { get?(k: string): unknown } | undefined)?.get?.(TAG);
}

/** `compareTo` and friends of quantities and of semantic versions. */
function compareOpaque(a: unknown, b: unknown): number {
  if (kindOf(a) === 'semver') return compareSemver(semverOf(a), semverOf(b));
  return compareQuantities(quantityOf(a), quantityOf(b));
}

function semverOf(x: unknown): Semver {
  const v = parseSemver(unwrap(x, 'semver'));
  if (v === undefined) throw new Error('invalid semver');
  return v;
}

function quantityOf(x: unknown): Quantity {
  const q = parseQuantity(unwrap(x, 'quantity'));
  if (q === undefined) throw new Error('invalid quantity');
  return q;
}

function isQuantityText(s: string): boolean {
  return s.trim() === s && s !== '' && parseQuantity(s) !== undefined;
}

function normalised(q: Quantity): string {
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
  const g = gcd(q.num, q.den) || 1n;
  return `${q.num / g}/${q.den / g}`;
}

function fromParts(num: bigint, den: bigint): Map<string, string> {
  const g = normalised({ num, den });
  const [n, d] = g.split('/');
  return opaque('quantity', d === '1' ? n! : `${Number(BigInt(n!)) / Number(BigInt(d!))}`);
}

function parseUrl(s: string): GoUrl | undefined {
  return parseRequestUri(s);
}

const FORMATS: Record<string, (s: string) => string | undefined> = {
  dns1123Label: (s) => checkDns1123Label(s),
  dns1123Subdomain: (s) =>
    s.length <= 253 && DNS1123_SUBDOMAIN.test(s) ? undefined : 'a DNS subdomain (RFC 1123)',
  dns1035Label: (s) => checkDns1035Label(s),
  qualifiedName: (s) =>
    /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/.test(
      s,
    )
      ? undefined
      : 'a qualified name',
  labelValue: (s) =>
    /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/.test(s) ? undefined : 'a label value',
  uri: (s) => (hasFormat('uri', s) ? undefined : 'a URI'),
  uuid: (s) => (hasFormat('uuid', s) ? undefined : 'a UUID'),
  byte: (s) => (hasFormat('byte', s) ? undefined : 'base64 data'),
  date: (s) => (hasFormat('date', s) ? undefined : 'a date'),
  datetime: (s) => (hasFormat('datetime', s) ? undefined : 'a date-time'),
};

/** The Kubernetes libraries as @bufbuild/cel functions. */
export function kubernetesFunctions(cel: Cel): unknown[] {
  const { celFunc, celMethod, CelScalar: T, listType } = cel;
  const D = T.DYN;
  const LIST = listType(D);
  const values = (l: Iterable<unknown>): unknown[] => [...l];
  const less = (a: unknown, b: unknown): boolean => (a as number) < (b as number);
  const fns: unknown[] = [
    // lists
    celMethod('isSorted', LIST, [], T.BOOL, function () {
      const v = values(this);
      return v.every((x, i) => i === 0 || !less(x, v[i - 1]));
    }),
    celMethod('sum', LIST, [], D, function () {
      const v = values(this);
      if (v.length === 0) return 0n;
      return v.reduce((a, b) => (a as number) + (b as number)) as never;
    }),
    celMethod('min', LIST, [], D, function () {
      const v = values(this);
      if (v.length === 0) throw new Error('min called on empty list');
      return v.reduce((a, b) => (less(b, a) ? b : a)) as never;
    }),
    celMethod('max', LIST, [], D, function () {
      const v = values(this);
      if (v.length === 0) throw new Error('max called on empty list');
      return v.reduce((a, b) => (less(a, b) ? b : a)) as never;
    }),
    celMethod('indexOf', LIST, [D], T.INT, function (x) {
      return BigInt(values(this).findIndex((y) => equalCel(y, x)));
    }),
    celMethod('lastIndexOf', LIST, [D], T.INT, function (x) {
      return BigInt(values(this).findLastIndex((y) => equalCel(y, x)));
    }),
    // regex
    celMethod('find', T.STRING, [T.STRING], T.STRING, function (p) {
      return findAll(this, p, 1)[0] ?? '';
    }),
    celMethod('findAll', T.STRING, [T.STRING], listType(T.STRING), function (p) {
      return findAll(this, p, -1);
    }),
    celMethod('findAll', T.STRING, [T.STRING, T.INT], listType(T.STRING), function (p, n) {
      return findAll(this, p, Number(n));
    }),
    // quantity
    celFunc('isQuantity', [T.STRING], T.BOOL, (s) => isQuantityText(s)),
    celFunc('quantity', [T.STRING], D, (s) => {
      if (!isQuantityText(s)) throw new Error('invalid quantity');
      return opaque('quantity', s) as never;
    }),
    celMethod('compareTo', D, [D], T.INT, function (o) {
      return BigInt(compareOpaque(this, o));
    }),
    celMethod('isGreaterThan', D, [D], T.BOOL, function (o) {
      return compareOpaque(this, o) > 0;
    }),
    celMethod('isLessThan', D, [D], T.BOOL, function (o) {
      return compareOpaque(this, o) < 0;
    }),
    celMethod('sign', D, [], T.INT, function () {
      const q = quantityOf(this);
      return q.num === 0n ? 0n : q.num > 0n ? 1n : -1n;
    }),
    celMethod('isInteger', D, [], T.BOOL, function () {
      const q = quantityOf(this);
      return q.num % q.den === 0n;
    }),
    celMethod('asInteger', D, [], T.INT, function () {
      const q = quantityOf(this);
      if (q.num % q.den !== 0n) throw new Error('cannot convert value to integer');
      return q.num / q.den;
    }),
    celMethod('asApproximateFloat', D, [], T.DOUBLE, function () {
      const q = quantityOf(this);
      return Number(q.num) / Number(q.den);
    }),
    celMethod('add', D, [D], D, function (o) {
      const a = quantityOf(this);
      const b = typeof o === 'bigint' ? { num: o, den: 1n } : quantityOf(o);
      return fromParts(a.num * b.den + b.num * a.den, a.den * b.den) as never;
    }),
    celMethod('sub', D, [D], D, function (o) {
      const a = quantityOf(this);
      const b = typeof o === 'bigint' ? { num: o, den: 1n } : quantityOf(o);
      return fromParts(a.num * b.den - b.num * a.den, a.den * b.den) as never;
    }),
    // semver
    celFunc('isSemver', [T.STRING], T.BOOL, (s) => parseSemver(s) !== undefined),
    celFunc('semver', [T.STRING], D, (s) => {
      if (parseSemver(s) === undefined) throw new Error(`invalid semver: ${s}`);
      return opaque('semver', s) as never;
    }),
    celMethod('major', D, [], T.INT, function () {
      return semverOf(this).major;
    }),
    celMethod('minor', D, [], T.INT, function () {
      return semverOf(this).minor;
    }),
    celMethod('patch', D, [], T.INT, function () {
      return semverOf(this).patch;
    }),
    // URL
    celFunc('isURL', [T.STRING], T.BOOL, (s) => parseUrl(s) !== undefined),
    celFunc('url', [T.STRING], D, (s) => {
      if (parseUrl(s) === undefined) throw new Error(`URL parse error during conversion from string: ${s}`);
      return opaque('url', s) as never;
    }),
    celMethod('getScheme', D, [], T.STRING, function () {
      return parseUrl(unwrap(this, 'url'))!.scheme;
    }),
    celMethod('getHost', D, [], T.STRING, function () {
      return parseUrl(unwrap(this, 'url'))!.host;
    }),
    celMethod('getHostname', D, [], T.STRING, function () {
      return hostnameOf(parseUrl(unwrap(this, 'url'))!);
    }),
    celMethod('getPort', D, [], T.STRING, function () {
      return portOf(parseUrl(unwrap(this, 'url'))!);
    }),
    celMethod('getEscapedPath', D, [], T.STRING, function () {
      return parseUrl(unwrap(this, 'url'))!.path;
    }),
    // IP and CIDR
    celFunc('isIP', [T.STRING], T.BOOL, (s) => isIP(s) !== 0 && !s.includes('%')),
    celFunc('ip', [T.STRING], D, (s) => {
      if (isIP(s) === 0 || s.includes('%')) throw new Error(`IP Address ${JSON.stringify(s)} parse error`);
      return opaque('ip', s) as never;
    }),
    celMethod('family', D, [], T.INT, function () {
      return BigInt(isIP(unwrap(this, 'ip')));
    }),
    celMethod('isLoopback', D, [], T.BOOL, function () {
      const s = unwrap(this, 'ip');
      return s === '::1' || s.startsWith('127.');
    }),
    celFunc('isCIDR', [T.STRING], T.BOOL, (s) => hasFormat('cidr', s)),
    celFunc('cidr', [T.STRING], D, (s) => {
      if (!hasFormat('cidr', s))
        throw new Error(`network address parse error during conversion from string: ${s}`);
      return opaque('cidr', s) as never;
    }),
    celMethod('prefixLength', D, [], T.INT, function () {
      return BigInt(unwrap(this, 'cidr').split('/')[1]!);
    }),
    // format
    ...Object.keys(FORMATS).map((name) =>
      celFunc(`format.${name}`, [], D, () => opaque('format', name) as never),
    ),
    celFunc(
      'format.named',
      [T.STRING],
      D,
      (name) => (Object.hasOwn(FORMATS, name) ? opaque('format', name) : null) as never,
    ),
    celMethod('validate', D, [T.STRING], D, function (s) {
      const problem = FORMATS[unwrap(this, 'format')]!(s);
      return (problem === undefined ? null : [problem]) as never;
    }),
  ];
  void checkedFormat;
  return fns;
}

function findAll(s: string, pattern: string, limit: number): string[] {
  const re = compileRe2(pattern);
  if (re instanceof Error) throw re;
  const js = new RegExp(pattern, 'gu');
  const out: string[] = [];
  for (const m of s.matchAll(js)) {
    if (limit >= 0 && out.length >= limit) break;
    out.push(m[0]);
  }
  return out;
}

function equalCel(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b));
}
