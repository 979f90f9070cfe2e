import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import webSeams from './eslint/no-cross-feature-imports.js';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'cdk.out/',
      '.data/',
      'coverage/',
      'e2e/artifacts/',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      // `import { z }` pulls all of zod (and its locales) into every Lambda bundle: 454 KB against
      // 92 KB for the namespace import, which esbuild tree-shakes.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
          message:
            "Use `import * as z from 'zod'` (tree-shakeable; `import { z }` bundles all of zod).",
        },
      ],
      'no-console': 'off',
    },
  },
  {
    files: ['functions/**/handlers/*.ts'],
    rules: {
      // Handlers are middleware plus one use-case call: SDK access belongs to the repos.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aws-sdk/*'],
              message: 'Handlers call use cases; SDK calls live in <domain>.repo.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The web's seams (DESIGN §3): features do not import each other; shared pieces live in
    // web/src/components and web/src/lib, and web/src/app composes features.
    files: ['web/src/features/**/*.{ts,tsx}'],
    plugins: { 'web-seams': webSeams },
    rules: { 'web-seams/no-cross-feature-imports': 'error' },
  },
);
