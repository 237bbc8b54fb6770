/** Which items (jobs, images) are selected, and the one a shift-click extends from. */
export interface SelectionState {
  selected: ReadonlySet<number>;
  anchor: number | null;
}

export interface ClickModifiers {
  shift?: boolean;
  /** Ctrl on Windows and Linux, ⌘ on a Mac. */
  mod?: boolean;
}

export const EMPTY_SELECTION: SelectionState = { selected: new Set(), anchor: null };

/**
 * A click on a row, as file managers do: alone it selects only that row; mod toggles it;
 * shift selects the range from the anchor (mod+shift adds the range to what is selected).
 */
export function clickSelect(
  state: SelectionState,
  order: readonly number[],
  id: number,
  modifiers: ClickModifiers = {},
): SelectionState {
  if (modifiers.shift && state.anchor !== null) {
    const from = order.indexOf(state.anchor);
    const to = order.indexOf(id);
    if (from >= 0 && to >= 0) {
      const range = order.slice(Math.min(from, to), Math.max(from, to) + 1);
      const selected = new Set(modifiers.mod ? state.selected : []);
      for (const each of range) selected.add(each);
      return { selected, anchor: state.anchor };
    }
  }
  if (modifiers.mod) {
    const selected = new Set(state.selected);
    if (selected.has(id)) selected.delete(id);
    else selected.add(id);
    return { selected, anchor: id };
  }
  return { selected: new Set([id]), anchor: id };
}

/** Every id of the filter (the whole list, loaded or not, is the caller's to give). */
export function selectAll(order: readonly number[]): SelectionState {
  return { selected: new Set(order), anchor: order[0] ?? null };
}

/** Drops ids that left the list (a filter changed, jobs moved out of it). */
export function keepListed(state: SelectionState, order: readonly number[]): SelectionState {
  if (state.selected.size === 0) return state;
  const listed = new Set(order);
  let dropped = false;
  const selected = new Set<number>();
  for (const id of state.selected) {
    if (listed.has(id)) selected.add(id);
    else dropped = true;
  }
  if (!dropped) return state;
  const anchor = state.anchor !== null && listed.has(state.anchor) ? state.anchor : null;
  return { selected, anchor };
}

/** The selected ids in list order (bulk actions keep the order the person sees). */
export function selectedInOrder(state: SelectionState, order: readonly number[]): number[] {
  if (state.selected.size === 0) return [];
  return order.filter((id) => state.selected.has(id));
}
