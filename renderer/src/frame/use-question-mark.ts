import { useEffect } from 'react';

/** Where a typed `?` is text, not a shortcut. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement &&
      !['checkbox', 'radio', 'button', 'range', 'submit', 'reset'].includes(target.type))
  );
}

/**
 * The `?` key, read by the character it makes: Chromium sends it with Shift (and on many
 * layouts it is not on the slash key at all), which a `shift+slash` key binding never matches.
 */
export function useQuestionMark(open: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || typing(event.target)) return;
      event.preventDefault();
      open();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
}
