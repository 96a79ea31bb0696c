import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  commonEnv,
  envBoolean,
  envCsv,
  envInt,
  envJson,
  parseEnv,
  readSecretFiles,
} from './index';

const schema = z.object({
  ...commonEnv,
  APP_PORT: envInt(1, 65535).default(3000),
  APP_DEBUG: envBoolean().default(false),
  APP_ORIGINS: envCsv().default([]),
  APP_LIMITS: envJson(z.object({ views: z.number().int().positive() })).optional(),
  APP_DATABASE_URL: z.url(),
  APP_SECRET: z.string().min(8),
});

const shape = (v: z.infer<typeof schema>) => ({
  env: v.NODE_ENV,
  logLevel: v.LOG_LEVEL,
  port: v.APP_PORT,
  debug: v.APP_DEBUG,
  origins: v.APP_ORIGINS,
  limits: v.APP_LIMITS,
  database: { url: v.APP_DATABASE_URL, pool: { max: 10 } },
  secret: v.APP_SECRET,
});

const valid = { APP_DATABASE_URL: 'postgres://u@db/app', APP_SECRET: 'correct horse' };

/** The problems of the ConfigError that `fn` throws (fails the test when it does not throw one). */
function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sp-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('parseEnv', () => {
  it('applies defaults, converts types and passes the parsed variables to shape', () => {
    const config = parseEnv(
      schema,
      {
        ...valid,
        APP_PORT: '8080',
        APP_DEBUG: 'YES',
        APP_ORIGINS: ' https://a.example , ,https://b.example',
        APP_LIMITS: '{"views":3}',
      },
      shape,
    );
    expect(config).toEqual({
      env: 'development',
      logLevel: 'info',
      port: 8080,
      debug: true,
      origins: ['https://a.example', 'https://b.example'],
      limits: { views: 3 },
      database: { url: 'postgres://u@db/app', pool: { max: 10 } },
      secret: 'correct horse',
    });
  });

  it('treats empty strings as unset, so the default applies', () => {
    const config = parseEnv(schema, { ...valid, APP_PORT: '', LOG_LEVEL: '', APP_DEBUG: '' }, shape);
    expect(config.port).toBe(3000);
    expect(config.logLevel).toBe('info');
    expect(config.debug).toBe(false);
    // An empty required variable is missing, not an empty value.
    expect(problemsOf(() => parseEnv(schema, { ...valid, APP_SECRET: '' }, shape))).toEqual([
      expect.stringMatching(/^APP_SECRET: /),
    ]);
  });

  it('lists every missing or bad variable in one error, each named', () => {
    const env = {
      NODE_ENV: 'staging',
      LOG_LEVEL: 'loud',
      APP_PORT: '70000',
      APP_DEBUG: 'maybe',
      APP_LIMITS: '{not json',
      APP_SECRET: 'short',
      // APP_DATABASE_URL missing
    };
    let error: ConfigError | undefined;
    try {
      parseEnv(schema, env, shape);
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.name).toBe('ConfigError');
    const names = error!.problems.map((p) => p.split(':')[0]).sort();
    expect(names).toEqual([
      'APP_DATABASE_URL',
      'APP_DEBUG',
      'APP_LIMITS',
      'APP_PORT',
      'APP_SECRET',
      'LOG_LEVEL',
      'NODE_ENV',
    ]);
    expect(error!.problems).toEqual(
      expect.arrayContaining([
        'APP_PORT: must be at most 65535',
        'APP_DEBUG: must be true or false',
        'APP_LIMITS: must be valid JSON',
      ]),
    );
    // The message carries every problem, one per line.
    for (const p of error!.problems) expect(error!.message).toContain(`  - ${p}`);
    expect(error!.message.split('\n')).toHaveLength(error!.problems.length + 1);
  });

  it('runs the cross-variable check only on valid variables and reports its problems', () => {
    const check = jest.fn((v: z.infer<typeof schema>) =>
      v.APP_DEBUG && v.NODE_ENV === 'production' ? ['APP_DEBUG: not allowed in production'] : [],
    );
    expect(
      problemsOf(() =>
        parseEnv(schema, { ...valid, NODE_ENV: 'production', APP_DEBUG: 'on' }, shape, { check }),
      ),
    ).toEqual(['APP_DEBUG: not allowed in production']);
    expect(parseEnv(schema, { ...valid, APP_DEBUG: 'on' }, shape, { check }).debug).toBe(true);
    check.mockClear();
    problemsOf(() => parseEnv(schema, { ...valid, APP_PORT: 'x' }, shape, { check }));
    expect(check).not.toHaveBeenCalled();
  });

  it('returns a deeply frozen result', () => {
    const config = parseEnv(schema, { ...valid, APP_ORIGINS: 'https://a.example' }, shape);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.database)).toBe(true);
    expect(Object.isFrozen(config.database.pool)).toBe(true);
    expect(Object.isFrozen(config.origins)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(() => {
      config.database.pool.max = 1; // the type is only shallowly Readonly; the object is frozen
    }).toThrow(TypeError);
    expect(() => config.origins.push('https://evil.example')).toThrow(TypeError);
  });

  it('leaves Buffers in the result usable (they cannot be frozen)', () => {
    const config = parseEnv(schema, valid, (v) => ({ key: Buffer.from(v.APP_SECRET), nested: { n: 1 } }));
    expect(config.key.toString()).toBe('correct horse');
    expect(Object.isFrozen(config.nested)).toBe(true);
  });

  it('freezes nested objects even when shape returns an already frozen outer object', () => {
    const config = parseEnv(schema, valid, () => Object.freeze({ database: { url: 'x' } }));
    expect(Object.isFrozen(config.database)).toBe(true);
  });
});

describe('secret files', () => {
  it('reads NAME_FILE into NAME, without the trailing newline', () => {
    const config = parseEnv(
      schema,
      { APP_DATABASE_URL: valid.APP_DATABASE_URL, APP_SECRET_FILE: secretFile('secret', 'from a file\n') },
      shape,
      { secretFiles: ['APP_SECRET'] },
    );
    expect(config.secret).toBe('from a file');
  });

  it('removes one trailing CRLF or LF only, keeping other whitespace', () => {
    const { env, problems } = readSecretFiles(
      {
        A_FILE: secretFile('a', ' pass word \r\n'),
        B_FILE: secretFile('b', 'x\n\n'),
        C_FILE: secretFile('c', 'y'),
      },
      ['A', 'B', 'C'],
    );
    expect(problems).toEqual([]);
    expect(env).toMatchObject({ A: ' pass word ', B: 'x\n', C: 'y' });
  });

  it('ignores NAME_FILE for names not listed, and an empty NAME_FILE', () => {
    const path = secretFile('unlisted', 'value');
    const { env, problems } = readSecretFiles({ OTHER_FILE: path, A_FILE: '', A: 'direct' }, ['A']);
    expect(problems).toEqual([]);
    expect(env.OTHER).toBeUndefined();
    expect(env.A).toBe('direct');
  });

  it('does not change the given env object', () => {
    const input = { A_FILE: secretFile('unchanged', 'v') };
    readSecretFiles(input, ['A']);
    expect(input).toEqual({ A_FILE: expect.any(String) });
  });

  it('refuses NAME and NAME_FILE together, and names an unreadable file', () => {
    const missing = join(dir, 'does-not-exist');
    const { problems } = readSecretFiles(
      { A: 'direct', A_FILE: secretFile('both', 'file'), B_FILE: missing },
      ['A', 'B'],
    );
    expect(problems).toEqual([
      'A: set either A or A_FILE, not both',
      `B_FILE: cannot read ${missing} (ENOENT)`,
    ]);
  });

  it('reports secret-file problems together with the schema problems, never the secret itself', () => {
    const problems = problemsOf(() =>
      parseEnv(
        schema,
        { APP_SECRET: 'correct horse', APP_SECRET_FILE: secretFile('dup', 'other secret'), APP_PORT: '0' },
        shape,
        { secretFiles: ['APP_SECRET'] },
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'APP_SECRET: set either APP_SECRET or APP_SECRET_FILE, not both',
        expect.stringMatching(/^APP_PORT: must be at least 1/),
        expect.stringMatching(/^APP_DATABASE_URL: /),
      ]),
    );
    expect(problems.join('\n')).not.toMatch(/correct horse|other secret/);
  });
});

describe('commonEnv', () => {
  const common = z.object(commonEnv);
  const parse = (env: Record<string, string>) => parseEnv(common, env, (v) => v);

  it('defaults to development and info', () => {
    expect(parse({})).toEqual({ NODE_ENV: 'development', LOG_LEVEL: 'info' });
  });

  it('accepts the known environments and pino levels, and nothing else', () => {
    for (const NODE_ENV of ['development', 'test', 'production']) {
      expect(parse({ NODE_ENV }).NODE_ENV).toBe(NODE_ENV);
    }
    for (const LOG_LEVEL of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      expect(parse({ LOG_LEVEL }).LOG_LEVEL).toBe(LOG_LEVEL);
    }
    expect(
      problemsOf(() => parse({ NODE_ENV: 'prod', LOG_LEVEL: 'INFO' })).map((p) => p.split(':')[0]),
    ).toEqual(['NODE_ENV', 'LOG_LEVEL']);
  });
});

describe('variable types', () => {
  const parseOne = (type: z.ZodType, value: string) => z.object({ V: type }).safeParse({ V: value });

  it('envInt accepts integers within bounds only', () => {
    expect(parseOne(envInt(1, 10), '10')).toMatchObject({ success: true, data: { V: 10 } });
    expect(parseOne(envInt(-5, 5), '-5')).toMatchObject({ success: true, data: { V: -5 } });
    for (const bad of ['0', '11', '1.5', '1e3', 'ten', ' 3']) {
      expect(parseOne(envInt(1, 10), bad).success).toBe(false);
    }
    expect(parseOne(envInt(1, 10), 'x').error?.issues[0]?.message).toBe('must be an integer from 1 to 10');
  });

  it('envBoolean accepts true/false/1/0/yes/no/on/off in any case', () => {
    for (const t of ['true', 'TRUE', '1', 'yes', 'On']) {
      expect(parseOne(envBoolean(), t)).toMatchObject({ data: { V: true } });
    }
    for (const f of ['false', 'False', '0', 'no', 'OFF']) {
      expect(parseOne(envBoolean(), f)).toMatchObject({ data: { V: false } });
    }
    expect(parseOne(envBoolean(), 'y').success).toBe(false);
  });

  it('envJson validates the parsed document with the inner schema', () => {
    const type = envJson(z.array(z.string()));
    expect(parseOne(type, '["a","b"]')).toMatchObject({ data: { V: ['a', 'b'] } });
    expect(parseOne(type, '[1]').success).toBe(false);
    expect(parseOne(type, '[').error?.issues.map((i) => i.message)).toEqual(['must be valid JSON']);
  });
});
