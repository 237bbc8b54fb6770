import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import type { InputOf, OutputOf } from '../../../../shared/api/types.ts';
import type { ImageModelEntry } from '../../../../shared/gateway/catalogue.ts';
import { useAction } from '../../data/action.ts';
import { useCatalogue, useSettings } from '../../data/app-queries.ts';
import { useApi } from '../../data/data-context.ts';
import { plural } from '../../format.ts';
import { navigate } from '../../frame/navigation.ts';
import { withConfirmedSpend, type SpendCheck } from '../../views/SpendConfirm.tsx';
import { composeUi } from './compose-state.ts';

type CreateInput = InputOf<'batches', 'create'>;

/**
 * Queues the composed batch; the toast offers the queue. Over the confirmation threshold the
 * person is asked first (`spend`, the check's estimate) and again if the service still refuses.
 */
export function useRunBatch(ask: (spend: SpendCheck) => Promise<boolean>) {
  const api = useApi();
  return useAction<
    { input: CreateInput; spend: SpendCheck | null },
    OutputOf<'batches', 'create'> | null
  >({
    run: ({ input, spend }) =>
      withConfirmedSpend(input, (sent) => api.batches.create(sent), ask, spend),
    done: (batch, { input }) => {
      if (!batch) return null; // the person chose not to spend it
      toast.success(`Batch “${batch.name}” queued: ${plural(batch.jobCount, 'job')}`, {
        description: input.position === 'front' ? 'At the front of the queue.' : undefined,
        action: { label: 'Open queue', onClick: () => navigate('queue') },
      });
      return null;
    },
    what: 'queue the batch',
  });
}

/**
 * The model a fresh Compose starts with, so that typing prompts and pressing Run works at once:
 * the one last used (the draft keeps it), else the default in Settings, else the first image
 * model of the catalogue.
 */
export function useStartingModel(): void {
  const ready = composeUi.useSelect((s) => s.ready);
  const models = composeUi.useSelect((s) => s.draft.models);
  const edit = composeUi.useSelect((s) => s.edit);
  const catalogue = useCatalogue().data;
  const settings = useSettings().data;
  const choice = startingModel(
    catalogue?.flatMap(({ entry }) => (entry.kind === 'image' ? [entry] : [])) ?? null,
    settings ? (settings.defaultModel ?? null) : undefined,
  );
  // once a window: a draft with no model gets one, and a choice the person makes later is theirs
  const applied = useRef(false);
  useEffect(() => {
    if (applied.current || !ready || !choice) return;
    applied.current = true;
    if (models.length === 0) edit({ models: [choice] });
  }, [ready, choice, models.length, edit]);
}

/** The default in Settings when it is an image model here, else the first image model. */
export function startingModel(
  images: readonly ImageModelEntry[] | null,
  fromSettings: string | null | undefined,
): string | null {
  // both answers are needed before choosing: the settings' choice wins over the first
  if (images === null || fromSettings === undefined) return null;
  if (fromSettings && images.some((e) => e.id === fromSettings)) return fromSettings;
  return images[0]?.id ?? null;
}
