import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Chart, Names, Yaml, YamlOutputType, type AppProps } from 'cdk8s';
import { makeDirs } from '../util/make-dirs.js';
import { AppWalk, ChartJson } from './app-walk.js';
import { quoteString, toYaml } from '../output/yaml.js';

/**
 * A cdk8s `App` whose `synth()` and `synthYaml()` write what cdk8s's `App` writes (the same files, names, objects
 * and order, for every `yamlOutputType`, and the same errors) in time linear in the app, and in the YAML
 * `specforge render` writes.
 *
 * cdk8s's `App.synth()` writes each chart through `chart.toJson()`, and each of those walks the whole app again
 * (its dependencies and its validations): 100 charts walk the app 101 times. Its YAML writer (the `yaml` package)
 * costs 125–220 µs an object. This one takes the steps of cdk8s's `synth()` and of its first `chart.toJson()`, which
 * the later ones repeat without finding anything new, and writes with specforge's emitter (`output/yaml.ts`: the
 * bytes of the spec door's files; a document that is not plain JSON data, such as a `Date`, `-0` or a value left
 * `undefined`, goes through cdk8s's writer). docs/benchmarks.md, "With `SpecforgeApp`".
 *
 * A chart whose `toJson()` is not cdk8s's (a subclass's, or a patch) is asked for its JSON as cdk8s asks it. What
 * it does not repeat: dependencies a later `chart.toJson()` would find added by an earlier one.
 */
export class SpecforgeApp extends App {
  /**
   * @param props as cdk8s's `App`: `outdir` (default `CDK8S_OUTDIR` or `dist`), `outputFileExtension` (default
   *   `.k8s.yaml`), `yamlOutputType` (default one file per chart), `resolvers`, `recordConstructMetadata` (default
   *   `CDK8S_RECORD_CONSTRUCT_METADATA=true`)
   */
  public constructor(props: AppProps = {}) {
    super(props);
  }

  /** Whether cdk8s's `App` keeps construct metadata: its own (private) answer to the props and the environment. */
  private get recordsConstructMetadata(): boolean {
    return (
      (this as unknown as { readonly recordConstructMetadata?: boolean }).recordConstructMetadata === true
    );
  }

  /** Writes every chart's manifests into `outdir`, as cdk8s's `App.synth()` lays them out. */
  public override synth(): void {
    makeDirs(this.outdir);
    // One listing for the validations and the dependencies, as cdk8s's synth() has; a chart's objects are found anew.
    const walk = new AppWalk(this);
    walk.validate();
    const indexed = walk.resolveDependencies();
    const charts = this.charts;
    const json = new ChartJson(this, walk, true);
    for (const { path, docs } of this.layout(walk, json, charts, indexed)) {
      if (docs === undefined) mkdirSync(join(this.outdir, path), { recursive: true });
      else writeFileSync(join(this.outdir, path), yamlDocuments(docs), { encoding: 'utf8' });
    }
    if (this.recordsConstructMetadata) {
      const resources: Record<string, { path: string }> = {};
      for (const object of charts.flatMap((c) => walk.objectsOf(c)))
        resources[object.name] = { path: object.node.path };
      writeFileSync(
        join(this.outdir, 'construct-metadata.json'),
        JSON.stringify({ version: '1.0.0', resources }),
      );
    }
  }

  /** Every chart's manifests as one YAML text, as cdk8s's `App.synthYaml()` gives them. */
  public override synthYaml(): string {
    const walk = new AppWalk(this);
    walk.resolveDependencies();
    walk.validate();
    // cdk8s's chart checks know a second validation inside synth() only (src/constructs/chart-checks.ts): unmarked.
    const json = new ChartJson(this, walk, false);
    return yamlDocuments(this.charts.flatMap((c) => json.of(c)));
  }

  /** The files of `yamlOutputType` (cdk8s's names), one at a time; an entry without documents is a directory. */
  private *layout(
    walk: AppWalk,
    json: ChartJson,
    charts: readonly Chart[],
    indexed: boolean,
  ): Generator<OutputEntry> {
    const ext = this.outputFileExtension;
    const name = chartNamer(indexed);
    switch (this.yamlOutputType) {
      case YamlOutputType.FILE_PER_APP:
        if (charts.length > 0) yield { path: `app${ext}`, docs: charts.flatMap((c) => json.of(c)) };
        return;
      case YamlOutputType.FILE_PER_CHART:
        for (const chart of charts) yield { path: `${name(chart)}${ext}`, docs: json.of(chart) };
        return;
      case YamlOutputType.FILE_PER_RESOURCE:
        for (const chart of charts) yield* resourceFiles(json.of(chart), ext);
        return;
      case YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE:
        for (const chart of charts) {
          const folder = name(chart);
          yield { path: folder };
          for (const object of walk.objectsOf(chart))
            yield {
              path: join(folder, `${resourceFileName(object)}${ext}`),
              docs: [object.toJson() as unknown],
            };
        }
        return;
      default:
        return;
    }
  }
}

/** A file of the output (with its documents) or a directory (without). */
interface OutputEntry {
  readonly path: string;
  readonly docs?: readonly unknown[];
}

/** cdk8s's chart file and folder names: the chart's DNS label, numbered in order when charts depend on others. */
function chartNamer(indexed: boolean): (chart: Chart) => string {
  let index = 0;
  return (chart) => {
    const label = Names.toDnsLabel(chart);
    return indexed ? `${(index++).toString().padStart(4, '0')}-${label}` : label;
  };
}

/** A file for each document (none for an undefined one), named as cdk8s names it. */
function* resourceFiles(docs: readonly unknown[], ext: string): Generator<OutputEntry> {
  for (const doc of docs)
    if (doc !== undefined) yield { path: `${resourceFileName(doc)}${ext}`, docs: [doc] };
}

/**
 * cdk8s's file name of one resource: `<kind>.<name>`, only letters, digits, `-`, `_` and `.` kept. As unguarded as
 * cdk8s's: a document without `metadata` throws the same error.
 */
function resourceFileName(object: unknown): string {
  const o = object as { kind: unknown; metadata: { name: unknown } };
  return `${String(o.kind)}.${String(o.metadata.name)}`.replace(/[^0-9a-zA-Z-_.]/g, '');
}

/** Documents as cdk8s's `Yaml.stringify` separates them, each in specforge's YAML where it is plain data. */
function yamlDocuments(docs: readonly unknown[]): string {
  return docs
    .map((d) => (d === undefined ? '\n' : plainData(d) ? toYaml(d) : Yaml.stringify(d)))
    .join('---\n');
}

/**
 * Whether specforge's emitter writes `v` as cdk8s's writer would read back: plain objects and arrays (no holes, no
 * `undefined`, which cdk8s writes as `null`), strings, booleans, `null`, finite numbers but `-0`, keys short enough
 * for YAML's implicit keys (1,024 characters).
 */
function plainData(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object':
      if (v === null) return true;
      return Array.isArray(v) ? plainArray(v) : plainObject(v);
    default:
      return false;
  }
}

/** No hole and no `undefined` either: `plainData` refuses both, as `v[i]` reads a hole as `undefined`. */
function plainArray(v: readonly unknown[]): boolean {
  for (let i = 0; i < v.length; i++) if (!plainData(v[i])) return false;
  return true;
}

function plainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const [k, x] of Object.entries(v)) {
    if (!plainData(x)) return false;
    if (k.length > 128 && quoteString(k).length > 1024) return false;
  }
  return true;
}
