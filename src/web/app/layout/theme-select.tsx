import { useId } from 'react';
import {
  setThemeChoice,
  THEME_CHOICES,
  useThemeChoice,
  type ThemeChoice,
} from '../../lib/theme.ts';

const labels: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Light or dark; "System" follows the operating system (`prefers-color-scheme`). */
export function ThemeSelect() {
  const choice = useThemeChoice();
  const id = useId();
  return (
    <div className="theme-select">
      <label htmlFor={id}>Theme</label>
      <select
        id={id}
        value={choice}
        onChange={(event) => setThemeChoice(event.target.value as ThemeChoice)}
      >
        {THEME_CHOICES.map((value) => (
          <option key={value} value={value}>
            {labels[value]}
          </option>
        ))}
      </select>
    </div>
  );
}
