import * as Dialog from '@radix-ui/react-dialog';
import { SHORTCUTS } from './shortcuts.ts';

/** The cheat sheet, drawn from the one shortcut table. */
export function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>Keyboard shortcuts</Dialog.Title>
          <Dialog.Description className="muted">
            Ctrl on Windows and Linux, ⌘ on a Mac.
          </Dialog.Description>
          <table className="shortcuts">
            <tbody>
              {SHORTCUTS.map((shortcut) => (
                <tr key={shortcut.keys}>
                  <th scope="row">
                    <kbd>{shortcut.label}</kbd>
                  </th>
                  <td>{shortcut.what}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Dialog.Close asChild>
            <button type="button">Close</button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
