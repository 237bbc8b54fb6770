import { toast } from 'sonner';
import { navigate } from '../../frame/navigation.ts';
import type { ConfirmRequest } from '../../views/ConfirmDialog.tsx';
import { composeUi } from './compose-state.ts';
import { isBlank, type ComposeDraft } from './draft.ts';

/**
 * Puts a draft in Compose (Re-run, "Generate again") and goes there. A draft the person typed
 * is never lost to it: they are asked first, and the toast offers Undo.
 */
export function useOpenInCompose(confirm: (request: ConfirmRequest) => void) {
  const store = composeUi.useStoreApi();
  /** `leaving`: done as Compose takes the draft (the lightbox closes then, not before asking). */
  return (draft: ComposeDraft, what: string, leaving?: () => void) => {
    const go = () => {
      leaving?.();
      store.getState().replace(draft);
      toast.success(`Compose holds ${what}`, {
        action: {
          label: 'Undo',
          onClick: () => {
            store.getState().undo();
            toast.success('Your draft is back in Compose');
          },
        },
      });
      navigate('compose');
    };
    const current = store.getState().draft;
    if (isBlank(current)) return go();
    confirm({
      title: 'Replace your draft in Compose?',
      body: (
        <p>
          Compose holds prompts you typed. They are replaced by {what}; the toast that follows
          offers Undo.
        </p>
      ),
      confirmLabel: 'Replace draft',
      onConfirm: go,
    });
  };
}
