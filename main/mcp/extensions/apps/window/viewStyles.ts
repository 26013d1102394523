// MCP Apps host context: Atrium's look as the extension's standard style variables, so a view that uses
// them (`--color-background-primary`, `--font-sans`, …) matches the window it sits in, in either theme.
// Read from the page's own custom properties as they resolve now (the theme chosen or the system's).
import type { McpUiStyles } from '@modelcontextprotocol/ext-apps/app-bridge';

/** The extension's variable → Atrium's custom property (or a literal value). */
const fromAtrium: Partial<Record<keyof McpUiStyles, string>> = {
  '--color-background-primary': 'var(--surface)',
  '--color-background-secondary': 'var(--surface-2)',
  '--color-background-tertiary': 'var(--bg)',
  '--color-background-info': 'var(--accent-soft)',
  '--color-background-danger': 'var(--bad-soft)',
  '--color-background-success': 'var(--ok-soft)',
  '--color-background-warning': 'var(--warn-soft)',
  '--color-background-inverse': 'var(--text)',
  '--color-text-primary': 'var(--text)',
  '--color-text-secondary': 'var(--muted)',
  '--color-text-inverse': 'var(--surface)',
  '--color-text-info': 'var(--accent)',
  '--color-text-danger': 'var(--bad)',
  '--color-text-success': 'var(--ok)',
  '--color-text-warning': 'var(--warn)',
  '--color-border-primary': 'var(--border)',
  '--color-border-secondary': 'var(--border)',
  '--color-ring-primary': 'var(--accent)',
  '--font-mono': 'var(--mono)',
  '--border-radius-md': 'var(--radius)',
  '--shadow-sm': 'var(--shadow)',
};

/** The variables with their values resolved in this page now; a variable Atrium has no value for is left out. */
export function viewStyleVariables(): McpUiStyles {
  const probe = document.createElement('div');
  probe.style.display = 'none';
  document.body.appendChild(probe);
  const variables: Partial<Record<keyof McpUiStyles, string>> = {};
  try {
    for (const [name, value] of Object.entries(fromAtrium) as [keyof McpUiStyles, string][]) {
      // A custom property set to var(...) resolves when read back through a real property.
      probe.style.setProperty('--probe', value);
      probe.style.setProperty('color', 'var(--probe)');
      const resolved = name.startsWith('--color-') ? getComputedStyle(probe).color : getComputedStyle(document.documentElement).getPropertyValue(value.slice(4, -1)).trim();
      if (resolved) variables[name] = resolved;
    }
    variables['--font-sans'] = getComputedStyle(document.documentElement).fontFamily;
  } finally {
    probe.remove();
  }
  return variables as McpUiStyles;
}
