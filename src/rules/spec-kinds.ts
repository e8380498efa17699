/** The high-level kinds specforge renders. */
export type SpecKind = 'AppService' | 'Myapp' | 'Podroute' | 'NodePool';

/** Every {@link SpecKind}, in the order messages list them. */
export const SPEC_KINDS: readonly SpecKind[] = ['AppService', 'Myapp', 'Podroute', 'NodePool'];
