import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/*
 * The direction of dependencies between layers (docs/architecture.md), kept by ESLint's own
 * no-restricted-imports: every folder lists the folders it must not import. Edges (http/, pages/,
 * worker/) and adapters (storage/, files/) depend on domain/; domain/ depends on none of them and
 * on no framework; only the composition roots (app.ts, server.ts, worker-server.ts, main-*.ts,
 * testing.ts) and tests import across. Relative imports are matched by folder name.
 */
const packagesByName = {
  group: ['../../packages/*', '../../../packages/*'],
  message: 'import by package name',
};
const notFrom = (folders, why) => ({
  group: folders.flatMap((f) => [
    `./${f}`,
    `./${f}/**`,
    `../${f}`,
    `../${f}/**`,
    `../../${f}`,
    `../../${f}/**`,
  ]),
  message: why,
});
const COMPOSITION = [
  'app',
  'server',
  'worker-server',
  'main-api',
  'main-worker',
  'main-migrate',
  'testing',
  'main',
];
const layer = (files, forbidden, extra = {}) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.e2e.ts', '**/*.browser.ts', '**/test/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          packagesByName,
          notFrom([...forbidden, ...COMPOSITION], `${files[0]} must not import this layer`),
        ],
        ...extra,
      },
    ],
  },
});
const FRAMEWORKS = ['express', 'kysely', 'pg', 'bullmq', 'ioredis', 'koa', 'oidc-provider', 'multer'].map(
  (name) => ({
    name,
    message: 'the domain knows no framework or driver: declare a port in domain/ports.ts',
  }),
);
const push = (folder) => [`services/push/src/${folder}/**/*.ts`];
const auth = (folder) => [`services/auth/src/${folder}/**/*.ts`];
const layering = [
  layer(push('domain'), ['storage', 'files', 'worker', 'http', 'pages', 'config'], { paths: FRAMEWORKS }),
  layer(push('security'), ['domain', 'storage', 'files', 'worker', 'http', 'pages', 'config']),
  layer(push('storage'), ['files', 'worker', 'http', 'pages']),
  layer(push('files'), ['storage', 'worker', 'http', 'pages']),
  layer(push('worker'), ['storage', 'files', 'http', 'pages']),
  layer(push('http'), ['storage', 'files', 'worker', 'pages']),
  layer(push('pages'), ['storage', 'files', 'worker']),
  // auth: http/, interactions/ → clients/ → provider/ → users/ → policy/, pages/, observability/,
  // storage/ (interactions/ is the login pages' Koa routes; pages/ renders HTML and knows nothing)
  layer(auth('interactions'), ['http', 'clients']),
  layer(auth('clients'), ['http', 'interactions']),
  layer(auth('provider'), ['http', 'clients', 'interactions']),
  layer(auth('users'), ['http', 'clients', 'provider', 'interactions', 'pages']),
  layer(auth('policy'), ['http', 'clients', 'provider', 'users', 'storage', 'interactions', 'pages']),
  layer(auth('pages'), [
    'http',
    'clients',
    'provider',
    'users',
    'policy',
    'observability',
    'storage',
    'interactions',
  ]),
  layer(auth('observability'), [
    'http',
    'clients',
    'provider',
    'users',
    'policy',
    'storage',
    'interactions',
    'pages',
  ]),
  layer(auth('storage'), [
    'http',
    'clients',
    'provider',
    'users',
    'policy',
    'observability',
    'interactions',
    'pages',
  ]),
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.tools/**',
      '.local/**',
      'coverage/**',
      '**/*.cjs',
      '*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'multi-line'],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../packages/*', '../../../packages/*'], message: 'import by package name' },
          ],
        },
      ],
    },
  },
  ...layering,
  {
    files: ['**/*.test.ts', '**/*.e2e.ts', '**/*.browser.ts', '**/test/**/*.ts', 'packages/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
