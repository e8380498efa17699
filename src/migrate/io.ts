/** How migration names objects in what it prints (it prints through the one `Io`, src/util/io.ts). */

/** An object as migration names it in what it prints: `Kind namespace/name`, or `Kind name` without a namespace. */
export function describe(o: {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}): string {
  return o.namespace === undefined ? `${o.kind} ${o.name}` : `${o.kind} ${o.namespace}/${o.name}`;
}
