// @ts-check
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const webFiles = ['src/web/**/*.{ts,tsx}'];

const zodMiniMessage = "Import * as z from 'zod/mini' (functional API: z.optional(x), x.check(…)).";
const zodMiniOnly = {
  paths: ['zod', 'zod/v4'].map((name) => ({ name, message: zodMiniMessage })),
  patterns: [{ group: ['zod/v4/classic', 'zod/v4/classic/*'], message: zodMiniMessage }],
};

// One zone per dashboard feature, read from the folder so a new feature is covered the day it lands:
// a feature imports no other feature; what two features share moves to lib/ or components/.
const featureNames = readdirSync(new URL('./src/web/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureIsolation = featureNames.map((name) => ({
  target: `./src/web/features/${name}`,
  from: './src/web/features',
  except: [`./${name}`],
  message:
    'A feature imports no other feature; move what two features share to src/web/lib or src/web/components.',
}));

// SECURITY.md rule 12: untrusted HTML goes through one component (DOMPurify + sandboxed iframe);
// every other way of injecting markup is banned.
const bannedHtmlInjection = [
  {
    selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
    message: 'Render untrusted HTML only through src/web/components/safe-html (SECURITY.md §12).',
  },
  {
    selector: "Property[key.name='dangerouslySetInnerHTML']",
    message: 'Render untrusted HTML only through src/web/components/safe-html (SECURITY.md §12).',
  },
  {
    selector:
      'AssignmentExpression > MemberExpression.left[property.name=/^(innerHTML|outerHTML)$/]',
    message: 'Do not assign markup; build DOM nodes or use the safe-html component.',
  },
  {
    selector: "CallExpression[callee.property.name='insertAdjacentHTML']",
    message: 'Do not inject markup; build DOM nodes or use the safe-html component.',
  },
];

export default defineConfig([
  globalIgnores([
    'dist/',
    'data/',
    'node_modules/',
    'playwright-report/',
    'test-results/',
    'coverage/',
    'bench/report/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Finds each file's project through the solution tsconfig.json and its references.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      eqeqeq: ['error', 'smart'],
      'no-restricted-syntax': ['error', ...bannedHtmlInjection],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // JSX handlers may be async (react-hook-form's handleSubmit returns a promise).
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      // Fastify plugins and handlers are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      // react-router loaders throw Responses (redirect, 404) on purpose.
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'lib', name: 'Response' }] },
      ],
    },
  },

  // Plain JavaScript (this file, bin/) is outside every tsconfig: lint it without types.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },

  // One-way imports (DESIGN.md "three rooms and a corridor"): web -> api, server -> api, gateway -> api.
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver()],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './src/web',
              from: './src/server',
              message: 'The dashboard talks to the server over HTTP only; share code via src/api.',
            },
            {
              target: './src/server',
              from: './src/web',
              message: 'The server must not depend on the dashboard; share code via src/api.',
            },
            {
              target: './src/gateway',
              from: ['./src/server', './src/web'],
              message:
                'The gateway talks to any API v2 server over HTTP only; share code via src/api (the server may import the gateway, not the reverse).',
            },
            {
              target: './src/web',
              from: './src/gateway',
              message: 'The dashboard talks to the gateway over HTTP only; share code via src/api.',
            },
            {
              target: './src/api',
              from: ['./src/web', './src/server', './src/gateway', './e2e', './scripts', './bench'],
              message: 'The contract (src/api) imports nothing from the rest of the repo.',
            },
            // Inside the dashboard (STYLE.md, bulletproof-react): shared -> features -> app.
            {
              target: ['./src/web/components', './src/web/lib'],
              from: ['./src/web/features', './src/web/app'],
              message:
                'Shared code (components/, lib/) is used by features and the app, never the reverse.',
            },
            {
              target: './src/web/features',
              from: './src/web/app',
              message: 'Features do not depend on the app shell; the app composes features.',
            },
            ...featureIsolation,
          ],
        },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },

  // The dashboard: browser globals, hooks, TanStack Query, accessibility.
  {
    files: webFiles,
    extends: [
      reactHooks.configs.flat.recommended,
      pluginQuery.configs['flat/recommended'],
      jsxA11y.flatConfigs.recommended,
    ],
  },

  // Issue 17 item 9: the contract and the dashboard build their schemas with zod/mini. Classic zod
  // puts every method on every schema, so none of it tree-shakes: one import of it where the browser
  // reaches costs a page 15 kB gzip (bench/bundle-size.ts also fails a build that holds it).
  {
    files: ['src/api/**/*.ts', ...webFiles],
    rules: { 'no-restricted-imports': ['error', zodMiniOnly] },
  },
  // A form's resolver comes from the form kit, which loads zod's English messages with it: a page
  // without a form does without them (1 kB gzip), a form never shows "Invalid input" alone.
  {
    files: webFiles,
    ignores: ['src/web/components/form/zod-resolver.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...zodMiniOnly,
          paths: [
            ...zodMiniOnly.paths,
            {
              name: '@hookform/resolvers/zod',
              message: 'Import zodResolver from components/form/zod-resolver.ts.',
            },
          ],
        },
      ],
    },
  },

  // The server's SQL lives in repositories (DESIGN.md: routes -> services -> repositories); the
  // database's own folder, the tests' fixtures and checks read and write tables directly on purpose.
  {
    files: ['src/server/**/*.ts'],
    ignores: [
      'src/server/**/*.repository.ts',
      'src/server/db/**',
      'src/server/test/**',
      'src/server/**/*.test.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...bannedHtmlInjection,
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message:
            'Queries belong in a repository (src/server/repositories/ or a *.repository.ts beside its service).',
        },
      ],
    },
  },

  // The one component allowed to hand sanitized HTML to the DOM.
  {
    files: ['src/web/components/safe-html/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
]);
