// The gallery client of the host benchmark, in a process of its own (as the browser is):
// pages the gallery and a batch's jobs every 100 ms and holds the event stream, then prints
// its request latencies as one JSON line when told to stop (SIGTERM).
import { request } from 'undici';
import { openSession } from '../support/web-login.ts';

const [address, batchId] = [process.argv[2]!, Number(process.argv[3])];
const origin = new URL(address).origin;
const authorization = `Bearer ${(await openSession(address)).token}`;

const headers = { authorization, 'content-type': 'application/json', origin };
const latencies: number[] = [];
async function call(area: string, method: string, input: unknown): Promise<unknown> {
  const started = performance.now();
  const response = await request(`${origin}/api/${area}/${method}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(input),
  });
  const result = (await response.body.json()) as { ok: boolean; value?: unknown };
  latencies.push(performance.now() - started);
  if (!result.ok) throw new Error(`${area}.${method}: ${JSON.stringify(result)}`);
  return result.value;
}

let eventBytes = 0;
const events = await request(`${origin}/api/events`, { headers: { authorization } });
events.body.on('data', (chunk: Buffer) => (eventBytes += chunk.length));

let stopping = false;
process.on('SIGTERM', () => (stopping = true));
while (!stopping) {
  const tick = performance.now();
  await call('images', 'page', { limit: 200 });
  const ids = (await call('jobs', 'ids', { batchId, limit: 10_000 })) as { ids: number[] };
  const middle = Math.max(0, Math.floor(ids.ids.length / 2) - 100);
  await call('jobs', 'byIds', { ids: ids.ids.slice(middle, middle + 200) });
  await new Promise((r) => setTimeout(r, Math.max(0, 100 - (performance.now() - tick))));
}
events.body.destroy();
latencies.sort((a, b) => a - b);
const at = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.stdout.write(
  `${JSON.stringify({ requests: latencies.length, p50: at(0.5), p99: at(0.99), eventBytes })}\n`,
);
process.exit(0);
