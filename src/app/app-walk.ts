import { ApiObject, App, Chart, DependencyGraph } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { revalidatingDuring } from '../util/revalidation.js';

/**
 * The steps of cdk8s's synthesis, as cdk8s takes them (read from its source, `lib/app.js`), over one listing of the
 * construct tree: the validations, the dependencies turned into dependencies between charts and API objects, and
 * each chart's objects in order. Used where cdk8s's own steps would walk the tree again for each chart or build a
 * dependency graph that orders nothing: `SpecforgeApp` (src/app/specforge-app.ts) and the render's synthesis of a
 * chart (src/render/chart/check-chart.ts). Their tests hold them to cdk8s's answers.
 */

/**
 * `Chart.prototype.toJson` as cdk8s defines it (`return App._synthChart(this)`, read from its source), or undefined
 * when something patched it before this module was loaded: every chart is then asked for its JSON as cdk8s asks it.
 */
const CDK8S_CHART_TO_JSON = /^toJson\(\)\s*\{\s*return\s+[\w$]+\.App\._synthChart\(this\);?\s*\}$/.test(
  Function.prototype.toString.call(Chart.prototype.toJson),
)
  ? Chart.prototype.toJson
  : undefined;

/**
 * One synth's view of the construct tree: each subtree listed once (cdk8s's `SynthRequestCache`, kept for the whole
 * synth instead of one chart's), each construct's chart looked up once.
 */
export class AppWalk {
  private readonly subtrees = new Map<IConstruct, IConstruct[]>();
  private readonly charts = new Map<IConstruct, Chart>();

  public constructor(private readonly app: IConstruct) {}

  /** Runs every construct's validations; throws cdk8s's error, naming each construct, when any fails. */
  public validate(): void {
    const errors: string[] = [];
    for (const child of this.all(this.app)) {
      for (const error of child.node.validate()) errors.push(`[${child.node.path}] ${error}`);
    }
    if (errors.length > 0)
      throw new Error(`Validation failed with the following errors:\n  ${errors.join('\n  ')}`);
  }

  /**
   * Turns nested charts and dependencies between constructs into dependencies between charts and between their
   * API objects, as cdk8s does before it writes; whether any chart depends on another (the files are then numbered).
   */
  public resolveDependencies(): boolean {
    let dependantCharts = false;
    const everything = this.all(this.app);
    for (const parent of everything.filter((x) => x instanceof Chart)) {
      for (const child of parent.node.children.filter((x) => x instanceof Chart)) {
        parent.node.addDependency(child);
        dependantCharts = true;
      }
    }
    const deps = (): { source: IConstruct; target: IConstruct }[] =>
      everything.flatMap((source) => source.node.dependencies.map((target) => ({ source, target })));
    for (const { source, target } of deps()) {
      const sourceChart = this.chartOf(source);
      const targetChart = this.chartOf(target);
      if (sourceChart !== targetChart) {
        sourceChart.node.addDependency(targetChart);
        dependantCharts = true;
      }
    }
    for (const { source, target } of deps()) {
      const targets = this.apiObjectsIn(target);
      for (const s of this.apiObjectsIn(source)) s.node.addDependency(...targets.filter((t) => t !== s));
    }
    return dependantCharts;
  }

  /**
   * The chart's own API objects (not those of nested charts), in dependency order: cdk8s's `DependencyGraph` of the
   * chart's subtree, or, when no construct in it has a dependency, the subtree as listed (pre-order), which is the
   * order that graph gives then: every construct is a root of its own, taken in the order its path was keyed into an
   * object. Such an object puts keys that read as array indexes first: a path like `2` (a child of a root whose id
   * is empty) would come before `1/x` there, not after it as listed, so a subtree with one takes the graph. The
   * graph costs more than the rest of a chart of spec files' synthesis (docs/benchmarks.md).
   */
  public objectsOf(chart: Chart): ApiObject[] {
    const own = (x: IConstruct): x is ApiObject => x instanceof ApiObject && this.chartOf(x) === chart;
    const listed = chart.node.findAll();
    if (listed.every(independent)) return listed.filter(own);
    return new DependencyGraph(chart.node).topology().filter(own);
  }

  private all(scope: IConstruct): IConstruct[] {
    let list = this.subtrees.get(scope);
    if (list === undefined) this.subtrees.set(scope, (list = scope.node.findAll()));
    return list;
  }

  /** API objects under `scope` (itself included) whose closest chart is `scope`'s. */
  private apiObjectsIn(scope: IConstruct): ApiObject[] {
    const chart = this.chartOf(scope);
    return this.all(scope).filter((c): c is ApiObject => c instanceof ApiObject && this.chartOf(c) === chart);
  }

  private chartOf(c: IConstruct): Chart {
    let chart = this.charts.get(c);
    if (chart === undefined) this.charts.set(c, (chart = Chart.of(c)));
    return chart;
  }
}

/**
 * Whether `c` adds no edge to cdk8s's dependency graph and keeps its place there: its path does not read as an
 * array index (any digits taken as one, to be safe).
 */
function independent(c: IConstruct): boolean {
  return c.node.dependencies.length === 0 && !/^\d+$/.test(c.node.path);
}

/**
 * One synth's answers to `chart.toJson()`, without cdk8s walking the app again for each chart. The first chart whose
 * `toJson()` is cdk8s's does what cdk8s's first does before it lists the chart's objects: the app's dependencies
 * resolved and its validations run again (inside `synth()`, with specforge's chart checks answering as they did:
 * `util/revalidation.ts`); the later ones would repeat it and find nothing new. A chart whose `toJson()` is its own is
 * asked for it.
 */
export class ChartJson {
  private prepared = false;

  public constructor(
    private readonly app: IConstruct,
    private readonly walk: AppWalk,
    private readonly inSynth: boolean,
  ) {}

  public of(chart: Chart): unknown[] {
    if (CDK8S_CHART_TO_JSON === undefined || chart.toJson !== CDK8S_CHART_TO_JSON)
      return Object.values(chart.toJson() as object);
    if (!this.prepared) {
      this.prepared = true;
      this.prepare();
    }
    return this.walk.objectsOf(chart).map((o) => o.toJson() as unknown);
  }

  private prepare(): void {
    const again = new AppWalk(this.app);
    again.resolveDependencies();
    if (this.inSynth) revalidatingDuring(this.app, () => again.validate());
    else again.validate();
  }
}

/**
 * What `chart.toJson()` gives (cdk8s's `App._synthChart`: the app's dependencies resolved and its validations run,
 * then the chart's objects in dependency order, each as JSON): {@link ChartJson} of a synth of its own. Throws what
 * cdk8s throws.
 */
export function chartJson(chart: Chart): unknown[] {
  const app = App.of(chart);
  return new ChartJson(app, new AppWalk(app), false).of(chart);
}
