export interface FilterOption {
  value: string;
  label: string;
}

interface Facet {
  value: string | null;
  count: number;
}

/**
 * A filter's options from what the library holds (images.facets), with how many images each
 * has; the chosen value stays offered while the library has none of it (deleted since). A
 * null facet (no size asked, the model's own) cannot be filtered on and is left out.
 */
export function facetOptions(
  facets: readonly Facet[] | undefined,
  chosen: string | null,
  label: (value: string) => string = (value) => value,
): FilterOption[] {
  const options = (facets ?? []).flatMap(({ value, count }) =>
    value === null ? [] : [{ value, label: `${label(value)} (${count.toLocaleString('en-US')})` }],
  );
  if (chosen && !options.some((o) => o.value === chosen)) {
    options.push({ value: chosen, label: `${label(chosen)} (none now)` });
  }
  return options;
}
