import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { keepOpenForToasts } from './outside.ts';

/**
 * The full-window dialog the lightbox and compare share: closing asks `onClose`, toasts do
 * not close it, and the content takes the focus on opening so its keys work at once.
 */
export function LightboxFrame({
  className,
  onClose,
  onKeyDown,
  children,
}: {
  className: string;
  onClose: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
  children: ReactNode;
}) {
  const contentRef = useRef<HTMLDivElement>(null);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="lb-overlay" />
        <Dialog.Content
          ref={contentRef}
          className={className}
          onInteractOutside={keepOpenForToasts}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            contentRef.current?.focus();
          }}
          onKeyDown={onKeyDown}
        >
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The frame's top bar: its title, what its keys do (for screen readers), tools, Close. */
export function LightboxToolbar({
  title,
  description,
  label,
  children,
}: {
  title: ReactNode;
  description: string;
  /** The accessible name of the tools. */
  label: string;
  children: ReactNode;
}) {
  return (
    <header className="lb-toolbar">
      <Dialog.Title className="lb-title">{title}</Dialog.Title>
      <Dialog.Description className="visually-hidden">{description}</Dialog.Description>
      <div className="lb-tools" role="toolbar" aria-label={label}>
        {children}
        <Dialog.Close asChild>
          <button type="button" className="ghost lb-icon" aria-label="Close" title="Close (Esc)">
            ✕
          </button>
        </Dialog.Close>
      </div>
    </header>
  );
}
