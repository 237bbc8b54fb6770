import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { Api } from '../../shared/api/types.ts';
import { useData } from './data/data-context.ts';
import { keys } from './data/keys.ts';
import { useOpened } from './data/opening.ts';
import { composeUi, createComposeUi } from './screens/compose/compose-state.ts';
import {
  createPromptHelpUi,
  promptHelpUi,
} from './screens/compose/prompt-help/prompt-help-state.ts';
import { createEditUi, editUi } from './screens/edit/edit-state.ts';
import { createGalleryUi, galleryUi } from './screens/gallery/gallery-state.ts';
import { createQueueUi, queueUi } from './screens/queue/queue-state.ts';

export type UiStores = ReturnType<typeof createUiStores>;

export function createUiStores(api: Api) {
  return {
    queue: createQueueUi(),
    gallery: createGalleryUi(),
    compose: createComposeUi((saved) => api.compose.saveDraft(saved)),
    promptHelp: createPromptHelpUi(),
    edit: createEditUi(),
  };
}

/**
 * The screens' UI state (zustand: what is viewed and selected, the Compose draft), made once
 * per window and kept while the person moves between screens. Server data is not here: it is
 * in the query cache (data/).
 */
export function UiStateProvider({ children, given }: { children: ReactNode; given?: UiStores }) {
  const data = useData();
  const [stores] = useState(() => given ?? createUiStores(data.api));
  // images deleted here or elsewhere leave the gallery's selection
  useEffect(
    () => data.bus.on('images.deleted', (e) => stores.gallery.getState().forget(e.payload.ids)),
    [data.bus, stores.gallery],
  );
  // the draft saved last time, read once
  const saved = useQuery({
    queryKey: keys.composeDraft(),
    queryFn: () => data.api.compose.draft(),
    enabled: useOpened(),
  });
  useEffect(() => {
    if (saved.isSuccess) stores.compose.getState().load(saved.data);
    // a draft that cannot be read: Compose starts afresh rather than not at all
    else if (saved.isError) stores.compose.getState().load(null);
  }, [saved.isSuccess, saved.isError, saved.data, stores.compose]);
  return (
    <queueUi.Context value={stores.queue}>
      <galleryUi.Context value={stores.gallery}>
        <composeUi.Context value={stores.compose}>
          <promptHelpUi.Context value={stores.promptHelp}>
            <editUi.Context value={stores.edit}>{children}</editUi.Context>
          </promptHelpUi.Context>
        </composeUi.Context>
      </galleryUi.Context>
    </queueUi.Context>
  );
}
