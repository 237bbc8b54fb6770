/**
 * A fetch Response whose json() is loose, as DOM's typing has it: these tests probe the
 * simulator's raw bodies field by field, and Node's own types (the test project has no DOM)
 * make json() return `unknown`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw wire bodies, probed field by field
export type WireResponse = Omit<Response, 'json'> & { json(): Promise<any> };
