import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/*
 * Structure kept by lint (docs/architecture.md):
 *
 * 1. The direction of dependencies between layers, by ESLint's own no-restricted-imports: every
 *    folder of both services lists the folders it must not import (relative imports are matched
 *    by folder name, at any depth up to three levels), and a file in a folder that is in no list
 *    is an error, so a new folder gets its rule when it is made. Edges (push http/, uploads/,
 *    pages/, session/, worker/) and adapters (storage/, files/, outbound/) depend on domain/;
 *    domain/ depends on none of them and on no framework; only the composition roots (app.ts,
 *    server.ts, worker-server.ts, main-*.ts, index.ts, testing.ts, and the operator CLIs in cli/)
 *    import across, and nothing but a composition root imports cli/ or outbound/.
 * 2. Which workspace packages a package may import (by name): shared libraries import no service,
 *    no client and no test kit; the SDK imports none; a service imports the other service or the
 *    test kit only in its tests and its testing.ts.
 * 3. Size: max-lines 400 per source file, and max-lines-per-function 120 in services/ and packages/, counting every line
 *    (blank lines and comments too, as `wc -l` does); tests and generated code are exempt.
 *
 * Import cycles (also through `import type`) are checked by dependency-cruiser
 * (.dependency-cruiser.cjs, scripts/check-cycles.sh), also part of `pnpm lint`.
 */

/** Test files and folders: exempt from the layering and the size limits. */
const TESTS = ['**/*.test.ts', '**/*.e2e.ts', '**/*.browser.ts', '**/*.fault.ts', '**/test/**'];
const GENERATED = ['packages/client/src/generated/**'];

const packagesByName = {
  group: ['../../packages/*', '../../../packages/*'],
  message: 'import by package name',
};

/** Relative imports of these folders (or root modules), from a file up to three folders deep. */
const notFrom = (folders, why) => ({
  group: folders.flatMap((f) =>
    ['./', '../', '../../', '../../../'].flatMap((up) => [`${up}${f}`, `${up}${f}/**`]),
  ),
  message: why,
});

/** Imports of these workspace packages (and their subpaths). */
const notPackages = (names, why) => ({
  group: names.flatMap((name) => [`@secret-push/${name}`, `@secret-push/${name}/**`]),
  message: why,
});

const restrict = (files, patterns, { ignores = [], paths } = {}) => ({
  files,
  ignores: [...TESTS, ...ignores],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [packagesByName, ...patterns], ...(paths ? { paths } : {}) },
    ],
  },
});

/* ---- 1. Layers of the services ------------------------------------------------------------ */

/** The composition roots: modules at the root of src/ that wire the layers. */
const COMPOSITION = [
  'app',
  'server',
  'server-requests',
  'worker-server',
  'main-api',
  'main-worker',
  'main-migrate',
  'main',
  'index',
  'testing',
];

/*
 * The push service. `config` is the configuration module (config.ts, or a config/ folder):
 * composition that the edges and adapters read their settings' types from.
 */
const PUSH_LAYERS = {
  // decides everything; its ports (domain/ports/) are what the adapters implement
  domain: ['security'],
  // crypto without I/O
  security: [],
  // adapters: PostgreSQL, the S3 object store, outbound delivery (mail, webhooks)
  storage: ['domain', 'security', 'config'],
  files: ['domain', 'security', 'config'],
  outbound: ['domain', 'security', 'config'],
  // edges: the tick and its jobs (worker/jobs/), the API, the upload edge, the web app's
  // sign-in, the pages of the web app (pages/ may use http/'s helpers; http/ never pages/)
  worker: ['domain', 'security', 'config'],
  http: ['domain', 'security', 'config', 'uploads'],
  uploads: ['domain', 'security', 'config', 'http'],
  session: ['domain', 'security', 'config', 'http'],
  pages: ['domain', 'security', 'config', 'http', 'uploads', 'session'],
  // the configuration: may read the domain's types, nothing that does I/O
  config: ['domain', 'security'],
  // the operator CLI (secret-push-push): a composition root over the domain and the adapters
  cli: ['domain', 'security', 'config', 'storage', 'files', 'outbound', 'main-migrate'],
};

/*
 * The auth service: http/ and interactions/ (the sign-in pages' routes) → clients/ → provider/ →
 * users/ → policy/, pages/ (HTML, knows nothing), observability/, storage/; mail/ (the sender of
 * the auth_email queue, started by server.ts) → users/, storage/. `errors` (errors.ts)
 * is shared by all; cli/ is the operator CLI (secret-push-auth), a composition root.
 */
const AUTH_LAYERS = {
  http: ['errors', 'config', 'clients', 'provider', 'users', 'policy', 'observability', 'storage'],
  interactions: ['errors', 'config', 'provider', 'users', 'policy', 'pages', 'observability', 'storage'],
  clients: ['errors', 'config', 'provider', 'users', 'policy', 'observability', 'storage'],
  provider: ['errors', 'config', 'users', 'policy', 'pages', 'observability', 'storage'],
  users: ['errors', 'config', 'policy', 'observability', 'storage'],
  // the mail sender (the auth_email queue) and the texts of each email (mail/emails/)
  mail: ['errors', 'config', 'users', 'observability', 'storage'],
  policy: ['errors', 'config'],
  pages: [],
  observability: ['errors', 'config'],
  storage: ['errors', 'config'],
  cli: ['errors', 'config', 'clients', 'provider', 'users', 'policy', 'storage', 'main-migrate'],
  // the configuration (config/): variables, their sections and the loaders; imports no layer
  config: [],
};

/** What a layer may not import: every folder and composition root of its service it may not. */
const forbiddenFor = (layers, folder) => {
  const everything = [...Object.keys(layers), ...COMPOSITION];
  return everything.filter((f) => f !== folder && !layers[folder].includes(f));
};

const FRAMEWORKS = [
  'express',
  'kysely',
  'pg',
  'bullmq',
  'ioredis',
  'koa',
  'oidc-provider',
  'openid-client',
  'multer',
  'cookie',
  '@aws-sdk/client-s3',
  '@secret-push/db-kit',
  '@secret-push/redis-kit',
  '@secret-push/http-kit',
].map((name) => ({
  name,
  message: 'the domain knows no framework or driver: declare a port in domain/ (ports)',
}));

/** Packages a service's production code may not import (its tests and testing.ts may). */
const servicePackages = (other) =>
  notPackages(
    [other, 'testing', 'client', 'cli', 'bench', 'deploy'],
    'a service imports the other service and the test kit only in tests and testing.ts',
  );

const serviceLayering = (service, layers, other, extraByFolder = {}) => {
  const src = `services/${service}/src`;
  const pkgs = servicePackages(other);
  return [
    ...Object.keys(layers).map((folder) =>
      restrict(
        [`${src}/${folder}/**/*.ts`],
        [
          pkgs,
          notFrom(
            forbiddenFor(layers, folder),
            `${service} ${folder}/ must not import this layer (eslint.config.mjs, docs/architecture.md)`,
          ),
        ],
        extraByFolder[folder] ?? {},
      ),
    ),
    // composition roots at the root of src/: they import across; testing.ts may use the test kit
    restrict([`${src}/*.ts`], [pkgs], { ignores: [`${src}/testing.ts`] }),
    // a file in a folder that is in no list above
    {
      files: [`${src}/*/**/*.ts`],
      ignores: [...TESTS, ...Object.keys(layers).map((folder) => `${src}/${folder}/**`)],
      rules: {
        'no-restricted-syntax': [
          'error',
          {
            selector: 'Program',
            message: `this folder of services/${service}/src is not in the layering: add it to PUSH_LAYERS or AUTH_LAYERS in eslint.config.mjs (and to docs/architecture.md)`,
          },
        ],
      },
    },
  ];
};

/* ---- 2. Packages -------------------------------------------------------------------------- */

const LIBRARIES = ['config', 'db-kit', 'html', 'http-kit', 'key-ring', 'logger', 'redis-kit', 'runtime'];
const TOP = ['push', 'auth', 'client', 'cli', 'testing', 'bench', 'deploy'];
const packageLayering = [
  restrict(
    LIBRARIES.map((p) => `packages/${p}/src/**/*.ts`),
    [notPackages(TOP, 'a shared library imports no service, client, CLI or test kit')],
  ),
  restrict(
    ['packages/testing/src/**/*.ts'],
    [notPackages(TOP, 'the test kit imports no service, client or CLI')],
  ),
  restrict(
    ['packages/client/src/**/*.ts'],
    [notPackages([...LIBRARIES, ...TOP], 'the SDK is published on its own: it imports no workspace package')],
  ),
  restrict(
    ['packages/cli/src/**/*.ts'],
    [
      notPackages(
        [...LIBRARIES, ...TOP.filter((p) => p !== 'cli' && p !== 'client')],
        'the CLI is published on its own: of the workspace it imports only the SDK (@secret-push/client)',
      ),
    ],
  ),
];

const layering = [
  ...serviceLayering('push', PUSH_LAYERS, 'auth', { domain: { paths: FRAMEWORKS } }),
  ...serviceLayering('auth', AUTH_LAYERS, 'push'),
  ...packageLayering,
];

/* ---- 3. Size ------------------------------------------------------------------------------ */

const size = [
  {
    files: ['**/*.ts'],
    ignores: [...TESTS, ...GENERATED],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // The function limit holds for the product (services/, packages/); the bench's and the
    // rehearsal's drivers (bench/, deploy/) are scripts that read top to bottom, one measurement
    // or one check after another, and stay exempt.
    files: ['services/**/*.ts', 'packages/**/*.ts'],
    ignores: [...TESTS, ...GENERATED],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 120, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
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
      // a deliberate import cycle, for scripts/check-cycles.sh
      '.dependency-cruiser.fixtures/**',
      // a catalogue with a missing key, for scripts/check-i18n.cjs
      'scripts/i18n-fixture/**',
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
      'no-restricted-imports': ['error', { patterns: [packagesByName] }],
    },
  },
  ...layering,
  ...size,
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
