/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes every item as an argument and overflows
 * the call stack past roughly 120,000 items (a hostile file can hold that many documents or errors).
 */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
