import { z } from 'zod';
import { ConfigError, defineConfig, documentVariables, envInt, envSection, renderEnvTable } from './index';

const port = envInt(1, 65535).default(3000).describe('Listen port');
const http = envSection(
  'HTTP',
  { APP_PORT: port, APP_HOST: z.string().default('localhost').describe('Listen address') },
  (v) => ({ http: { port: v.APP_PORT, host: v.APP_HOST } }),
);
const db = envSection(
  'Database',
  {
    APP_PORT: port,
    APP_DATABASE_URL: z.url().describe('Database URL | required'),
    APP_POOL: envInt(1, 10).optional().describe('Pool size').meta({ defaultText: 'one per core' }),
  },
  (v) => ({ db: { url: v.APP_DATABASE_URL, pool: v.APP_POOL, port: v.APP_PORT } }),
  {
    secretFiles: ['APP_DATABASE_URL'],
    check: (v) => (v.APP_PORT === 5432 ? ['APP_PORT: not the database port'] : []),
  },
);
const config = defineConfig([http, db]);

describe('defineConfig', () => {
  it('merges the sections’ parts of the config object, reading a shared variable once', () => {
    expect(config.load({ APP_DATABASE_URL: 'postgres://db/app', APP_PORT: '8080' })).toEqual({
      http: { port: 8080, host: 'localhost' },
      db: { url: 'postgres://db/app', pool: undefined, port: 8080 },
    });
  });

  it('lists every bad variable, then runs the sections’ checks', () => {
    expect(() => config.load({ APP_PORT: 'x' })).toThrow(ConfigError);
    try {
      config.load({ APP_PORT: 'x' });
    } catch (err) {
      expect((err as ConfigError).problems.map((p) => p.split(':')[0])).toEqual([
        'APP_PORT',
        'APP_DATABASE_URL',
      ]);
    }
    expect(() => config.load({ APP_PORT: '5432', APP_DATABASE_URL: 'postgres://db/app' })).toThrow(
      'APP_PORT: not the database port',
    );
  });

  it('refuses one variable declared with two schemas', () => {
    const other = envSection('Other', { APP_PORT: envInt(1, 2).describe('x') }, () => ({}));
    expect(() => defineConfig([http, other])).toThrow(/APP_PORT is declared twice/);
  });
});

describe('documentVariables', () => {
  it('documents each variable once, with its description, default and secret file', () => {
    expect(documentVariables(config.sections)).toEqual([
      { name: 'APP_PORT', description: 'Listen port', default: '`3000`', secretFile: false },
      { name: 'APP_HOST', description: 'Listen address', default: '`localhost`', secretFile: false },
      {
        name: 'APP_DATABASE_URL',
        description: 'Database URL | required',
        default: 'required',
        secretFile: true,
      },
      { name: 'APP_POOL', description: 'Pool size', default: 'one per core', secretFile: false },
    ]);
  });

  it('refuses a variable without a description', () => {
    const bare = envSection('Bare', { APP_X: z.string() }, () => ({}));
    expect(() => documentVariables([bare])).toThrow(/APP_X \(Bare\) has no .describe\(\) text/);
  });

  it('renders a Markdown table, naming the _FILE variant and escaping pipes', () => {
    expect(renderEnvTable(documentVariables([db])).split('\n')).toEqual([
      '| Variable | Meaning | Default |',
      '| --- | --- | --- |',
      '| `APP_PORT` | Listen port | `3000` |',
      '| `APP_DATABASE_URL` or `APP_DATABASE_URL_FILE` | Database URL \\| required | required |',
      '| `APP_POOL` | Pool size | one per core |',
    ]);
  });
});
