/** The high-level kinds specforge renders. */
export type SpecKind = 'AppService' | 'Myapp' | 'Podroute' | 'NodePool';

/** Every {@link SpecKind}, in the order messages list them. */
export const SPEC_KINDS: readonly SpecKind[] = ['AppService', 'Myapp', 'Podroute', 'NodePool'];

/** Whether `kind` is a {@link SpecKind}. Pure. */
export function isSpecKind(kind: string): kind is SpecKind {
  return (SPEC_KINDS as readonly string[]).includes(kind);
}
