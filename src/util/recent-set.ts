/**
 * A set that forgets: it holds at most `limit` values, and starts afresh when full. For memos of pure checks on
 * strings that repeat (a render checks the same few label keys hundreds of thousands of times): a value found is
 * one that passed; a value not found is checked again, never refused for being forgotten.
 */
export class RecentSet<T> {
  private readonly values = new Set<T>();

  /**
   * @param limit how many values it holds at most
   * @default 4096
   */
  constructor(private readonly limit = 4096) {}

  /** Whether `value` was added since the set last started afresh. */
  has(value: T): boolean {
    return this.values.has(value);
  }

  /** Adds `value`; when the set holds its limit, it forgets everything first. */
  add(value: T): void {
    if (this.values.size >= this.limit) this.values.clear();
    this.values.add(value);
  }
}
