import { toast } from 'sonner';
import { errorMessage } from '../store/error-message.ts';

/** Runs a screen action: its outcome as a toast (what it did, or the service's error). */
export async function runAction<T>(
  action: () => Promise<T>,
  done?: (value: T) => string | null,
): Promise<void> {
  try {
    const value = await action();
    const text = done?.(value);
    if (text) toast.success(text);
  } catch (error) {
    toast.error(errorMessage(error));
  }
}
