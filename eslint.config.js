// One linter for the tree's TypeScript: typescript-eslint with the type-aware rules (a promise
// nobody awaits in an async server is where a forgotten await costs most), on Prettier's layout
// (no style rule here: the formatter owns it). Where a rule is off, the comment says why.
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/** Code that reads JSON it did not write (a service's answers, a report), asserting what it expects as it goes. */
const readsUntypedJson = [
  '**/*.test.ts',
  '**/*.test-support.ts',
  'packages/mock/src/conformance/**',
  'packages/contract-tests/src/properties/**',
  'packages/bench/**',
  'packages/mutation/**',
  'examples/**',
  'packages/msw/src/browser-page/**',
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', 'dataset/default/**', '**/*.d.ts'],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // Each package's tsconfig.json for its files; the root's vitest config and scripts/' TypeScript
        // (the unit tier's guard and its test), which none includes, get the base options.
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'scripts/*.ts'],
          defaultProject: 'tsconfig.base.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // An async function with nothing to await is how an interface that returns a promise is met
      // by a synchronous store (a throw becomes a rejection): the rule's alternative,
      // new Promise((resolve) => resolve(...)), says the same thing less plainly.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // An underscore names what is left unused on purpose (a destructured member taken out).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: readsUntypedJson,
    rules: {
      // A test reads an answer's JSON as it comes and asserts each field it reads: typing every
      // answer before reading it would restate the contract's schemas, which the validator checks.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
  // After Prettier's config, which turns max-len off: the formatter wraps code to 120 columns but
  // cannot wrap a string or a comment, so a line over 120 is a person's to break. (max-len is
  // deprecated in ESLint's core in favour of @stylistic's copy; the core's still runs, and one rule
  // is not worth a plugin.)
  {
    files: ['**/*.{ts,js,mjs,cjs}'],
    rules: { 'max-len': ['error', { code: 120, tabWidth: 2 }] },
  },
  // A file of source is a room's one job: over 250 lines it is two. Tests, the tables (one row a
  // rule, one claim a sentence) and generated code aside.
  {
    files: ['**/*.{ts,js,mjs,cjs}'],
    ignores: [
      '**/*.test.ts',
      '**/*.test-support.ts',
      'packages/contract/src/rules.ts',
      'packages/contract-tests/src/sentences/claims.ts',
    ],
    rules: { 'max-lines': ['error', { max: 250 }] },
  },
);
