import { useCallback } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../store/error-message.ts';
import { useAppStore } from '../../store/react.ts';
import type { SettingsPatch } from '../../store/state.ts';

/**
 * Saves a change of settings: a toast says it was saved; the service's refusal comes back
 * as text for the field it concerns (null when saved).
 */
export function useSave(): (patch: SettingsPatch, saved?: string) => Promise<string | null> {
  const save = useAppStore((s) => s.saveSettings);
  return useCallback(
    async (patch, saved = 'Settings saved') => {
      try {
        await save(patch);
        toast.success(saved);
        return null;
      } catch (error) {
        return errorMessage(error);
      }
    },
    [save],
  );
}
