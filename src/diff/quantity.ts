/**
 * Kubernetes resource quantities (`10Gi`, `500M`, `1.5e3`, `250m`) as numbers, to compare two of them. Pure.
 */

const SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[mkMGTPE])?)$/;

/** The quantity's value, or undefined when it is not a quantity (a number counts as one). */
export function quantityValue(q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  if (typeof q !== 'string') return undefined;
  const m = QUANTITY.exec(q.trim());
  if (m === null) return undefined;
  const base = Number(m[1]);
  if (m[2] !== undefined) return base * 10 ** Number(m[2].slice(1));
  return base * (SUFFIX[m[3] ?? ''] ?? 1);
}
