import { useEffect, useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'atrium.theme';

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
  return (
    <fieldset className="field theme-picker">
      <legend>Theme</legend>
      {(['system', 'light', 'dark'] as const).map((value) => (
        <label key={value} className="field-check">
          <input type="radio" name="theme" value={value} checked={theme === value} onChange={() => setTheme(value)} />
          {value === 'system' ? 'As the system' : value === 'light' ? 'Light' : 'Dark'}
        </label>
      ))}
    </fieldset>
  );
}
