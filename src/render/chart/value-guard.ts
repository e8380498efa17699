import { App, type ApiObject, type IResolver, type ResolutionContext } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { formatPath, type FieldPath } from '../../rules/field-path.js';
import { describeObject } from '../../rules/manifest.js';
import type { LocatedProblem, Problem } from '../../rules/problem.js';

/**
 * What a chart module's objects may hold that no manifest can: a cycle (cdk8s's own walk of it would copy its path
 * at every level until the worker runs out of memory), an empty (`null` or `undefined`) item of a list, a number
 * that is not finite (`NaN`, `Infinity`: JSON and YAML 1.2's JSON schema have neither). Found in the walk cdk8s
 * already makes of every value of an object's props as it serialises it (`toJson()`, its resolvers: the guard is
 * the first resolver of the chart's app, src/render/chart/build-chart.ts), so it costs one call and a type test a
 * value, a look along the path for an object or list (a cycle is a value that is its own ancestor), and only in
 * charts with a module (the objects of spec files are made by specforge's constructs, whose
 * props are plain copies: src/constructs/plain.ts). What it finds is cut out, so that the checks that follow see
 * plain data, and reported once per object and field as a problem of the module's file.
 */

/** Deeper than any manifest (as src/constructs/plain.ts): a path longer than this is no manifest's. */
const MAX_DEPTH = 100;

const TOO_DEEP = {
  expected: `data nested at most ${MAX_DEPTH} levels deep`,
  found: `more than ${MAX_DEPTH} levels`,
};

export class ValueGuard implements IResolver {
  /** What was found, by object, then by printed field path (toJson runs more than once per object). */
  private readonly found = new Map<ApiObject, Map<string, Problem<string>>>();

  /** The guard of the app of `scope`, when its chart was built with one. */
  static of(scope: IConstruct): ValueGuard | undefined {
    return App.of(scope).resolvers.find((r): r is ValueGuard => r instanceof ValueGuard);
  }

  /**
   * Takes the guard out of the app of `scope` once a walk of every object found nothing: the same objects walked
   * again (the chart's JSON once its wiring was checked) hold the same values, and pay nothing for it.
   */
  static detach(scope: IConstruct): void {
    const { resolvers } = App.of(scope);
    const at = resolvers.findIndex((r) => r instanceof ValueGuard);
    if (at !== -1) resolvers.splice(at, 1);
  }

  /**
   * Where the walk under way starts: cdk8s walks an object's metadata from a root of its own before the rest (whose
   * root holds `metadata` walked already), so paths in the first are put under `metadata`.
   */
  private root: readonly string[] = [];
  /**
   * The objects and lists on the path to the value being walked, by depth: cdk8s walks depth first and tells each
   * value before those under it, so the last value told at each depth above is an ancestor of this one (what is
   * kept past the depth of the value told is left over from other paths, and not read).
   */
  private readonly ancestors: unknown[] = [];

  resolve(context: ResolutionContext): void {
    const value: unknown = context.value;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) this.notFinite(context, value);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const depth = context.key.length;
    if (depth === 0) this.root = 'metadata' in value ? [] : ['metadata'];
    const { ancestors } = this;
    for (let i = 0; i < depth; i++) if (ancestors[i] === value) return this.cycle(context, i);
    if (depth > MAX_DEPTH) return this.tooDeep(context);
    ancestors[depth] = value;
    if (Array.isArray(value) && hasEmpty(value)) this.emptyItems(context, value);
  }

  private notFinite(context: ResolutionContext, value: number): void {
    this.add(context.obj, this.pathOf(context.key), {
      expected: 'a finite number (JSON has no NaN or Infinity)',
      found: String(value),
      hint: 'Give a number, or leave the field out.',
    });
  }

  /** A value that is its ancestor at depth `back`: cut out. */
  private cycle(context: ResolutionContext, back: number): void {
    this.add(context.obj, this.pathOf(context.key), {
      expected: 'plain data (a manifest holds no cycles)',
      found: `a reference back to ${back === 0 ? 'the object itself' : this.pathOf(context.key.slice(0, back))}`,
      hint: 'Give the field a copy of the value, or build the value without the reference back.',
    });
    context.replaceValue(undefined);
  }

  private tooDeep(context: ResolutionContext): void {
    this.add(context.obj, this.pathOf(context.key.slice(0, MAX_DEPTH)), TOO_DEEP);
    context.replaceValue(undefined);
  }

  /** A list with empty items: each named, and the list walked on without them. */
  private emptyItems(context: ResolutionContext, list: readonly unknown[]): void {
    list.forEach((item, i) => {
      if (item === null || item === undefined)
        this.add(context.obj, this.pathOf([...context.key, i]), {
          expected: 'an item (a list holds no empty items)',
          found: item === null ? 'null' : 'undefined',
          hint: 'Leave the item out of the list.',
        });
    });
    context.replaceValue(list.filter((item) => item !== null && item !== undefined));
  }

  /** The problems found, each located in `file` and naming its object. */
  problems(file: string): LocatedProblem[] {
    const out: LocatedProblem[] = [];
    for (const [o, byPath] of this.found) {
      const name = describeObject({
        kind: o.kind,
        metadata: {
          name: o.name,
          ...(o.metadata.namespace === undefined ? {} : { namespace: o.metadata.namespace }),
        },
      });
      for (const p of byPath.values()) out.push({ file, ...p, path: `(${name}) ${p.path}` });
    }
    return out;
  }

  private pathOf(key: readonly (string | number)[]): string {
    return pathOf(this.root.length === 0 ? key : [...this.root, ...key]);
  }

  private add(o: ApiObject, path: string, problem: Omit<Problem<string>, 'path'>): void {
    let byPath = this.found.get(o);
    if (byPath === undefined) this.found.set(o, (byPath = new Map()));
    if (!byPath.has(path)) byPath.set(path, { path, ...problem });
  }
}

/** Whether a list holds `null`, `undefined` or a hole. */
function hasEmpty(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === null || list[i] === undefined) return true;
  return false;
}

/** cdk8s's key path (every segment a string) printed: a segment of digits as an index. */
function pathOf(key: readonly (string | number)[]): string {
  const path: FieldPath = key.map((k) => (typeof k === 'string' && /^(0|[1-9]\d*)$/.test(k) ? Number(k) : k));
  return formatPath(path);
}
