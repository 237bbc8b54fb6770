import { withoutCredentials } from '../../../shared/gateway/sealed-url.ts';
import { intFlag, UsageError } from '../command.ts';
import { parseHeaderFlags } from './headers.ts';
import { LIMIT_FLAGS, LIMIT_FLAGS_HELP } from './limit-flags.ts';
import { SPEND_FLAGS, SPEND_FLAGS_HELP } from '../spend.ts';
import type { SettingsFlags } from './settings.ts';

/** Flags shared by run, resume and retry: where the queue lives and how to reach the gateway. */
export const SESSION_FLAGS = {
  data: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  demo: { type: 'boolean' },
  gateway: { type: 'string' },
  header: { type: 'string', multiple: true },
  concurrency: { type: 'string' },
  rpm: { type: 'string' },
  ...LIMIT_FLAGS,
  ...SPEND_FLAGS,
} as const;

export const SESSION_FLAGS_HELP = `  --data DIR         the data folder: queue database and saved settings (default ./.atelier-data)
  --out DIR          the library the images go to (default: the data folder's, else ./atelier-library)
  --demo             use the embedded simulator in this process (no key needed)
  --gateway URL      the gateway's base address (its OpenAI root is URL/v1); the key comes from
                     ATELIER_API_KEY. Default: the data folder's gateway, else the demo
  --header 'N: v'    an extra header some gateways need (repeatable; never Authorization); its
                     value is a credential, kept in memory only: give it again next time, or
                     set ATELIER_GATEWAY_HEADERS='{"N":"v"}'
  --concurrency C    most requests in flight (default 8; lowered for a while after a 429)
  --rpm N            at most N requests started per minute
  --json             print one JSON summary on stdout at the end, and no progress
${LIMIT_FLAGS_HELP}
${SPEND_FLAGS_HELP}`;

interface SessionFlagValues {
  json?: boolean;
  out?: string;
  demo?: boolean;
  gateway?: string;
  header?: string[];
  concurrency?: string;
  rpm?: string;
}

export function sessionSettingsFlags(values: SessionFlagValues): SettingsFlags {
  const flags: SettingsFlags = {};
  if (values.demo) flags.demo = true;
  if (values.gateway !== undefined) {
    flags.gateway = values.gateway;
    if (withoutCredentials(values.gateway) !== values.gateway && !values.json) {
      process.stderr.write(
        'Removed user:password@ from the --gateway address: credentials there are never sent, ' +
          'saved or printed. The key comes from ATELIER_API_KEY.\n',
      );
    }
  }
  if (values.header) flags.headers = parseHeaderFlags(values.header);
  if (values.out !== undefined) flags.out = values.out;
  const concurrency = intFlag(values.concurrency, '--concurrency', 1, 1024);
  if (concurrency !== undefined) flags.concurrency = concurrency;
  const rpm = intFlag(values.rpm, '--rpm', 1, 1_000_000);
  if (rpm !== undefined) flags.requestsPerMinute = rpm;
  return flags;
}

/** Output files: settings of the data folder, saved when given (`--no-…` turns one off). */
export const OUTPUT_FLAGS = {
  sidecar: { type: 'boolean' },
  manifest: { type: 'boolean' },
  thumbnails: { type: 'boolean' },
  'no-sidecar': { type: 'boolean' },
  'no-manifest': { type: 'boolean' },
  'no-thumbnails': { type: 'boolean' },
} as const;

export const OUTPUT_FLAGS_HELP = `  --sidecar          write a .json beside each image
  --manifest         write a manifest.csv per batch
  --thumbnails       write small WebP thumbnails (for the gallery)
  --no-sidecar, --no-manifest, --no-thumbnails
                     stop writing them
  These are the data folder's settings, as in the app: given, they are saved. A data folder
  the CLI starts writes none of them until asked.`;

type OutputFlagValues = { [K in keyof typeof OUTPUT_FLAGS]?: boolean };

export function outputFlags(
  values: OutputFlagValues,
): Pick<SettingsFlags, 'sidecar' | 'manifest' | 'thumbnails'> {
  const flags: Pick<SettingsFlags, 'sidecar' | 'manifest' | 'thumbnails'> = {};
  for (const name of ['sidecar', 'manifest', 'thumbnails'] as const) {
    const on = values[name];
    const off = values[`no-${name}`];
    if (on && off) throw new UsageError(`give either --${name} or --no-${name}, not both.`);
    if (on) flags[name] = true;
    if (off) flags[name] = false;
  }
  return flags;
}
