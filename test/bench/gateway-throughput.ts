/**
 * How many requests per second the simulator sustains at zero latency, so that it is never the
 * bottleneck of an engine benchmark. Run: npm run bench:gateway [-- --requests 20000 --concurrency 64]
 * The simulator runs in its own process, as in the engine benchmark; the load comes from here.
 */
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { startSimulatorProcess } from './simulator-process.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '64' },
  },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

function post(url: string, key: string, path: string, body: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

async function measure(
  name: string,
  url: string,
  key: string,
  path: string,
  bodyFor: (i: number) => unknown,
) {
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const status = await post(url, key, path, JSON.stringify(bodyFor(i)));
        if (status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${name.padEnd(44)} ${String(Math.round(total / seconds)).padStart(6)} req/s  (${total} requests, concurrency ${concurrency}, ${failures} non-200)`,
  );
}

const sim = await startSimulatorProcess();
try {
  console.log(`simulator at ${sim.url}, latency 0`);
  await measure(
    'images 64x64 b64_json, distinct prompts',
    sim.url,
    sim.key,
    '/v1/images/generations',
    (i) => ({
      model: 'flux-schnell',
      prompt: `bench prompt ${i}`,
      size: '64x64',
      response_format: 'b64_json',
    }),
  );
  await measure(
    'images 64x64 url, distinct prompts',
    sim.url,
    sim.key,
    '/v1/images/generations',
    (i) => ({
      model: 'flux-schnell',
      prompt: `bench prompt ${i}`,
      size: '64x64',
    }),
  );
  await measure('chat completions', sim.url, sim.key, '/v1/chat/completions', (i) => ({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: `hello ${i}` }],
  }));
} finally {
  sim.stop();
  agent.destroy();
}
