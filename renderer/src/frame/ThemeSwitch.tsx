import { useSettings } from '../data/app-queries.ts';
import { useSaveSettings } from '../screens/settings/settings-actions.ts';
import { THEME_CHOICES, type ThemeChoice } from './theme.ts';

/** Light, dark, or the system's; kept in the settings, so every window and start agrees. */
export function ThemeSwitch() {
  const theme = useSettings().data?.theme ?? 'system';
  const save = useSaveSettings();
  return (
    <label className="theme-switch">
      <span className="visually-hidden">Theme</span>
      <select
        value={theme}
        onChange={(event) => void save.run({ patch: { theme: event.target.value as ThemeChoice } })}
      >
        {THEME_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}
