/**
 * The cost budget of one rule's evaluation, which decides, as the API server's per-call cost limit decides: each
 * element of a list and each field of a mapping the rule reads costs one unit, as cel-go's runtime cost counts
 * traversals; past the API server's per-call limit the evaluation stops and the object is refused (the API server
 * refuses it too: "call cost exceeds limit"), whatever the machine's speed. Values read by a rule go through
 * {@link Budget.list} and {@link Budget.map}, which count.
 *
 * Beside it, a hang guard only: wall time, looked at every 1,024 units, far above what any rule within its cost
 * takes (one million reads take well under a second). Its breach is no verdict on the object ({@link OutOfTime}):
 * the render names the rule in a note as not evaluated in time, so that no verdict depends on a loaded machine.
 */
export class Budget {
  private used = 0;
  private deadline = 0;

  /** The API server's per-call limit (apiextensions-apiserver `PerCallLimit`). */
  static readonly PER_CALL_LIMIT = 1_000_000;

  /** The wall time one rule may take before the hang guard stops it. */
  static readonly HANG_GUARD_MS = 10_000;

  /** Starts one evaluation. */
  start(): void {
    this.used = 0;
    this.deadline = Date.now() + Budget.HANG_GUARD_MS;
  }

  /** One unit of cost; throws {@link BudgetExceeded} past the limit, {@link OutOfTime} past the hang guard. */
  tick(): void {
    this.used += 1;
    if (this.used > Budget.PER_CALL_LIMIT)
      throw new BudgetExceeded(`more than ${Budget.PER_CALL_LIMIT} steps`);
    if ((this.used & 1023) === 0 && Date.now() > this.deadline)
      throw new OutOfTime(`more than ${Budget.HANG_GUARD_MS / 1000} s`);
  }

  /** A list whose element reads are counted. */
  list<T>(items: T[]): T[] {
    return new Proxy(items, {
      get: (target, key, receiver) => {
        if (typeof key === 'string' && key.length > 0 && key.charCodeAt(0) <= 57) this.tick();
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  }

  /** A mapping whose field reads are counted. */
  map<V>(entries: Iterable<[string, V]>): Map<string, V> {
    return new CountingMap(entries, this);
  }
}

class CountingMap<V> extends Map<string, V> {
  constructor(
    entries: Iterable<[string, V]>,
    private readonly budget?: Budget,
  ) {
    super(entries);
  }
  override get(key: string): V | undefined {
    this.budget?.tick();
    return super.get(key);
  }
}

/** A rule stopped by its cost budget: the object is refused, as the API server refuses it. */
export class BudgetExceeded extends Error {}

/** A rule stopped by the hang guard, within its cost: no verdict. */
export class OutOfTime extends Error {}
