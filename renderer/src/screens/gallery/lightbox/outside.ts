/** A click on a toast (its close button, its action) is not a click beside the dialog. */
export function keepOpenForToasts(event: { target: EventTarget | null; preventDefault(): void }) {
  const target = event.target as Element | null;
  if (target?.closest?.('[data-sonner-toaster]')) event.preventDefault();
}
