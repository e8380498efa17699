/**
 * The groups of things that share a key, among `count` things numbered 0 to count − 1: each group's numbers in
 * ascending order, the groups in the order of their first numbers, groups of one left out. Pure.
 *
 * For hundreds of thousands of things (every object of a render, src/gitops/collisions.ts) without a map of every
 * key: each thing's number and a hash of its key go into one number of a Float64Array (8 bytes a thing, where a map
 * of every identity held an entry and a record for each of 250,000 objects), sorted, and only things whose hashes
 * are equal have their keys made again and compared, so a collision of hashes never joins two keys. `keysAt` is
 * asked once, for those things' numbers in ascending order (so a list made as it is read, src/render/skeleton.ts, is
 * read in its order), and gives their keys in that order.
 */
export function sameKeys(
  keys: Iterable<string>,
  count: number,
  keysAt: (numbers: readonly number[]) => readonly string[],
): number[][] {
  const bits = Math.max(1, Math.ceil(Math.log2(count + 1)));
  const scale = 2 ** bits;
  // the hash's high bits, as many as fit beside the number in a double's 53
  const drop = 2 ** Math.max(0, 32 - (53 - bits));
  const keyed = new Float64Array(count);
  let n = 0;
  for (const key of keys) {
    if (n === count) throw new Error(`internal error: more keys than ${count}`);
    keyed[n] = Math.floor(hash(key) / drop) * scale + n;
    n++;
  }
  if (n !== count) throw new Error(`internal error: ${n} keys, not ${count}`);
  keyed.sort();
  // the runs of equal hashes, as [start, end) in `keyed`
  const runs: [number, number][] = [];
  for (let i = 0; i < count;) {
    const h = Math.floor((keyed[i] ?? 0) / scale);
    let j = i + 1;
    while (j < count && Math.floor((keyed[j] ?? 0) / scale) === h) j++;
    if (j - i > 1) runs.push([i, j]);
    i = j;
  }
  const candidates = runs
    .flatMap(([i, j]) => [...keyed.subarray(i, j)].map((v) => v % scale))
    .sort((a, b) => a - b);
  const found = keysAt(candidates);
  const keyOf = new Map(candidates.map((n, i) => [n, found[i] ?? '']));
  const groups = runs.flatMap(([i, j]) => equalKeys(keyed.subarray(i, j), scale, keyOf));
  return groups.sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
}

/** Among things whose hashes are equal (their numbers ascending), the groups whose keys are. */
function equalKeys(run: Float64Array, scale: number, keyOf: ReadonlyMap<number, string>): number[][] {
  const byKey = new Map<string, number[]>();
  for (const v of run) {
    const n = v % scale;
    const key = keyOf.get(n) ?? '';
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, [n]);
    else group.push(n);
  }
  return [...byKey.values()].filter((g) => g.length > 1);
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
export function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
