import { readFile } from 'node:fs/promises';
import { localClient } from '../../core/app/local-client.ts';
import { loadCatalogue } from '../../core/app/model-catalogue.ts';
import { spendCheck } from '../../core/app/spend.ts';
import { createEdits, describeIssues, EditCheckError } from '../../core/edits/create-edits.ts';
import type { EditSpec } from '../../core/edits/edit-plan.ts';
import { PictureProblem } from '../../core/edits/pictures.ts';
import { filePicture } from '../../core/edits/sources.ts';
import { DEFAULT_MAX_PROMPT_CHARS, type RowDefaults } from '../../core/import/import-batch.ts';
import { DEFAULT_TEMPLATE } from '../../core/library/naming.ts';
import type { Batch } from '../../core/store/rows.ts';
import { describeHolder } from '../../core/store/runner-lease.ts';
import { printable } from '../../../shared/text/printable.ts';
import { ConfigError, intFlag, parseFlags, UsageError, type Command } from '../command.ts';
import { dataFlagSuffix, requireUsableLibrary, resolveDataDir } from '../data-folder.ts';
import { applyFlags, withCliService } from '../run/cli-service.ts';
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
import { confirmationRefusal, consentsTo, spendFlags } from '../spend.ts';
import { DEMO_DEFAULTS, forgetUnstarted, rowDefaults } from './run.ts';

export const editCommand: Command = {
  name: 'edit',
  summary: 'edit pictures with a prompt (and a mask) and save the results',
  help: `Usage: atelier edit IMAGE... --prompt TEXT | --prompts FILE [--mask MASK.png]
                    [--model M] [--n N] [--demo | --gateway URL] [options]

Edits pictures through the gateway's edit endpoint, as one batch in the data folder's queue:
one picture with one prompt or several (one job each), or several pictures with one prompt
(one job each). Every picture, the mask and every prompt is checked first (formats, the
model's file and size limits, the mask's transparency and size, prompt length): a problem is
reported with the picture or line it is about and nothing is queued. Then the queue runs as
with "atelier run": progress on stderr, Ctrl+C pauses cleanly, the same summary and exit codes.

Each picture is sent as a PNG of its pixels with the EXIF orientation applied; the mask (a
picture with transparency: transparent where the picture may change) is scaled to each
picture of the same shape, stretched with a warning to one of another shape, cut hard and sent
as a PNG of the picture's size. Both are kept in the data folder, so a retry or a resume sends
the same bytes. The results land in the library, each file's metadata saying what it was
edited from.

What to edit:
  IMAGE...           the pictures (PNG, JPEG, WebP…)
  --prompt TEXT      one prompt: what should change
  --prompts FILE     several prompts, one a line (blank lines skipped), for one picture
  --mask MASK.png    transparent where the pictures may change (default: all of them)
  --keep-outside-mask
                     paste each result back over its picture outside the mask (locally, with
                     a slightly feathered edge): models change the rest a little too

How:
  --model M          a model that edits (--demo: ${DEMO_DEFAULTS.model}); see the catalogue's "edit"
  --n N              images per job, 1 to 10 (default 1)
  --size WxH         the results' size, where the model takes one (default: the model's own)
  --quality Q        e.g. low, medium, high (what the model accepts)
  --output-format F  png, jpeg or webp
  --response-format  url or b64_json (default: the gateway's own; --demo: b64_json)
  --seed S           0 to 4294967295, for a model whose edit takes one

Batch and library:
  --name NAME        the batch's name and folder (default: the prompt, or "Edits of IMAGE")
  --max-prompt-chars N
                     refuse a prompt longer than N characters (default ${DEFAULT_MAX_PROMPT_CHARS})
  --template T       file names in the library (default "${DEFAULT_TEMPLATE}")
${OUTPUT_FLAGS_HELP}

Where and how:
${SESSION_FLAGS_HELP}

Settings: the data folder's, shared with the app and "atelier ui", as with "atelier run".

Key: ATELIER_API_KEY (required unless --demo; never printed or saved).
Exit codes: as "atelier run": 0 all succeeded and every image on disk; 1 some edits or downloads
failed, came back short, or the queue paused on a problem; 2 usage or configuration error (a
picture, the mask or a prompt that cannot be sent included); 70 internal error; 130 stopped by
Ctrl+C, 143 by SIGTERM, 129 by SIGHUP.

Examples:
  atelier edit photo.jpg --prompt "make the sky stormy" --mask sky.png --demo
  atelier edit a.png b.png c.png --prompt "in watercolour" --model gpt-image-1 --json
  atelier edit room.png --prompts ideas.txt --mask wall.png --keep-outside-mask --n 2`,

  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      ...SESSION_FLAGS,
      prompt: { type: 'string' },
      prompts: { type: 'string' },
      mask: { type: 'string' },
      'keep-outside-mask': { type: 'boolean' },
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
    if (positionals.length === 0) {
      throw new UsageError(
        'give the pictures to edit, e.g. atelier edit photo.jpg --prompt "…" --demo',
      );
    }
    if ((values.prompt === undefined) === (values.prompts === undefined)) {
      throw new UsageError(
        'give one prompt with --prompt TEXT, or several in a file with --prompts FILE (not both).',
      );
    }
    if (values.prompt !== undefined && /[\r\n]/.test(values.prompt)) {
      throw new UsageError(
        '--prompt is one prompt on one line; put several in a file, one a line, and give --prompts FILE.',
      );
    }
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
      defaults = rowDefaults(values, plan.demo, () => null);
      if (!defaults.model) {
        throw new UsageError('choose a model that edits with --model M (or try it with --demo).');
      }
    };
    const prompts = values.prompt ?? (await readPrompts(values.prompts!));
    return withCliService(
      { dataDir, flags, limits, json, spend },
      async (service, plan) => {
        requireUsableLibrary(plan.library);
        // before the batch is made: another process running the queue would take it
        const holder = liveRunner(service.store);
        if (holder) throw new ConfigError(describeHolder(holder, Date.now()));
        await applyFlags(service, plan);
        const spec: EditSpec = {
          pictures: positionals.map(filePicture),
          prompts,
          mask: values.mask ? maskFile(values.mask) : null,
          model: defaults.model!,
          n: defaults.n,
          size: defaults.size,
          seed: defaults.seed,
          quality: defaults.quality,
          output_format: defaults.output_format,
          response_format: defaults.response_format,
          keepOutsideMask: values['keep-outside-mask'] ?? false,
          maxPromptChars,
        };
        const settings = await localClient(service).settings.get({});
        const catalogue = loadCatalogue(dataDir);
        let batch: Batch;
        try {
          const created = await createEdits(service.store, spec, {
            catalogue,
            name: values.name,
            // past the threshold, the person's flags are the confirmation (see run)
            beforeCreate: (check) => {
              const estimate = spendCheck(check.models, settings, catalogue);
              if (estimate.confirm.needed && !consentsTo(spend)) {
                throw confirmationRefusal(estimate);
              }
            },
          });
          batch = created.batch;
          if (created.check.warnings.length > 0) {
            process.stderr.write(
              printable(`Warning:\n${describeIssues(created.check.warnings)}`, {
                multiline: true,
              }) + '\n',
            );
          }
        } catch (error) {
          if (error instanceof EditCheckError) throw new ConfigError(error.message);
          throw error;
        }
        if (!json) {
          process.stderr.write(
            printable(`Queued ${batch.jobCount} edit(s) as batch "${batch.name}" (#${batch.id}).`) +
              '\n',
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

async function readPrompts(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Cannot read the prompts file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Check the path and run again.`,
    );
  }
}

function maskFile(path: string): NonNullable<EditSpec['mask']> {
  return {
    label: `the mask ${path}`,
    read: async () => {
      try {
        return await readFile(path);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new PictureProblem(
          `The mask cannot be read (${code === 'ENOENT' ? 'it does not exist' : (code ?? (error as Error).message)}).`,
        );
      }
    },
  };
}
