import { YAMLException } from 'js-yaml';
import { readYamlDocuments, type ReadProblem } from './yaml-read.js';
import { describeValue, locateProblem, type LocatedProblem } from '../rules/problem.js';
import type { FieldPath } from '../rules/field-path.js';
import { locator } from './positions.js';
import { checkSchema } from './schemas.js';
import type { Problem } from '../rules/problem.js';
import { checkMetadataOnly, checkSemantics } from './semantic.js';
import { documentProblems, notYetReported, withoutFlaggedValues } from './checkable.js';
import { checkAdopt } from './adopt.js';
import { SPEC_KINDS, type SpecDocument, type SpecKind } from './types.js';
import { appendAll } from '../util/append.js';
import { dropBookkeeping, printedFields, type DroppedFields } from './bookkeeping.js';

/** What one spec file holds: the valid specs, and an error for every problem found. */
export interface ParsedFile {
  readonly specs: SpecDocument[];
  readonly errors: LocatedProblem[];
  /** What `kubectl get -o yaml` adds that the reader left out (src/specs/bookkeeping.ts), when there was any. */
  readonly dropped?: DroppedFields;
}

/** A problem of the file, in a document of it (1-based) or of the whole file. */
type Located = Problem & { readonly document?: number };

/**
 * Parses and validates the text of one spec file (any number of `---`-separated documents). Pure: text in, typed
 * specs and errors out. Parsing uses js-yaml's YAML 1.2 core schema (about 10x faster than `yaml` on small
 * documents, docs/benchmarks.md) through `readYamlDocuments` (YAML 1.1 ambiguities and alias bounds); only
 * when something is wrong is the text parsed again with `yaml` to find the line of each error.
 */
export function parseSpecText(text: string, file: string): ParsedFile {
  let read: ReturnType<typeof readYamlDocuments>;
  try {
    read = readYamlDocuments(text, file);
  } catch (e) {
    return { specs: [], errors: [syntaxError(e, file)] };
  }
  const { docs } = read;
  const specs: SpecDocument[] = [];
  const problems: Located[] = [];
  const dropped: { document: number; path: FieldPath }[] = [];
  docs.forEach((raw, i) => {
    if (raw === null || raw === undefined) return;
    const { doc, dropped: left } = dropBookkeeping(raw);
    for (const path of left) dropped.push({ document: i + 1, path });
    const flagged = read.problems.filter((p) => p.document === i + 1);
    const found = problemsBeside(doc, flagged, checkSpecDocument);
    if (found === undefined) return;
    if (found.length === 0 && flagged.length === 0)
      specs.push(toSpec(doc as RawDoc, { file, document: i + 1 }));
    else
      appendAll(
        problems,
        found.map((v) => ({ ...v, document: i + 1 })),
      );
  });
  if (specs.length === 0 && problems.length === 0 && read.problems.length === 0) {
    problems.push({
      path: [],
      expected: 'at least one spec document (apiVersion, kind, metadata, spec)',
      found: 'an empty file',
    });
  }
  const at = read.problems.length === 0 ? undefined : offsetLocator(text);
  const errors = at === undefined ? [] : read.problems.map((p) => readError(at, file, p));
  appendAll(errors, withPositions(text, file, problems));
  return dropped.length === 0
    ? { specs, errors }
    : { specs, errors, dropped: droppedFields(text, file, dropped) };
}

/** The bookkeeping a file had dropped, placed at the first of it in the file. */
function droppedFields(
  text: string,
  file: string,
  dropped: readonly { document: number; path: FieldPath }[],
): DroppedFields {
  const locate = locator(text);
  const lines = dropped.flatMap((d) => locate(d.document, d.path)?.line ?? []);
  return {
    file,
    ...(lines.length === 0 ? {} : { line: Math.min(...lines) }),
    fields: printedFields(dropped.map((d) => d.path)),
  };
}

/**
 * The problems `check` finds in a document beside those its reading found (`flagged`: a `replicas: 012` YAML 1.1
 * and 1.2 read differently), so one run reports every problem of the document: checked without the flagged values,
 * and none about a flagged field (it is said already). Undefined, not checked, when a reading problem is the whole
 * document's (its size once aliases are expanded: checking it would walk that expansion).
 */
function problemsBeside(
  doc: unknown,
  flagged: readonly ReadProblem[],
  check: (doc: unknown) => Problem[],
): Problem[] | undefined {
  if (flagged.length === 0) return check(doc);
  if (flagged.some((p) => p.path.length === 0)) return undefined;
  const rest = isRecord(doc) ? withoutFlaggedValues(doc, flagged) : doc;
  return notYetReported(check(rest), flagged);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A reading problem (YAML 1.1/1.2 ambiguity, size) as an error, positioned by its source offset. */
function readError(
  at: (offset: number) => { line: number; column: number },
  file: string,
  p: ReadProblem,
): LocatedProblem {
  return locateProblem(p, { file, document: p.document, ...at(p.offset) });
}

/** Offset → 1-based line and column, with the line starts indexed once (binary search per lookup). */
function offsetLocator(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
  };
}

/**
 * Validation of one parsed document: shape, kind, schema, then semantics (the `adopt` block's included). The one
 * rule set of both doors: the spec loader calls it on each YAML document, and every construct on the document its
 * props describe (`src/constructs/props-check.ts`).
 */
export function checkSpecDocument(doc: unknown): Problem[] {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return [
      { path: [], expected: 'a mapping with apiVersion, kind, metadata and spec', found: describeValue(doc) },
    ];
  }
  const record = doc as Record<string, unknown>;
  const kind = record.kind;
  if (typeof kind !== 'string' || !(SPEC_KINDS as readonly string[]).includes(kind)) {
    return [
      {
        path: ['kind'],
        expected: `one of ${SPEC_KINDS.join(', ')}`,
        found: describeValue(kind),
        hint: 'specforge renders only these high-level kinds; put plain manifests in the GitOps repo directly.',
      },
    ];
  }
  return documentProblems(
    record,
    (d) => checkSchema(kind as SpecKind, d),
    (d) => [...checkSemantics(kind as SpecKind, d), ...checkAdopt(kind as SpecKind, d)],
    (d) => checkMetadataOnly(kind as SpecKind, d),
  );
}

interface RawDoc {
  apiVersion: string;
  kind: SpecKind;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: Record<string, unknown>;
  adopt?: Record<string, unknown>;
  exposure?: string;
  gateway?: Record<string, unknown>;
}

function toSpec(doc: RawDoc, source: SpecDocument['source']): SpecDocument {
  const { metadata } = doc;
  let spec = doc.spec;
  if (doc.kind === 'AppService' && spec.size !== undefined) {
    // opdemo (app.example.com/v1) calls replicas `size`; `size: null` (what opdemo writes back for an omitted size,
    // migration.md §8 row 2) is unset, as the operator's nil *int32 is.
    const { size, ...rest } = spec;
    const replicas = spec.replicas ?? size ?? undefined;
    spec = replicas === undefined ? rest : { ...rest, replicas };
  }
  return {
    kind: doc.kind,
    apiVersion: doc.apiVersion,
    name: metadata.name,
    ...(metadata.namespace === undefined ? {} : { namespace: metadata.namespace }),
    ...(metadata.labels === undefined ? {} : { labels: metadata.labels }),
    ...(metadata.annotations === undefined ? {} : { annotations: metadata.annotations }),
    spec,
    ...(doc.adopt === undefined ? {} : { adopt: doc.adopt }),
    ...(doc.exposure === undefined ? {} : { exposure: doc.exposure }),
    ...(doc.gateway === undefined ? {} : { gateway: doc.gateway }),
    source,
  } as SpecDocument;
}

function syntaxError(e: unknown, file: string): LocatedProblem {
  if (e instanceof YAMLException && e.mark !== undefined) {
    return {
      file,
      line: e.mark.line + 1,
      column: e.mark.column + 1,
      path: '',
      expected: 'valid YAML',
      found: `a syntax error (${e.reason})`,
    };
  }
  return { file, path: '', expected: 'valid YAML', found: String(e) };
}

function withPositions(text: string, file: string, problems: readonly Located[]): LocatedProblem[] {
  const locate = locator(text);
  return problems.map((p) => {
    const pos = p.document === undefined ? undefined : locate(p.document, p.path);
    return locateProblem(p, {
      file,
      ...(p.document === undefined ? {} : { document: p.document }),
      ...(pos === undefined ? {} : { line: pos.line, column: pos.column }),
    });
  });
}

/** Locates problems of given documents of a spec file (1-based `document`), as the loader's own errors are. */
export function locateDocumentViolations(
  text: string,
  file: string,
  problems: readonly (Problem & { readonly document: number })[],
): LocatedProblem[] {
  return withPositions(text, file, problems);
}

/** Locates a chart-settings or other non-spec problem the same way spec errors are. */
export function locateViolations(text: string, file: string, problems: readonly Problem[]): LocatedProblem[] {
  return withPositions(
    text,
    file,
    problems.map((p) => ({ ...p, document: 1 })),
  );
}

export type { FieldPath };

/**
 * Reads and checks a file that holds one YAML document (chart settings) with the spec files' reading rules: its
 * value (`{}` when empty), and every problem found, those of reading and those `check` finds beside them (as in
 * spec files, a YAML 1.1 ambiguity hides nothing else of the document). Valid when `errors` is empty.
 */
export function checkSingleDocument(
  text: string,
  file: string,
  check: (data: unknown) => Problem[],
): { data: unknown; errors: LocatedProblem[] } {
  let read: ReturnType<typeof readYamlDocuments>;
  try {
    read = readYamlDocuments(text, file);
  } catch (e) {
    return { data: {}, errors: [syntaxError(e, file)] };
  }
  if (read.docs.length > 1)
    return {
      data: {},
      errors: [
        {
          file,
          document: 2,
          path: '',
          expected: 'one YAML document',
          found: `${read.docs.length} documents`,
        },
      ],
    };
  const data = read.docs[0] ?? {};
  const at = read.problems.length === 0 ? undefined : offsetLocator(text);
  const errors = at === undefined ? [] : read.problems.map((p) => readError(at, file, p));
  const found = problemsBeside(data, read.problems, check) ?? [];
  appendAll(errors, locateViolations(text, file, found));
  return { data, errors };
}
