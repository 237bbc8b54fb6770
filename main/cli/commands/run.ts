import { existsSync, statSync } from 'node:fs';
import { localClient } from '../../core/app/local-client.ts';
import { loadCatalogue } from '../../core/app/model-catalogue.ts';
import { DEFAULT_MAX_PROMPT_CHARS, type RowDefaults } from '../../core/import/import-batch.ts';
import { formatOf } from '../../core/import/prompt-file.ts';
import { DEFAULT_TEMPLATE } from '../../core/library/naming.ts';
import type { Batch } from '../../core/store/rows.ts';
import { describeHolder } from '../../core/store/runner-lease.ts';
import type { Store } from '../../core/store/store.ts';
import { defaultSize, SEED_MAX } from '../../../shared/gateway/params.ts';
import { printable } from '../../../shared/text/printable.ts';
import { ConfigError, intFlag, oneOf, parseFlags, UsageError, type Command } from '../command.ts';
import { dataFlagSuffix, requireUsableLibrary, resolveDataDir } from '../data-folder.ts';
import { applyFlags, withCliService } from '../run/cli-service.ts';
import { createConfirmed, spendFlags } from '../spend.ts';
import { withFlagAdvice } from '../prompt-file-advice.ts';
import { runEngineSession } from '../run/engine-session.ts';
import { limitFlags } from '../run/limit-flags.ts';
import { liveRunner } from '../run/live-runner.ts';
import {
  OUTPUT_FLAGS,
  OUTPUT_FLAGS_HELP,
  outputFlags,
  SESSION_FLAGS,
  SESSION_FLAGS_HELP,
  sessionSettingsFlags,
} from '../run/session-flags.ts';
import type { SettingsPlan } from '../run/settings.ts';

/** What --demo fills in when neither the file nor a flag says (a size for its own model). */
export const DEMO_DEFAULTS = {
  model: 'flux-schnell',
  size: '512x512',
  // The demo's gateway lives only as long as this process: images sent as data (not
  // temporary links) can still be written after a Ctrl+C and `atelier resume`.
  response_format: 'b64_json',
} as const;

export const runCommand: Command = {
  name: 'run',
  summary: 'import a prompt file as a batch and generate its images',
  help: `Usage: atelier run <prompts.txt|.csv|.jsonl> [--demo | --gateway URL] [options]

Imports the file as one batch (every row checked first: a bad row is reported with its line
number and nothing is imported), then runs the data folder's queue until it is done, showing
progress on stderr, and prints where the images are. Ctrl+C, SIGTERM or SIGHUP pauses
cleanly (requests in flight finish); a second one stops at once. Either way the summary is
printed and "atelier resume" carries on.

Files: .txt is one prompt a line (# starts a comment); .csv and .jsonl have the columns
prompt (required), model, size, n, seed, quality, output_format, negative_prompt, name, and
any other column is passed to the model as an extra field.

Values for the columns a row leaves out:
  --model M          the model (required unless the file has a model column; --demo: ${DEMO_DEFAULTS.model})
  --size WxH         e.g. 1024x1024 (--demo: ${DEMO_DEFAULTS.size})
  --n N              images per prompt, 1 to 10 (default 1)
  --seed S           0 to 4294967295
  --quality Q        e.g. low, medium, high (what the model accepts)
  --output-format F  png, jpeg or webp
  --response-format  url or b64_json (default: the gateway's own, usually url; --demo: b64_json)

Batch and library:
  --name NAME        the batch's name and folder (default: the file's name)
  --max-prompt-chars N
                     refuse a prompt longer than N characters (default ${DEFAULT_MAX_PROMPT_CHARS})
  --template T       file names in the library (default "${DEFAULT_TEMPLATE}")
${OUTPUT_FLAGS_HELP}

Where and how:
${SESSION_FLAGS_HELP}

Settings: the data folder's, shared with the app and "atelier ui" (DIR/settings.json): with
neither --demo nor --gateway, the gateway chosen there (the demo when none was). Flags given
are saved there for next time.

Key: ATELIER_API_KEY (required unless --demo; never printed or saved). Extra header values
come from --header or ATELIER_GATEWAY_HEADERS, and are never saved either.
Exit codes: 0 all succeeded and every image on disk; 1 some prompts or downloads failed, a
prompt returned fewer images than asked, or the queue paused on a problem (key, permission,
balance, disk); 2 usage or configuration error; 70 internal error (a bug: please report it);
130 stopped by Ctrl+C, 143 by SIGTERM, 129 by SIGHUP.

Examples:
  atelier run prompts.csv --demo
  ATELIER_API_KEY=sk-… atelier run prompts.txt --gateway https://gateway.example.com \\
      --model flux-schnell --size 1024x1024 --n 2 --concurrency 16`,

  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      ...SESSION_FLAGS,
      model: { type: 'string' },
      size: { type: 'string' },
      n: { type: 'string' },
      seed: { type: 'string' },
      quality: { type: 'string' },
      'output-format': { type: 'string' },
      'response-format': { type: 'string' },
      name: { type: 'string' },
      'max-prompt-chars': { type: 'string' },
      template: { type: 'string' },
      ...OUTPUT_FLAGS,
    });
    if (positionals.length !== 1) {
      throw new UsageError(
        positionals.length === 0
          ? 'give the prompt file to run, e.g. atelier run prompts.csv --demo'
          : `give one prompt file (got ${positionals.length}: ${positionals.join(', ')}).`,
      );
    }
    const file = positionals[0]!;
    const limits = limitFlags(values);
    const dataDir = resolveDataDir(values.data);
    const flags = {
      ...sessionSettingsFlags(values),
      ...(values.template !== undefined ? { template: values.template } : {}),
      ...outputFlags(values),
    };
    const maxPromptChars = intFlag(values['max-prompt-chars'], '--max-prompt-chars', 1, 10_000_000);
    const json = values.json ?? false;
    const spend = spendFlags(values);
    let defaults: RowDefaults = {};
    const checkFirst = (plan: SettingsPlan) => {
      const catalogue = loadCatalogue(dataDir);
      defaults = rowDefaults(values, plan.demo, (model) => defaultSize(catalogue.lookup(model)));
      checkPromptFile(file);
    };
    return withCliService(
      { dataDir, flags, limits, json, spend },
      async (service, plan) => {
        // (Engine.start checks it too; here nothing is imported that could not run)
        requireUsableLibrary(plan.library);
        // Before the import: it holds the write lock for its whole second pass, which would
        // starve a running engine's writes.
        const holder = liveRunner(service.store);
        if (holder) throw new ConfigError(describeHolder(holder, Date.now()));
        await applyFlags(service, plan);
        // Not paused: no other process runs the queue, and a run cut short before its engine
        // starts (Ctrl+C, a failed start) must leave the batch for "atelier resume".
        const created = await createConfirmed(spend, (confirmedSpend) =>
          localClient(service).batches.create({
            source: { kind: 'path', path: file },
            defaults,
            ...(values.name ? { name: values.name } : {}),
            ...(maxPromptChars !== undefined ? { maxPromptChars } : {}),
            ...(confirmedSpend ? { confirmedSpend } : {}),
          }),
        ).catch((error: unknown) => {
          throw withFlagAdvice(error);
        });
        const batch = service.store.batches.get(created.id)!;
        if (!json) {
          process.stderr.write(
            printable(
              `Imported ${batch.jobCount} prompt(s) from ${file} as batch "${batch.name}" (#${batch.id}).`,
            ) + '\n',
          );
        }
        return runEngineSession({
          service,
          json,
          notice: plan.notice,
          batch,
          commandSuffix: dataFlagSuffix(values.data),
          overBudget: spend.overBudget,
          onBusy: () => forgetUnstarted(service.store, batch),
        });
      },
      checkFirst,
    );
  },
};

/**
 * Another process took the queue between the check and the start: undo the import, unless
 * that process already began the batch (deleting it would pull jobs from under it).
 */
export function forgetUnstarted(store: Store, batch: Batch): void {
  if (store.batches.deleteUnstarted(batch.id)) return;
  process.stderr.write(
    `Batch "${batch.name}" (#${batch.id}) stays imported: the other Atelier has started it.\n`,
  );
}

function checkPromptFile(file: string): void {
  try {
    formatOf(file);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!existsSync(file)) {
    throw new ConfigError(`Cannot find the prompt file ${file}. Check the path and run again.`);
  }
  if (statSync(file).isDirectory()) {
    throw new ConfigError(`${file} is a folder, not a prompt file. Give the file inside it.`);
  }
}

export interface RowDefaultFlags {
  model?: string;
  size?: string;
  n?: string;
  seed?: string;
  quality?: string;
  'output-format'?: string;
  'response-format'?: string;
}

/**
 * The values rows leave out (edit takes the same flags). With --demo and no --size, the demo's
 * small size for its own model, else the model's own default size (a video model's first, say):
 * never a size the model does not make.
 */
export function rowDefaults(
  values: RowDefaultFlags,
  demo: boolean,
  sizeOf: (model: string) => string | null,
): RowDefaults {
  const defaults: RowDefaults = {};
  const model = values.model ?? (demo ? DEMO_DEFAULTS.model : undefined);
  if (model) defaults.model = model;
  const demoSize =
    model === DEMO_DEFAULTS.model ? DEMO_DEFAULTS.size : (sizeOf(model!) ?? undefined);
  const size = values.size ?? (demo ? demoSize : undefined);
  if (size !== undefined) {
    if (!/^\d+x\d+$/.test(size)) {
      throw new UsageError(
        `--size must be WxH with a lowercase x, e.g. 1024x1024 (got "${size}").`,
      );
    }
    defaults.size = size;
  }
  const n = intFlag(values.n, '--n', 1, 10);
  if (n !== undefined) defaults.n = n;
  const seed = intFlag(values.seed, '--seed', 0, SEED_MAX);
  if (seed !== undefined) defaults.seed = seed;
  if (values.quality) defaults.quality = values.quality;
  const format = oneOf(values['output-format'], '--output-format', [
    'png',
    'jpeg',
    'webp',
  ] as const);
  if (format) defaults.output_format = format;
  const responseFormat =
    oneOf(values['response-format'], '--response-format', ['url', 'b64_json'] as const) ??
    (demo ? DEMO_DEFAULTS.response_format : undefined);
  if (responseFormat) defaults.response_format = responseFormat;
  return defaults;
}
