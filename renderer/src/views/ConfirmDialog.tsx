import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

export interface ConfirmRequest {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  /** Irreversible or possibly charged: the confirm button says so by its colour. */
  danger?: boolean;
  onConfirm: () => void;
}

/** Asks before doing what cannot be undone; closed when `request` is null. */
export function ConfirmDialog({
  request,
  onClose,
}: {
  request: ConfirmRequest | null;
  onClose: () => void;
}) {
  return (
    <Dialog.Root open={request !== null} onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{request?.title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="confirm-body">{request?.body}</div>
          </Dialog.Description>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button" className="ghost">
                Keep
              </button>
            </Dialog.Close>
            <button
              type="button"
              className={request?.danger ? 'danger' : undefined}
              onClick={() => {
                request?.onConfirm();
                onClose();
              }}
            >
              {request?.confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
