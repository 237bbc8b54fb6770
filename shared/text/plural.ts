/**
 * A count and its noun as a person writes them: "1 download", "2 downloads", "1,200 images",
 * never "1 downloads" or "download(s)". `many` for a noun whose plural is not `one` + s.
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
