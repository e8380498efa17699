/**
 * The cost budget of one rule's evaluation, so that no rule can hang a render: each element of a list and each
 * field of a mapping the rule reads costs one unit, as cel-go's runtime cost counts traversals; past the API server's
 * per-call limit the evaluation stops (the API server refuses such an object too: "call cost exceeds limit"), and
 * past its deadline (wall time, looked at every 1,024 units) likewise. Values read by a rule go through
 * {@link Budget.list} and {@link Budget.map}, which count.
 */
export class Budget {
  private used = 0;
  private deadline = 0;

  /** The API server's per-call limit (apiextensions-apiserver `PerCallLimit`). */
  static readonly PER_CALL_LIMIT = 1_000_000;

  constructor(private readonly timeLimitMs: number) {}

  /** Starts one evaluation. */
  start(): void {
    this.used = 0;
    this.deadline = Date.now() + this.timeLimitMs;
  }

  /** One unit of cost; throws {@link BudgetExceeded} past the limit or the deadline. */
  tick(): void {
    this.used += 1;
    if (this.used > Budget.PER_CALL_LIMIT)
      throw new BudgetExceeded(`more than ${Budget.PER_CALL_LIMIT} steps`);
    if ((this.used & 1023) === 0 && Date.now() > this.deadline)
      throw new BudgetExceeded(`more than ${this.timeLimitMs} ms`);
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

/** A rule stopped by its budget. */
export class BudgetExceeded extends Error {}
