// Lint rules in the spirit of pepr's: small, honest functions (its limits, as errors) and no floating promises.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers (docs/architecture.md, drawn from the imports by hack/architecture.ts).
const FOLDERS = [
  'agent',
  'api',
  'attestation',
  'auditors',
  'base',
  'contract',
  'controllers',
  'crds',
  'evidence',
  'gateway',
  'hack',
  'model',
  'operator',
  'policy',
  'proxy',
  'test',
  'ui',
  'webhooks',
];
const TESTS = ['**/*.test.ts', '**/testing/**', 'test/**'];

/** A rule letting `files` import, of the project's top-level folders, only `allowed` (packages are free). */
function importsOnly(files, allowed, message, extra = []) {
  const barred = FOLDERS.filter((f) => !allowed.includes(f));
  return {
    files,
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `(^|/)(${barred.join('|')})/`, message }, ...extra] },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'coverage/',
      '.scratch/',
      '.platform/',
      'ui/dist/',
      '**/*.generated.ts',
      'crds/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      complexity: ['error', 10],
      'max-depth': ['error', 3],
      'max-params': ['error', 4],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // A test file's describe block is a list of cases, not a function to keep short.
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  // Nothing imports the entry point: it is the binary's commands and `npm start`.
  {
    files: ['**/*.ts'],
    ignores: ['operator/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)operator/',
              message: 'operator/ is the entry point; import from base/ or the role instead.',
            },
          ],
        },
      ],
    },
  },
  importsOnly(['contract/**'], [], 'contract/ is a leaf: it imports nothing of the project.'),
  importsOnly(
    ['base/**'],
    ['base', 'contract'],
    'base/ is shared by every role: it imports only base/ and contract/.',
  ),
  // Later entries win for the same files: the SDK's rule comes after the auditors'.
  importsOnly(
    ['auditors/**'],
    ['auditors', 'base', 'contract'],
    'auditors import only the SDK (auditors/sdk), their own folder and base/.',
  ),
  importsOnly(
    ['auditors/sdk/**'],
    ['base', 'contract'],
    'the auditor SDK imports only base/ and contract/.',
    [{ regex: '^\\.\\./(?!\\.\\./)', message: 'the auditor SDK does not import the built-in auditors.' }],
  ),
  // The management UI reaches the platform over HTTP only: it imports no server folder.
  // Besides the pure, browser-safe modules of definition files the editor shares with `platform apply`.
  importsOnly(
    ['ui/**'],
    ['ui', 'crds'],
    'ui/ is a browser app: it talks to the API over HTTP and imports no server code.',
    [
      {
        regex: '(^|/)crds/(?!definitions/(model|user-context|errors)\\.ts$)',
        message:
          'ui/ imports of crds/ only the browser-safe definition-file modules (model, user-context, errors).',
      },
    ],
  ),
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
