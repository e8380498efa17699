import { formatPath, type FieldPath } from '../rules/field-path.js';
import { LAST_APPLIED_ANNOTATION } from '../rules/vocabulary.js';

/**
 * What `kubectl get -o yaml` adds to a resource that is no part of its spec: kubectl's client-side apply record
 * (the `kubectl.kubernetes.io/last-applied-configuration` annotation), the metadata the API server sets
 * (resourceVersion, uid, creationTimestamp, generation, managedFields, selfLink, and a deletion's timestamp and grace
 * period) and `status`. A spec file pasted from such output renders as if they were not there: the spec reader drops
 * them, and says so once per file ({@link droppedNote}), so neither an old apply record nor a live status reaches
 * dist/ or passes unseen. Pure.
 */

/** Metadata fields only the API server sets. */
const SERVER_METADATA = [
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'generation',
  'managedFields',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
];

/** A document without kubectl's and the API server's bookkeeping, and the paths of what was dropped. */
export function dropBookkeeping(doc: unknown): { doc: unknown; dropped: FieldPath[] } {
  if (!isMapping(doc)) return { doc, dropped: [] };
  const dropped: FieldPath[] = [];
  const out: Record<string, unknown> = { ...doc };
  if (isMapping(out.metadata)) out.metadata = dropServerMetadata(out.metadata, dropped);
  if (Object.hasOwn(out, 'status')) {
    delete out.status;
    dropped.push(['status']);
  }
  return { doc: out, dropped };
}

function dropServerMetadata(
  metadata: Record<string, unknown>,
  dropped: FieldPath[],
): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...metadata };
  for (const field of SERVER_METADATA) {
    if (!Object.hasOwn(meta, field)) continue;
    delete meta[field];
    dropped.push(['metadata', field]);
  }
  const annotations = meta.annotations;
  if (isMapping(annotations) && Object.hasOwn(annotations, LAST_APPLIED_ANNOTATION)) {
    const rest = { ...annotations };
    delete rest[LAST_APPLIED_ANNOTATION];
    if (Object.keys(rest).length === 0) delete meta.annotations;
    else meta.annotations = rest;
    dropped.push(['metadata', 'annotations', LAST_APPLIED_ANNOTATION]);
  }
  return meta;
}

/** What one spec file had dropped: where the first of it is, and every field, printed. */
export interface DroppedFields {
  readonly file: string;
  readonly line?: number;
  readonly fields: readonly string[];
}

/** The paths of {@link dropBookkeeping}, printed and each once (`metadata.uid`, `status`). */
export function printedFields(paths: readonly FieldPath[]): string[] {
  return [...new Set(paths.map(formatPath))];
}

/** The one note of a file that had bookkeeping dropped. */
export function droppedNote(d: DroppedFields): string {
  const where = d.line === undefined ? d.file : `${d.file}:${d.line}`;
  return `${where}: left out what \`kubectl get -o yaml\` adds and a spec does not hold (${d.fields.join(', ')}); remove it from the file to silence this note.`;
}

function isMapping(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
