/**
 * A map that forgets: it holds at most `limit` entries, and starts afresh when full. For memos of pure functions of
 * strings that repeat (a render writes and checks the same few label keys hundreds of thousands of times): an entry
 * found is what the function gave; one not found is worked out again, so forgetting changes no answer.
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  /**
   * @param limit how many entries it holds at most
   * @default 4096
   */
  constructor(private readonly limit = 4096) {}

  /** The value set for `key` since the map last started afresh, if any. */
  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Sets `key` to `value`; when the map holds its limit, it forgets everything first. */
  set(key: K, value: V): void {
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(key, value);
  }
}
