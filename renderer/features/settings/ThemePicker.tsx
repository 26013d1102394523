import { useEffect, useState } from 'react';
import { RadioChoices } from '../../ui/RadioChoices.tsx';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'atrium.theme';
const THEMES = [
  { value: 'system', label: 'As the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
] as const;

/** Applies the stored theme to the page (before the first paint, from main.tsx). */
export function applyStoredTheme(): void {
  const stored = localStorage.getItem(KEY);
  const theme: Theme = stored === 'light' || stored === 'dark' ? stored : 'system';
  if (theme === 'system') delete document.documentElement.dataset['theme'];
  else document.documentElement.dataset['theme'] = theme;
}

/** Light, dark, or whatever the system says; kept in this window's storage. */
export function ThemePicker() {
  const [theme, setTheme] = useState<Theme>(() => {
    const stored = localStorage.getItem(KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  });
  useEffect(() => {
    if (theme === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
    applyStoredTheme();
  }, [theme]);
  return <RadioChoices<Theme> legend="Theme" name="theme" choices={THEMES} value={theme} onChange={setTheme} />;
}
