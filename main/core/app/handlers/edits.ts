import type { z } from 'zod';
import type { EditedFrom, EditInput } from '../../../../shared/api/schemas/edits.ts';
import type { Handlers } from '../../../../shared/api/types.ts';
import { createEdits, EditCheckError } from '../../edits/create-edits.ts';
import { planEdits, type EditSpec } from '../../edits/edit-plan.ts';
import { galleryPictures } from '../../edits/sources.ts';
import type { Store } from '../../store/store.ts';
import type { AppContext } from '../app-context.ts';
import { AppError } from '../app-error.ts';
import { requireConfirmation, spendCheck } from '../spend.ts';
import { summaryOf } from './batches.ts';

/**
 * Edits of gallery images: checked row by row, then queued as one batch of edit jobs. A
 * window names pictures only by image id (read from the library by the one containment
 * rule) and sends the mask it painted as PNG bytes: never a path.
 */
export function editHandlers(ctx: AppContext): Handlers['edits'] {
  const { store } = ctx;
  const specOf = (input: z.output<typeof EditInput>): EditSpec => {
    const { images, mask, ...fields } = input;
    return {
      ...fields,
      pictures: galleryPictures(store, ctx.libraryDir(), images),
      mask: mask ? { label: 'the mask', read: async () => Buffer.from(mask.png, 'base64') } : null,
    };
  };

  return {
    async check(input) {
      const catalogue = ctx.catalogue();
      const { check } = await planEdits(specOf(input), { catalogue });
      return { ...check, spend: spendCheck(check.models, ctx.settings.read(), catalogue) };
    },
    async create({ name, paused, position, confirmedSpend, ...input }) {
      const catalogue = ctx.catalogue();
      let created;
      try {
        created = await createEdits(store, specOf(input), {
          catalogue,
          name,
          paused,
          now: ctx.now(),
          beforeCreate: (check) => {
            if (paused) return;
            requireConfirmation(check.models, ctx.settings.read(), catalogue, confirmedSpend);
          },
        });
      } catch (error) {
        if (!(error instanceof EditCheckError)) throw error;
        const { errors, bad, warnings } = error.check;
        throw new AppError('invalid-argument', error.message, { errors, bad, warnings });
      }
      const { batch } = created;
      if (position === 'front') {
        store.batches.setPriority(batch.id, store.pages.batchPriorities().high + 1);
      }
      ctx.hub.reopen([batch.id]);
      ctx.wake();
      return summaryOf(ctx, store.batches.get(batch.id)!);
    },
  };
}

/** What an image was edited from, for its details; null when it was generated. */
export function editedFrom(store: Store, imageId: number): z.output<typeof EditedFrom> | null {
  const edit = store.edits.ofImage(imageId);
  if (!edit) return null;
  return {
    imageId: edit.sourceImageId,
    label: edit.sourceLabel,
    mask: edit.maskSha256 !== null,
    keepOutsideMask: edit.keepOutsideMask,
  };
}
