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
  // --- functions/: the domain seams (docs/architecture.md "Layering rules") -----------------
  {
    // A domain imports another domain only through its public module (`../<domain>/index`);
    // core and shared are open to all. Tests follow the same rule, except that they (and the
    // testing/ helpers) may use another domain's testing/ helpers; product code never does, so no
    // test helper reaches a handler's bundle.
    files: ['functions/**/*.ts'],
    ignores: ['functions/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(?!core/|shared/|infra/)[a-z-]+/(?!index$)',
              message:
                "Import another domain through its public module only: '../<domain>/index' (docs/architecture.md).",
            },
            {
              group: ['@aws-sdk/*'],
              message:
                "AWS SDK calls live in adapters: <domain>.repo.ts (DynamoDB), *.store.ts (S3), *.identity.ts (Cognito), *.sender.ts (@connections), core, and the Cognito triggers' adapters.",
            },
          ],
        },
      ],
    },
  },
  {
    // The adapters may call the SDK; still no deep imports.
    files: [
      'functions/**/*.repo.ts',
      'functions/**/*.store.ts',
      'functions/**/*.identity.ts',
      'functions/**/*.sender.ts',
      'functions/accounts/identity.ts',
      'functions/accounts/messages.ts',
    ],
    ignores: ['functions/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(?!core/|shared/|infra/)[a-z-]+/(?!index$)',
              message:
                "Import another domain through its public module only: '../<domain>/index' (docs/architecture.md).",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and the test helpers that set the twin up may call the SDK and use another domain's
    // testing/ helpers; nothing else of it.
    files: ['functions/**/*.test.ts', 'functions/**/testing/*.ts'],
    ignores: ['functions/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(?!core/|shared/|infra/)[a-z-]+/(?!index$|testing/)',
              message:
                'Import another domain through its public module (or, in a test, its testing/ helpers) only (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // core is below every domain: it imports no domain, nor the route table or the wiring.
    files: ['functions/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(?!(\\.\\./)*(shared|infra|core)/)[a-z-]+',
              message:
                'core imports no domain (nor functions/routes.ts or functions/http.ts): inject what it needs.',
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
