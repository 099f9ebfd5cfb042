// Lint: typescript-eslint's type-checked recommendations, a length limit that keeps functions readable at a
// glance, and nothing about layout (prettier owns that).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'data/',
      'test-artifacts/',
      'test/world/sites/',
      'test/world/fixtures/',
      'test/api/sites/',
      'test/hostile/sites/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
      // Commands, probes and routes implement Promise-returning contracts; `async` without `await` says so.
      '@typescript-eslint/require-await': 'off',
      // `const { id: _id, ...rest } = x` leaves a member out on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // A describe block holds a file's tests; its length is the number of cases, not a function to split.
    files: ['test/**/*.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  { files: ['**/*.js'], extends: [tseslint.configs.disableTypeChecked] },
  prettier,
);
