// Lint rules enforce where code may run (STYLE.md): shared is pure, the renderer talks to main
// only through the bridge, only src/main/platform and the Electron root import electron, and the
// layers of src/main (services, core, then bridge/cli) import only downward.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import prettier from 'eslint-config-prettier';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'crypto',
  'http',
  'https',
  'net',
  'url',
  'util',
  'stream',
  'events',
  'worker_threads',
];
const pattern = (group, message) => ({ group, message });
const noElectron = pattern(
  ['electron', 'electron/*'],
  'Only src/main/platform and src/main/index.ts import electron; core services run without it.',
);
/**
 * Forbids the files of one layer to import the folders above it. A later block replaces the
 * rule's options for its files, so the electron ban is repeated here.
 */
const layer = (files, above, message) => ({
  files: [files],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          noElectron,
          pattern(
            above.flatMap((d) => [`**/${d}`, `**/${d}/**`]),
            message,
          ),
        ],
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'build/**', 'node_modules/**', 'test-results/**', '.cache/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Layout is Prettier's job (`npm run format`); `npm run lint` checks it with `prettier --check`.
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // CommonJS entry scripts (bin, npm scripts) run as-is under Node.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(nodeBuiltins, 'src/shared is pure TypeScript: no Node built-ins.'),
            pattern(['electron', 'electron/*'], 'src/shared must not import electron.'),
            pattern(
              ['**/main/**', '**/renderer/**', '**/preload/**', 'better-sqlite3', '@nut-tree-fork/*', 'openai', 'react', 'react-dom'],
              'src/shared must not depend on a runtime.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            pattern(nodeBuiltins, 'The renderer runs sandboxed: no Node built-ins.'),
            pattern(
              ['electron', 'electron/*', 'better-sqlite3', '@nut-tree-fork/*', 'openai', 'x11', 'ws'],
              'The renderer reaches these only through the bridge.',
            ),
            pattern(['**/main/**', '**/preload/**'], 'The renderer talks to main only through the typed bridge.'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/**/*.ts', 'src/preload/**/*.ts'],
    ignores: ['src/main/platform/**', 'src/main/index.ts', 'src/preload/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noElectron] }] },
  },
  // Layers of src/main, lowest first: services/ (domains), core/ (the application layer every
  // shell shares), then the shells' adapters bridge/ and cli/. A layer never imports one above it.
  layer(
    'src/main/services/**/*.ts',
    ['core', 'bridge', 'cli'],
    'Services are the domains below the application layer: they must not import src/main/core, bridge or cli (pass what they need in by constructor).',
  ),
  layer(
    'src/main/core/**/*.ts',
    ['bridge', 'cli'],
    'src/main/core is the application layer the shells call: it must not import their adapters (bridge, cli).',
  ),
);
