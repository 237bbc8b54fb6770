import { useAppStore } from '../store/react.ts';
import type { ThemeChoice } from './theme.ts';

const CHOICES: Array<{ value: ThemeChoice; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Light, dark, or the system's; kept in the settings, so every window and start agrees. */
export function ThemeSwitch() {
  const theme = useAppStore((s) => s.settings?.theme ?? 'system');
  const update = useAppStore((s) => s.updateSettings);
  return (
    <label className="theme-switch">
      <span className="visually-hidden">Theme</span>
      <select
        value={theme}
        onChange={(event) => void update({ theme: event.target.value as ThemeChoice })}
      >
        {CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
