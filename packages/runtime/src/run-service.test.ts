import { loadConfigOrExit, runService } from './run-service';

class Exited extends Error {
  constructor(readonly code: string | number | null | undefined) {
    super(`process.exit(${String(code)})`);
  }
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('loadConfigOrExit', () => {
  afterEach(() => jest.restoreAllMocks());

  it('hands the process environment to the loader', () => {
    expect(loadConfigOrExit((env) => env)).toBe(process.env);
  });

  it('prints the loader’s message and exits 1 on a bad configuration', () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    jest.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Exited(code);
    });
    expect(() =>
      loadConfigOrExit(() => {
        throw new Error('Invalid environment variables:\n  - X: required');
      }),
    ).toThrow(new Exited(1));
    expect(error).toHaveBeenCalledWith('Invalid environment variables:\n  - X: required');
  });
});

describe('runService', () => {
  const listeners = () => ({ term: process.listeners('SIGTERM'), int: process.listeners('SIGINT') });
  let before: ReturnType<typeof listeners>;
  beforeEach(() => {
    before = listeners();
  });
  afterEach(() => {
    for (const l of process.listeners('SIGTERM')) if (!before.term.includes(l)) process.off('SIGTERM', l);
    for (const l of process.listeners('SIGINT')) if (!before.int.includes(l)) process.off('SIGINT', l);
    jest.restoreAllMocks();
  });

  it('starts with the parsed configuration, and closes once on SIGTERM/SIGINT, then exits', async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    let closes = 0;
    let started: unknown;
    runService(
      'unit',
      () => ({ logLevel: 'silent', answer: 42 }),
      (config) => {
        started = config;
        return Promise.resolve({ close: () => Promise.resolve(void closes++) });
      },
    );
    await tick();
    expect(started).toEqual({ logLevel: 'silent', answer: 42 });
    process.emit('SIGTERM');
    process.emit('SIGINT');
    process.emit('SIGTERM');
    await tick();
    expect(closes).toBe(1);
    expect(exit).not.toHaveBeenCalled(); // in-flight work gets its second
    await tick(1050);
    expect(exit).toHaveBeenCalledTimes(1);
  });

  it('sets exit code 1 when closing fails', async () => {
    const exitCode = process.exitCode;
    try {
      runService(
        'unit',
        () => ({ logLevel: 'silent' }),
        () => Promise.resolve({ close: () => Promise.reject(new Error('pool stuck')) }),
      );
      await tick();
      process.emit('SIGTERM');
      await tick();
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = exitCode;
    }
  });

  it('exits 1 when it fails to start', async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    runService(
      'unit',
      () => ({ logLevel: 'silent' }),
      () => Promise.reject(new Error('port in use')),
    );
    await tick();
    expect(exit).toHaveBeenCalledWith(1);
  });
});
