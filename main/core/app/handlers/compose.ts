import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ComposeDraftRecord, MAX_DRAFT_CHARS } from '../../../../shared/api/schemas/compose.ts';
import type { Handlers } from '../../../../shared/api/types.ts';
import { AppError } from '../app-error.ts';
import type { AppContext } from '../app-context.ts';
import { writeFileAtomic } from '../atomic-file.ts';

/** The Compose draft, in `<data>/compose-draft.json`: one per data folder, for every window. */
export function composeHandlers(ctx: AppContext): Handlers['compose'] {
  const file = join(ctx.dataDir, 'compose-draft.json');
  return {
    async draft() {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return null; // none yet
      }
      try {
        const parsed = ComposeDraftRecord.safeParse(JSON.parse(text));
        // a draft that cannot be read is not worth an error: Compose starts afresh
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    async saveDraft(record) {
      const text = JSON.stringify(record);
      if (text.length > MAX_DRAFT_CHARS) {
        throw new AppError(
          'invalid-argument',
          `The draft is too large to keep (${Math.round(text.length / 1024)} KB; at most ${MAX_DRAFT_CHARS / 1024} KB): remove the dropped file or shorten the prompts.`,
        );
      }
      writeFileAtomic(file, text);
      return null;
    },
  };
}
