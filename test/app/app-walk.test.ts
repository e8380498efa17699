import { ApiObject, App, Chart } from 'cdk8s';
import { Construct, type IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { AppWalk, chartJson } from '../../src/app/app-walk.js';

/**
 * `chartJson` answers as cdk8s's `chart.toJson()` does: the same objects in the same order, with and without
 * dependencies (where it lists the tree instead of building cdk8s's dependency graph only when nothing depends on
 * anything), and the same errors.
 */

/** A small seeded generator (mulberry32), so a failing tree can be built again from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * An app of a chart holding `size` constructs: API objects, plain constructs and nested charts, each under one made
 * before it, with ids that sort otherwise than they are made (numbers among them). A nested chart is made under a
 * plain construct only, so no chart is another's direct child (cdk8s makes that a dependency between the two).
 * With `dependencies`, some constructs depend on one made before them in the same chart, neither inside the other
 * (so that cdk8s finds no cycle).
 */
function tree(seed: number, size: number, dependencies: boolean): Chart {
  const next = random(seed);
  const chart = new Chart(new App(), 'chart');
  const scopes: IConstruct[] = [chart];
  const made: IConstruct[] = [];
  for (let i = 0; i < size; i++) {
    const scope = scopes[Math.floor(next() * scopes.length)] ?? chart;
    const id = next() < 0.3 ? String(size - i) : `c-${Math.floor(next() * 1000)}-${i}`;
    const pick = next();
    let c: IConstruct;
    if (pick < 0.55) c = new ApiObject(scope, id, configMap(`${id}-${i}`));
    else if (pick < 0.9 || scope instanceof Chart) c = new Construct(scope, id);
    else c = new Chart(scope, id);
    if (!(c instanceof ApiObject)) scopes.push(c);
    const target = made[Math.floor(next() * made.length)];
    if (dependencies && target !== undefined && next() < 0.15 && unrelated(c, target))
      c.node.addDependency(target);
    made.push(c);
  }
  return chart;
}

/** Two constructs of the same chart, neither inside the other. */
function unrelated(a: IConstruct, b: IConstruct): boolean {
  const inside = (x: IConstruct, y: IConstruct): boolean => x.node.scopes.includes(y);
  return Chart.of(a) === Chart.of(b) && !inside(a, b) && !inside(b, a);
}

/** Whether no construct of `chart`'s tree has a dependency: the trees `chartJson` orders without cdk8s's graph. */
function dependencyFree(chart: Chart): boolean {
  return chart.node.findAll().every((c) => c.node.dependencies.length === 0);
}

function configMap(name: string): { apiVersion: string; kind: string; metadata: { name: string } } {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } };
}

/** What a run gave: its value, or the message it threw. */
type Outcome = { readonly value: unknown } | { readonly error: string };

function outcome(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** The chart's objects (or error) as cdk8s gives them, and as `chartJson` does, each from a tree of its own. */
function both(build: () => Chart): { cdk8s: Outcome; walked: Outcome } {
  return { cdk8s: outcome(() => build().toJson()), walked: outcome(() => chartJson(build())) };
}

describe('chartJson', () => {
  it('gives the objects of a chart whose constructs depend on nothing in the order cdk8s gives them', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { cdk8s, walked } = both(() => tree(seed, 60, false));
      expect(walked, `seed ${seed}`).toEqual(cdk8s);
      expect('value' in cdk8s, `seed ${seed}`).toBe(true);
      // Still none once cdk8s has resolved the app's dependencies: chartJson listed the tree.
      const after = tree(seed, 60, false);
      after.toJson();
      expect(dependencyFree(after), `seed ${seed}`).toBe(true);
    }
  });

  it('orders a chart whose constructs depend on others as cdk8s does, not as its tree lists them', () => {
    let ordered = 0;
    let reordered = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const { cdk8s, walked } = both(() => tree(seed, 60, true));
      expect(walked, `seed ${seed}`).toEqual(cdk8s);
      if (!('value' in cdk8s)) continue;
      ordered++;
      const listed = tree(seed, 60, true)
        .node.findAll()
        .filter((c): c is ApiObject => c instanceof ApiObject && Chart.of(c).node.path === 'chart')
        .map((o) => o.toJson() as unknown);
      if (JSON.stringify(listed) !== JSON.stringify(cdk8s.value)) reordered++;
    }
    // Most trees are ordered (not refused as cycles), and their dependencies change the order of most, so listing
    // them would be caught here.
    expect(ordered).toBeGreaterThan(50);
    expect(reordered).toBeGreaterThan(40);
  });

  it('orders objects whose paths read as array indexes as cdk8s does (a root chart without an id)', () => {
    // The one tree where a construct's path reads as an array index: cdk8s's graph keys such paths first, so `2`
    // and `10` come before `1/x` there, though the tree lists `1/x` first.
    const build = (): Chart => {
      const chart = new Chart(undefined as unknown as Construct, '');
      // What cdk8s's ApiObject reads of its root (an App's resolvers), for a root that is a chart.
      Object.assign(chart, { resolvers: [] });
      for (const id of ['2', 'b', '10', 'a']) new ApiObject(chart, id, configMap(`cm-${id}`));
      new ApiObject(new Construct(chart, '1'), 'x', configMap('cm-1-x'));
      return chart;
    };
    const { cdk8s, walked } = both(build);
    expect(walked).toEqual(cdk8s);
    const names =
      'value' in cdk8s ? (cdk8s.value as { metadata: { name: string } }[]).map((o) => o.metadata.name) : [];
    expect(names).toEqual(['cm-2', 'cm-10', 'cm-1-x', 'cm-b', 'cm-a']);
  });

  it('throws the validation errors cdk8s throws, and a dependency cycle as cdk8s does', () => {
    const invalid = (): Chart => {
      const chart = new Chart(new App(), 'chart');
      const o = new ApiObject(chart, 'o', configMap('o'));
      o.node.addValidation({ validate: () => ['not today'] });
      return chart;
    };
    expect(() => chartJson(invalid())).toThrow(captured(() => invalid().toJson()) ?? 'cdk8s did not throw');
    const cyclic = (): Chart => {
      const chart = new Chart(new App(), 'chart');
      const a = new ApiObject(chart, 'a', configMap('a'));
      const b = new ApiObject(chart, 'b', configMap('b'));
      a.node.addDependency(b);
      b.node.addDependency(a);
      return chart;
    };
    expect(() => chartJson(cyclic())).toThrow(captured(() => cyclic().toJson()) ?? 'cdk8s did not throw');
  });

  it('asks a chart whose toJson() is its own for its JSON', () => {
    class Own extends Chart {
      public override toJson(): unknown[] {
        return [{ own: true }];
      }
    }
    expect(chartJson(new Own(new App(), 'own'))).toEqual([{ own: true }]);
  });
});

describe('AppWalk.objectsOf', () => {
  it("lists a nested chart's objects under the nested chart only, as cdk8s does", () => {
    const app = new App();
    const outer = new Chart(app, 'outer');
    new ApiObject(outer, 'a', configMap('a'));
    const inner = new Chart(outer, 'inner');
    new ApiObject(inner, 'b', configMap('b'));
    const walk = new AppWalk(app);
    expect(walk.objectsOf(outer).map((o) => o.name)).toEqual(['a']);
    expect(walk.objectsOf(inner).map((o) => o.name)).toEqual(['b']);
  });
});

function captured(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
