import { ownString } from './own-string.js';

/**
 * A memo of a pure function of strings that repeat (a render writes and checks the same few label keys hundreds of
 * thousands of times), which stays small whatever it is given:
 * - it holds at most `limit` entries, and starts afresh when full;
 * - it holds no key longer than `maxKeyLength` (such a key is never found, and setting it does nothing);
 * - it holds each key, and each value that is a string, as a copy of its own (src/util/own-string.ts), never the
 *   string given: a string read by js-yaml is a slice of its file's whole text, which a memo would keep alive.
 * An entry found is what the function gave; one not found is worked out again, so forgetting changes no answer.
 */
export class RecentMap<V> {
  private readonly entries = new Map<string, V>();

  /**
   * @param limit how many entries it holds at most
   * @default 4096
   * @param maxKeyLength the longest key it holds
   * @default 256
   */
  constructor(
    private readonly limit = 4096,
    private readonly maxKeyLength = 256,
  ) {}

  /** The value set for `key` since the map last started afresh, if any. */
  get(key: string): V | undefined {
    return key.length > this.maxKeyLength ? undefined : this.entries.get(key);
  }

  /** Sets `key` to `value` (not a key over the longest); when the map holds its limit, it forgets everything first. */
  set(key: string, value: V): void {
    if (key.length > this.maxKeyLength) return;
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(ownString(key), typeof value === 'string' ? (ownString(value) as V) : value);
  }
}
