import { SPEC_KIND_LABEL } from '../labels.js';
import { groupOf, type Manifest } from '../manifest.js';
import { hasRuleSet } from '../validate.js';
import { isBuiltInKind } from './check-schema.js';

/** The kinds the note names; more are counted. */
const NAMED_KINDS = 8;

/**
 * The note that names the built-in kinds of chart-module objects (those no spec made: no spec-kind label) that were
 * checked against their schema only (src/rules/schema/): never passed silently as fully checked. Once per render;
 * none when every such kind has its rule set. Pure.
 */
export function schemaOnlyNotes(
  charts: readonly { readonly chart: string; readonly objects: Iterable<Manifest> }[],
): string[] {
  const kinds = new Set<string>();
  const named = new Map<string, string>();
  for (const c of charts)
    for (const o of c.objects) {
      if (o.metadata?.labels?.[SPEC_KIND_LABEL] !== undefined) continue;
      const key = `${String(o.apiVersion)}/${String(o.kind)}`;
      if (kinds.has(key) || hasRuleSet(groupOf(o), String(o.kind)) || !isBuiltInKind(o.apiVersion, o.kind))
        continue;
      kinds.add(key);
      named.set(key, `${String(o.kind)} (${String(o.apiVersion)})`);
    }
  if (kinds.size === 0) return [];
  const sorted = [...named.values()].sort();
  const list = sorted.slice(0, NAMED_KINDS).join(', ');
  const more = sorted.length > NAMED_KINDS ? ` and ${sorted.length - NAMED_KINDS} more` : '';
  return [
    `objects of chart modules of kind ${list}${more} were checked against their schema only (types, fields, ` +
      `quantities, base64), not yet against the API server's validation rules of their kind.`,
  ];
}
