import type { z } from 'zod';
import type { ModelForm } from '../../../shared/api/schemas/app.ts';
import type { ModelEntryInput } from '../../../shared/gateway/catalogue.ts';

/** A model as a form says it, as the catalogue entry it stands for (the rest: defaults). */
export function entryOfForm(form: z.infer<typeof ModelForm>): ModelEntryInput {
  switch (form.kind) {
    case 'image':
      return {
        kind: 'image',
        id: form.id,
        protocol: form.protocol,
        sizes: form.sizes ?? 'any',
        ...(form.nMax !== undefined ? { nMax: form.nMax } : {}),
        ...(form.quality ? { quality: form.quality } : {}),
        ...(form.outputFormats ? { outputFormats: form.outputFormats } : {}),
        ...(form.seed !== undefined ? { seed: form.seed } : {}),
        ...(form.negativePrompt !== undefined ? { negativePrompt: form.negativePrompt } : {}),
        ...(form.edits ? { edit: 'multipart' as const } : {}),
        ...(form.pricePerImage !== undefined ? { pricePerImage: form.pricePerImage } : {}),
      };
    case 'video':
      return {
        kind: 'video',
        id: form.id,
        submitPath: form.submitPath,
        ...(form.seconds ? { seconds: form.seconds } : {}),
        ...(form.sizes ? { sizes: form.sizes } : {}),
        ...(form.usualSeconds !== undefined ? { usualSeconds: form.usualSeconds } : {}),
      };
    case 'text':
      return { kind: 'text', id: form.id, api: form.api };
  }
}
