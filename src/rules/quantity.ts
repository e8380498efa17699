/**
 * Kubernetes resource quantities, parsed the way the API server parses them (k8s.io/apimachinery
 * `resource.ParseQuantity`, v0.34): `<sign><digits>[.<digits>]<suffix>` with suffixes `Ki Mi Gi Ti Pi Ei`,
 * `n u m "" k M G T P E`, or `e`/`E` and an integer exponent. The scanner accepts a few odd strings (`.`, `+`, `-`,
 * `e3`, `Ki`, all zero) as the server does. A JSON number is read from its decimal text; a quoted string has
 * surrounding spaces trimmed. Values are exact rationals (BigInt), so comparisons never round.
 */

/** An exact quantity: `numerator / denominator`. */
export interface Quantity {
  readonly num: bigint;
  readonly den: bigint;
}

const DECIMAL: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SHAPE = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const NUMBER = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/;

/** Parses a quantity as the API server does; `undefined` when it refuses it (a 400 at apply time). */
export function parseQuantity(value: unknown): Quantity | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? parseText(numberText(value)) : undefined;
  if (typeof value !== 'string') return undefined;
  return parseText(value.trim());
}

function numberText(n: number): string {
  // JSON (and so the API server) sees the shortest decimal form, e.g. 1e+21.
  return JSON.stringify(n);
}

function parseText(s: string): Quantity | undefined {
  const shape = SHAPE.exec(s);
  if (shape === null) return s === '' ? undefined : parseSuffixOnly(s);
  const n = NUMBER.exec(shape[1] ?? '');
  const scale = suffixScale(shape[2] ?? '');
  if (n === null || scale === undefined) return undefined;
  const [, sign, whole = '', frac = ''] = n;
  const digits = BigInt(`${whole}${frac}` || '0');
  return scaled({ num: sign === '-' ? -digits : digits, den: 10n ** BigInt(frac.length) }, scale);
}

function scaled(q: Quantity, scale: { base: 2 | 10; exp: number }): Quantity {
  const factor = BigInt(scale.base) ** BigInt(Math.abs(scale.exp));
  return scale.exp >= 0 ? { num: q.num * factor, den: q.den } : { num: q.num, den: q.den * factor };
}

/** `.`, `+`, `-` alone match the shape; strings like `e3` and `Ki` do not but the scanner reads them as 0. */
function parseSuffixOnly(s: string): Quantity | undefined {
  return /^(Ki|Mi|Gi|Ti|Pi|Ei|[eE][-+]?[0-9]+)$/.test(s) ? { num: 0n, den: 1n } : undefined;
}

function suffixScale(suffix: string): { base: 2 | 10; exp: number } | undefined {
  const decimal = DECIMAL[suffix];
  if (decimal !== undefined) return { base: 10, exp: decimal };
  const binary = BINARY[suffix];
  if (binary !== undefined) return { base: 2, exp: binary };
  const e = /^[eE]([-+]?[0-9]+)$/.exec(suffix);
  if (e === null) return undefined;
  const exp = Number(e[1]);
  return Number.isSafeInteger(exp) && Math.abs(exp) <= 10_000 ? { base: 10, exp } : undefined;
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The quantity rounded up to milli units, as the API server defaults resource lists before validating them. */
export function roundUpToMilli(q: Quantity): Quantity {
  const scaled = q.num * 1000n;
  let milli = scaled / q.den;
  if (milli * q.den < scaled) milli += 1n; // positive remainder: round up
  return { num: milli, den: 1000n };
}

/** Whether the quantity is a whole number. */
export function isWhole(q: Quantity): boolean {
  return q.num % q.den === 0n;
}
