// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist.staging-*/**',
      'clients/typescript/dist/**',
      'node_modules/**',
      'coverage/**',
      'var/**',
      'eslint.config.mjs',
      '.dependency-cruiser.js',
    ],
  },
  eslint.configs.recommended,
  // Type-aware rules: floating promises, unsafe `any` flowing through, needless assertions, …
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-require-imports': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Plain JavaScript (bench, scripts, the Jest transformer): no types to check.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        performance: 'readonly',
      },
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/cli.ts', 'bench/**', 'test/**', '.ci/**', '**/*.js'],
    rules: { 'no-console': 'off' },
  },
  {
    // Randomness in the service is crypto's: identifiers, secrets and the noise of the private
    // releases (docs/metrics.md). Math.random is predictable, and floating-point noise leaks.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'Math',
          property: 'random',
          message: 'Take randomness from node:crypto (randomInt, randomBytes).',
        },
      ],
    },
  },
);
