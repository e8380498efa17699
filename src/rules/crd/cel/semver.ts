/**
 * Semantic versions as the API server's CEL semver library reads them (blang/semver, strict: `1.2.3`, a
 * pre-release and build metadata allowed, no leading zeros), and their order (semver 2.0.0 §11). Pure.
 */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export interface Semver {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  readonly pre: readonly string[];
}

/** The version, or undefined when it is not one. */
export function parseSemver(s: string): Semver | undefined {
  const m = SEMVER.exec(s);
  if (m === null) return undefined;
  return {
    major: BigInt(m[1]!),
    minor: BigInt(m[2]!),
    patch: BigInt(m[3]!),
    pre: m[4] === undefined ? [] : m[4].split('.'),
  };
}

/** -1, 0 or 1 as `a` is before, equal to or after `b` (build metadata ignored). */
export function compareSemver(a: Semver, b: Semver): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.pre.length === 0 || b.pre.length === 0) return Math.sign(b.pre.length - a.pre.length);
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const c = comparePart(a.pre[i]!, b.pre[i]!);
    if (c !== 0) return c;
  }
  return Math.sign(a.pre.length - b.pre.length);
}

function comparePart(x: string, y: string): number {
  const xn = /^\d+$/.test(x);
  const yn = /^\d+$/.test(y);
  if (xn && yn) return Math.sign(Number(BigInt(x) - BigInt(y)));
  if (xn !== yn) return xn ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}
