// typescript-eslint's recommended rules over all TypeScript; generated and vendored output is ignored.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'release/', 'e2e/artifacts/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'main/mcp/extensions/*/window/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Only main/electron/ may import electron: everything else must run in plain Node and the browser mode.
    files: ['**/*.{ts,tsx}'],
    ignores: ['main/electron/**', 'preload/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only main/electron/ and preload/ may import electron.' }] }] },
  },
);
