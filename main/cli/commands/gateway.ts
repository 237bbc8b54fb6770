import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { KeyConfig } from '../../simulator/keys.ts';
import { startGateway } from '../../simulator/index.ts';
import { DEFAULT_MODELS, type ModelSpec } from '../../simulator/models.ts';
import { DOWNLOAD_FAULTS, parseFaultSpec, WORK_FAULTS } from '../../simulator/faults.ts';
import { intFlag, oneOf, parseFlags, UsageError, type Command } from '../command.ts';

const faultList = Object.entries({ ...WORK_FAULTS, ...DOWNLOAD_FAULTS })
  .map(([name, what]) => `    ${name.padEnd(13)} ${what}`)
  .join('\n');

export const gatewayCommand: Command = {
  name: 'gateway',
  summary: 'run the embedded gateway (simulator) on this machine',
  help: `Usage: atelier gateway [--port 8700] [--latency-ms 300] [--per-image-ms 0] [--jitter-ms 0]
                       [--faults SPEC] [--seed 1] [--url-ttl-s 600] [--host 127.0.0.1]
                       [--video-duration-ms 3000] [--token-ms 0] [--image-response as-asked|both]
                       [--partial-placement metadata|top-level|nested]
                       [--edit-image-field any|image|image[]] [--text-models ID,ID]
                       [--keys keys.json] [--balance QUOTA]

Runs a faithful implementation of the gateway interface for demos, tests and benchmarks.
It prints its base URL and a demo key; point Atelier (or any OpenAI client) at <url>/v1.

--keys FILE     a JSON array of keys: [{"key": "sk-…", "quotaCap": 100000, "expiresAt": "2027-01-01",
                "models": ["flux-schnell"]}]; the first is printed as the demo key.
--balance N     the account's quota; calls beyond it fail with insufficient_user_quota.
--token-ms N    the pause between a text stream's frames, as a model writes (the demo: 12).
--edit-image-field NAME
                the only name a multipart edit's picture may have, as a strict gateway reads
                one: image or image[] (default: any of the two; both at once are refused).
--text-models IDS
                more text models to list and serve, comma-separated: a gateway with models
                Atelier's catalogue has no entry for (its connection test names them).
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
      'video-duration-ms': { type: 'string' },
      'token-ms': { type: 'string' },
      'image-response': { type: 'string' },
      'partial-placement': { type: 'string' },
      'edit-image-field': { type: 'string' },
      'text-models': { type: 'string' },
      keys: { type: 'string' },
      balance: { type: 'string' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}".`);
    let faults;
    try {
      faults = parseFaultSpec(values.faults);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const ttl = intFlag(values['url-ttl-s'], '--url-ttl-s', 1, 86_400);
    const videoDurationMs = intFlag(
      values['video-duration-ms'],
      '--video-duration-ms',
      0,
      3_600_000,
    );
    const tokenMs = intFlag(values['token-ms'], '--token-ms', 0, 60_000);
    const imageResponse = oneOf(values['image-response'], '--image-response', [
      'as-asked',
      'both',
    ] as const);
    const partialPlacement = oneOf(values['partial-placement'], '--partial-placement', [
      'metadata',
      'top-level',
      'nested',
    ] as const);
    const editImageField = oneOf(values['edit-image-field'], '--edit-image-field', [
      'any',
      'image',
      'image[]',
    ] as const);
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
      ...(videoDurationMs !== undefined ? { videoDurationMs } : {}),
      ...(tokenMs !== undefined ? { tokenMs } : {}),
      ...(imageResponse ? { imageResponse } : {}),
      ...(partialPlacement ? { partialPlacement } : {}),
      ...(editImageField ? { editImageField } : {}),
      ...(values['text-models'] ? { models: withTextModels(values['text-models']) } : {}),
      ...(values.keys ? { keys: readKeys(values.keys) } : {}),
      ...(values.balance
        ? { balance: intFlag(values.balance, '--balance', 0, Number.MAX_SAFE_INTEGER) }
        : {}),
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

const keysFileSchema = z
  .array(
    z.object({
      key: z.string().startsWith('sk-', { error: 'keys begin with "sk-"' }),
      name: z.string().optional(),
      quotaCap: z.number().int().nonnegative().nullable().optional(),
      expiresAt: z.union([z.number(), z.iso.date(), z.iso.datetime()]).nullable().optional(),
      models: z.array(z.string()).nullable().optional(),
    }),
  )
  .min(1, { error: 'list at least one key' });

function readKeys(path: string): KeyConfig[] {
  let parsed;
  try {
    parsed = keysFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    throw new UsageError(`--keys ${path}: ${(error as Error).message}`);
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--keys ${path}: ${issue?.path.join('.') || 'file'}: ${issue?.message}`);
  }
  return parsed.data.map((k) => ({
    ...k,
    expiresAt: typeof k.expiresAt === 'string' ? Date.parse(k.expiresAt) : (k.expiresAt ?? null),
  }));
}

/** The simulator's models and the text models named (`a,b`), each priced a unit a token. */
function withTextModels(list: string): ModelSpec[] {
  const ids = list
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const known = new Set(DEFAULT_MODELS.map((model) => model.id));
  for (const id of ids) {
    if (!/^[\w.:/-]+$/.test(id)) throw new UsageError(`--text-models: "${id}" is not a model id.`);
    if (known.has(id)) throw new UsageError(`--text-models: the simulator serves ${id} already.`);
  }
  return [...DEFAULT_MODELS, ...ids.map((id) => ({ kind: 'text' as const, id, pricePerToken: 1 }))];
}
