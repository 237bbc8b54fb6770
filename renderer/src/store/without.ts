/**
 * `items` less `ids`, as a copy; the same object when none of them is in it, so that nothing
 * that reads it renders again.
 */
export function without<V>(
  items: ReadonlyMap<number, V>,
  ids: readonly number[],
): ReadonlyMap<number, V>;
export function without(items: ReadonlySet<number>, ids: readonly number[]): ReadonlySet<number>;
export function without<V>(
  items: ReadonlyMap<number, V> | ReadonlySet<number>,
  ids: readonly number[],
): ReadonlyMap<number, V> | ReadonlySet<number> {
  if (!ids.some((id) => items.has(id))) return items;
  const copy =
    items instanceof Map
      ? new Map<number, V>(items)
      : new Set<number>(items as ReadonlySet<number>);
  for (const id of ids) copy.delete(id);
  return copy;
}
