import { SYNC_WAVE } from '../gitops/argocd-order.js';
import { ARGOCD_SYNC_OPTIONS } from '../rules/vocabulary.js';
import { SPEC_KIND_LABEL, SPEC_NAME_LABEL } from '../rules/labels.js';
import type { Manifest } from '../rules/manifest.js';
import type { RenderedObject, RenderedObjects } from '../rules/objects.js';

/**
 * What the pass across charts (src/render/emit.ts) reads of a chart's rendered objects, and nothing else: each
 * object's identity (apiVersion, kind, namespace, name), its spec labels, its own Argo CD annotations, a CRD's group,
 * kind and scope, the RuntimeClass its pods name, and where it came from (its spec file and document, or the
 * construct that made it). The dependency graph (src/gitops/dependencies.ts), Argo CD's annotations
 * (argocd-order.ts), the objects two charts render (collisions.ts) and the controller note (controller-note.ts) give
 * the same answers for skeletons as for the objects (test/render/skeleton.test.ts holds them to it), so a chart's
 * objects need not stay in memory once its files are out.
 *
 * Skeletons stay until the render ends, for up to hundreds of thousands of objects, so they are kept as a table:
 * each distinct value of a chart once ({@link Skeletons.values}), and a row of numbers an object saying which. At
 * 100,000 specs that is 2 bytes a field rather than three objects per object (36 MB, and 10 MB of labels and
 * sources). The pass reads them through {@link SkeletonList}, which makes each object's skeleton when asked, as a
 * plain object it may drop at once. Plain data: it crosses from a worker thread as it is (src/render/chart-pool.ts).
 */
export interface Skeletons {
  /** How many objects. */
  readonly count: number;
  /** The chart's distinct strings, one after another (one string a chart, not one a value). */
  readonly text: string;
  /** Where the string of each value ends in `text`, by index; it begins where the one before ends. */
  readonly ends: Uint32Array;
  /**
   * The values that are not strings, by index: index 0 (none), spec files' document numbers, and whatever else a
   * chart module set.
   */
  readonly others: ReadonlyMap<number, unknown>;
  /** `count` rows of {@link FIELDS}`.length` value indexes. */
  readonly rows: Uint16Array | Uint32Array;
  /** The parts of `spec` the pass reads, by object, for the few objects that have any. */
  readonly specs: ReadonlyMap<number, Manifest>;
}

/** The fields of a row, in order. */
const FIELDS = [
  'apiVersion',
  'kind',
  'name',
  'namespace',
  'specKind',
  'specName',
  'syncWave',
  'syncOptions',
  'fileDir',
  'fileName',
  'document',
  'origin',
] as const;
type Field = (typeof FIELDS)[number];
const WIDTH = FIELDS.length;
const AT = Object.fromEntries(FIELDS.map((f, i) => [f, i])) as Record<Field, number>;

/** The skeletons of a chart's objects. Pure. */
export function skeletonsOf(objects: readonly RenderedObject[]): Skeletons {
  const table = new ValueTable();
  const rows = new Uint32Array(objects.length * WIDTH);
  const specs = new Map<number, Manifest>();
  objects.forEach((o, i) => {
    const put = (field: Field, value: unknown): void => {
      rows[i * WIDTH + AT[field]] = table.index(value);
    };
    const { json } = o;
    const metadata = json.metadata ?? {};
    put('apiVersion', json.apiVersion);
    put('kind', json.kind);
    put('name', metadata.name);
    put('namespace', metadata.namespace);
    put('specKind', entry(metadata.labels, SPEC_KIND_LABEL));
    put('specName', entry(metadata.labels, SPEC_NAME_LABEL));
    put('syncWave', entry(metadata.annotations, SYNC_WAVE));
    put('syncOptions', entry(metadata.annotations, ARGOCD_SYNC_OPTIONS));
    const file = o.source?.file;
    const slash = file?.lastIndexOf('/') ?? -1;
    // a chart's spec files share their directory: it is held once, each file's name on its own
    put('fileDir', slash === -1 ? undefined : file?.slice(0, slash));
    put('fileName', slash === -1 ? file : file?.slice(slash + 1));
    put('document', o.source?.document);
    put('origin', o.origin);
    const spec = specSkeleton(json);
    if (spec !== undefined) specs.set(i, spec);
  });
  const narrow = table.size <= 0xffff;
  return { count: objects.length, ...table.packed(), rows: narrow ? Uint16Array.from(rows) : rows, specs };
}

/**
 * A chart's skeletons as a list of objects (an array's `length`, `at` and iteration), each made when asked: the
 * same object {@link skeletonsOf} was given but for what the pass does not read.
 */
export class SkeletonList implements RenderedObjects {
  /**
   * @param reader the lists read in turn share one: it holds the values of the chart read last, so that reading
   * every chart's objects holds one chart's values at a time. @default a reader of this list's own
   */
  constructor(
    private readonly skeletons: Skeletons,
    private readonly reader: SkeletonReader = new SkeletonReader(),
  ) {}

  get length(): number {
    return this.skeletons.count;
  }

  at(relative: number): RenderedObject | undefined {
    // as an array's `at`: a negative index counts from the end
    const index = relative < 0 ? relative + this.skeletons.count : relative;
    if (!Number.isInteger(index) || index < 0 || index >= this.skeletons.count) return undefined;
    const json = this.manifest(index);
    const dir = this.value(index, 'fileDir');
    const name = this.value(index, 'fileName');
    const file = dir === undefined ? name : `${dir as string}/${name as string}`;
    const origin = this.value(index, 'origin');
    return {
      json,
      ...(file === undefined ? {} : { source: { file, document: this.value(index, 'document') } }),
      ...(origin === undefined ? {} : { origin }),
    } as RenderedObject;
  }

  *[Symbol.iterator](): Iterator<RenderedObject> {
    for (let i = 0; i < this.skeletons.count; i++) yield this.at(i) as RenderedObject;
  }

  /** The objects' manifests alone, made each time they are gone through. */
  manifests(): Iterable<Manifest> {
    const count = this.skeletons.count;
    const manifest = (i: number): Manifest => this.manifest(i);
    return {
      *[Symbol.iterator]() {
        for (let i = 0; i < count; i++) yield manifest(i);
      },
    };
  }

  private manifest(i: number): Manifest {
    const metadata: Record<string, unknown> = {};
    const name = this.value(i, 'name');
    if (name !== undefined) metadata.name = name;
    const namespace = this.value(i, 'namespace');
    if (namespace !== undefined) metadata.namespace = namespace;
    const labels = pairOf(
      SPEC_KIND_LABEL,
      this.value(i, 'specKind'),
      SPEC_NAME_LABEL,
      this.value(i, 'specName'),
    );
    if (labels !== undefined) metadata.labels = labels;
    const annotations = pairOf(
      SYNC_WAVE,
      this.value(i, 'syncWave'),
      ARGOCD_SYNC_OPTIONS,
      this.value(i, 'syncOptions'),
    );
    if (annotations !== undefined) metadata.annotations = annotations;
    const json: Record<string, unknown> = {
      apiVersion: this.value(i, 'apiVersion'),
      kind: this.value(i, 'kind'),
      metadata,
    };
    const spec = this.skeletons.specs.get(i);
    if (spec !== undefined) json.spec = spec;
    return json as Manifest;
  }

  private value(i: number, field: Field): unknown {
    return this.reader.values(this.skeletons)[this.skeletons.rows[i * WIDTH + AT[field]] ?? 0];
  }
}

/** The values of the chart read last, for {@link SkeletonList}s read in turn. */
export class SkeletonReader {
  private last: { readonly of: Skeletons; readonly values: readonly unknown[] } | undefined;

  values(skeletons: Skeletons): readonly unknown[] {
    if (this.last?.of !== skeletons) this.last = { of: skeletons, values: unpacked(skeletons) };
    return this.last.values;
  }
}

/** A chart's values, by index. */
function unpacked({ text, ends, others }: Skeletons): unknown[] {
  const values: unknown[] = [];
  let start = 0;
  ends.forEach((end, k) => {
    values.push(others.has(k) ? others.get(k) : text.slice(start, end));
    start = end;
  });
  return values;
}

/**
 * A map of the two entries whose value is defined, in this order; undefined when neither is. Made for every object
 * each time the pass reads it: no arrays, no key count (a general version took a quarter of the pass's time).
 */
function pairOf(k1: string, v1: unknown, k2: string, v2: unknown): Record<string, unknown> | undefined {
  if (v1 === undefined && v2 === undefined) return undefined;
  const out: Record<string, unknown> = {};
  if (v1 !== undefined) out[k1] = v1;
  if (v2 !== undefined) out[k2] = v2;
  return out;
}

/** The value under `key` of a labels or annotations map, if it is a map. */
function entry(map: unknown, key: string): unknown {
  return map === null || typeof map !== 'object' ? undefined : (map as Record<string, unknown>)[key];
}

/**
 * The distinct values of a chart's skeletons: strings and other primitives once, by value; an object (a chart module
 * may set a label to anything) as itself. Packed, the strings are one text, which holds none of the spec files'
 * texts they were cut from.
 */
class ValueTable {
  private readonly values: unknown[] = [undefined];
  private readonly indexes = new Map<unknown, number>();

  /** The index of `value`, added when new; 0 for undefined. */
  index(value: unknown): number {
    if (value === undefined) return 0;
    const found = this.indexes.get(value);
    if (found !== undefined) return found;
    const index = this.values.length;
    this.values.push(value);
    this.indexes.set(value, index);
    return index;
  }

  /** How many values, none (index 0) among them. */
  get size(): number {
    return this.values.length;
  }

  packed(): Pick<Skeletons, 'text' | 'ends' | 'others'> {
    const ends = new Uint32Array(this.values.length);
    const others = new Map<number, unknown>();
    const strings: string[] = [];
    let end = 0;
    this.values.forEach((value, k) => {
      if (typeof value === 'string') {
        strings.push(value);
        end += value.length;
      } else others.set(k, value);
      ends[k] = end;
    });
    return { text: strings.join(''), ends, others };
  }
}

/**
 * `s`, as a string that holds nothing else. V8 keeps a string of 13 characters or more cut out of another as a
 * slice of it (`SlicedString::kMinLength`), so a name read from a spec file would hold that file's text; it copies
 * shorter ones when it cuts them. A JSON round trip is the fastest exact copy measured (250,000 names in a loop:
 * 0.25 µs a name, against 0.45–0.5 µs for a concatenation and 0.4–0.55 µs for a Buffer).
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}

/** The parts of `spec` the pass across charts reads: a CRD's group, names.kind and scope; pods' runtimeClassName. */
function specSkeleton(json: Manifest): Manifest | undefined {
  const spec = json.spec;
  if (spec === null || typeof spec !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const key of ['group', 'scope', 'runtimeClassName'] as const)
    if (spec[key] !== undefined) out[key] = own(spec[key]);
  if (spec.names?.kind !== undefined) out.names = { kind: own(spec.names.kind) };
  const skeleton = { ...out, ...podTemplates(spec) };
  return Object.keys(skeleton).length === 0 ? undefined : skeleton;
}

/** `value`, a string as a copy of its own ({@link ownCopy}): the spec parts are kept beside the table's text. */
function own(value: unknown): unknown {
  return typeof value === 'string' ? ownCopy(value) : value;
}

/** The RuntimeClass a workload's or a CronJob's pod template names, at the place it names it. */
function podTemplates(spec: Manifest): Manifest {
  const template = own(spec.template?.spec?.runtimeClassName);
  const job = own(spec.jobTemplate?.spec?.template?.spec?.runtimeClassName);
  return {
    ...(template === undefined ? {} : { template: { spec: { runtimeClassName: template } } }),
    ...(job === undefined
      ? {}
      : { jobTemplate: { spec: { template: { spec: { runtimeClassName: job } } } } }),
  };
}
