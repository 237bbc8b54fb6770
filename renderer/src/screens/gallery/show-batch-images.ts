import { navigate } from '../../frame/navigation.ts';
import { galleryUi } from './gallery-state.ts';
import { DEFAULT_VIEW } from './gallery-view.ts';

/**
 * "Show this batch's images" (from the queue): the gallery on that batch alone, every other
 * filter and the search cleared so none hides part of it; the order and grouping kept.
 */
export function useShowBatchImages() {
  const store = galleryUi.useStoreApi();
  return (batchId: number) => {
    const { view, setView } = store.getState();
    setView({ ...DEFAULT_VIEW, batchId, order: view.order, group: view.group });
    navigate('gallery');
  };
}
