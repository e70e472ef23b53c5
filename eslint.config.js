// The linter of `pnpm lint` (root task `lint:eslint`): ESLint's and typescript-eslint's recommended
// rules without type information, so the whole tree takes seconds (tsc already type-checks each
// package in its own lint). Layout is Prettier's job (`lint:format`), never a rule here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Generated code is never edited by hand (its header says how to regenerate it); the rest is
    // build or test output.
    ignores: [
      '**/node_modules/**',
      '**/generated/**',
      '**/dist/**',
      'spec/released/**',
      '**/reports/**',
      '**/artifacts/**',
      '**/coverage/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: globals.node },
    // A disable comment that silences nothing is an error, so none outlives its reason.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a parameter or binding kept for its position or left out of a
      // rest copy (`const { secret: _secret, ...safe } = options`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Off: 53 uses in 19 files, most in spec tests walking parsed YAML; turning them into
      // `unknown` with narrowing is a per-file change, not a lint sweep.
      '@typescript-eslint/no-explicit-any': 'off',
      // Off: every control character in a pattern here is deliberate (the report and terminal
      // sanitizers strip them, tests send them); the rule only knows accidental ones.
      'no-control-regex': 'off',
    },
  },
  {
    // CommonJS on purpose: the consumer projects prove the packages' `require` entry points.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Type tests state expressions and declare values only for the compiler to judge their types.
    files: ['**/*.test-d.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off', '@typescript-eslint/no-unused-vars': 'off' },
  },
  {
    // The client benchmark runs with --expose-gc; its runtime smoke test runs on Bun and Deno too.
    files: ['packages/client/bench/**'],
    languageOptions: { globals: { gc: 'readonly' } },
  },
  {
    files: ['packages/client/test/runtimes/**'],
    languageOptions: { globals: { Bun: 'readonly', Deno: 'readonly' } },
  },
);
