import { useEffect, useState } from 'react';

export type ViewTheme = 'light' | 'dark';

/** Atrium's theme as it shows now: the one chosen (`data-theme` on the root), else the system's. */
export function currentTheme(): ViewTheme {
  const chosen = document.documentElement.dataset['theme'];
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The theme views are told, following a change of the system's theme or of Atrium's choice. */
export function useViewTheme(): ViewTheme {
  const [theme, setTheme] = useState<ViewTheme>(currentTheme);
  useEffect(() => {
    const update = () => setTheme(currentTheme());
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', update);
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      media.removeEventListener('change', update);
      observer.disconnect();
    };
  }, []);
  return theme;
}
