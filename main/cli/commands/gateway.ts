import { startGateway } from '../../core/simulator/index.ts';
import { DOWNLOAD_FAULTS, parseFaultSpec, WORK_FAULTS } from '../../core/simulator/faults.ts';
import { intFlag, parseFlags, UsageError, type Command } from '../command.ts';

const faultList = Object.entries({ ...WORK_FAULTS, ...DOWNLOAD_FAULTS })
  .map(([name, what]) => `    ${name.padEnd(13)} ${what}`)
  .join('\n');

export const gatewayCommand: Command = {
  name: 'gateway',
  summary: 'run the embedded gateway (simulator) on this machine',
  help: `Usage: atelier gateway [--port 8700] [--latency-ms 300] [--per-image-ms 0] [--jitter-ms 0]
                       [--faults SPEC] [--seed 1] [--url-ttl-s 600] [--host 127.0.0.1]

Runs a faithful implementation of the gateway interface for demos, tests and benchmarks.
It prints its base URL and a demo key; point Atelier (or any OpenAI client) at <url>/v1.

--faults SPEC   comma-separated "name:probability" or "name@n+n" (the n-th requests), e.g.
                "429:0.1,504@3,url-404:0.05". Reproducible with --seed. Faults:
${faultList}`,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      port: { type: 'string' },
      host: { type: 'string' },
      'latency-ms': { type: 'string' },
      'per-image-ms': { type: 'string' },
      'jitter-ms': { type: 'string' },
      faults: { type: 'string' },
      seed: { type: 'string' },
      'url-ttl-s': { type: 'string' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}".`);
    let faults;
    try {
      faults = parseFaultSpec(values.faults);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const ttl = intFlag(values['url-ttl-s'], '--url-ttl-s', 1, 86_400);
    const gateway = await startGateway({
      port: intFlag(values.port, '--port', 0, 65_535) ?? 8700,
      host: values.host ?? '127.0.0.1',
      latency: {
        fixedMs: intFlag(values['latency-ms'], '--latency-ms', 0, 600_000) ?? 0,
        perImageMs: intFlag(values['per-image-ms'], '--per-image-ms', 0, 600_000) ?? 0,
        jitterMs: intFlag(values['jitter-ms'], '--jitter-ms', 0, 600_000) ?? 0,
      },
      faults,
      seed: intFlag(values.seed, '--seed', 0, 4_294_967_295) ?? 1,
      ...(ttl ? { urlTtlMs: ttl * 1000 } : {}),
    });
    console.log(`Atelier gateway simulator listening on ${gateway.url}`);
    console.log(`  OpenAI base URL: ${gateway.url}/v1`);
    console.log(`  Demo key:        ${gateway.key}`);
    console.log('Press Ctrl+C to stop.');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await gateway.close();
    return 0;
  },
};
