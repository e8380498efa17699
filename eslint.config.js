// @ts-check
import tseslint from 'typescript-eslint';
import { layerConfig } from './eslint.layers.js';

export default tseslint.config(
  {
    ignores: [
      'lib/',
      'dist/',
      'node_modules/',
      '.cache/',
      'src/imports/',
      'src/specs/generated/',
      'coverage/',
      'examples/*/node_modules/',
      'examples/*/dist/',
      'examples/*/rendered/',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts', 'charts/*/chart.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/explicit-function-return-type': ['error', { allowExpressions: true }],
      complexity: ['error', 12],
      'max-depth': ['error', 3],
      'max-params': ['error', 4],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**'],
    rules: {
      '@typescript-eslint/explicit-function-return-type': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      complexity: 'off',
      'max-depth': 'off',
    },
  },
  ...layerConfig(),
);
