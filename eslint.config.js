// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

/** Layers: shared is isomorphic, web never reaches into the server. */
const noServer = {
  group: ['**/server/**', '**/src/server'],
  message: 'src/web and src/shared must not import src/server.',
};
const noWeb = { group: ['**/web/**', '**/src/web'], message: 'src/shared must not import src/web.' };
const nodeBuiltins = {
  group: ['node:*'],
  message: 'src/shared is isomorphic: no Node built-ins (it runs in the browser too).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**', 'test-results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['src/shared/**'],
    languageOptions: { globals: {} },
    rules: { 'no-restricted-imports': ['error', { patterns: [noServer, noWeb, nodeBuiltins] }] },
  },
  {
    files: ['src/web/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [noServer, nodeBuiltins] }],
    },
  },
  {
    // No import circle in the web app: features import the shell's context (shell/context.ts), the
    // route switch (shell/Shell.tsx) imports the features, and nothing imports back up. Packages are
    // left out (ignoreExternal), so only our own files are followed and lint stays fast.
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
