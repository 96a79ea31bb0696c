import { Writable } from 'node:stream';
import { createLogger, serializeError } from './index';
import { withoutQuotedInput } from './error-serializer';

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  return {
    stream,
    text: () => chunks.join(''),
    records: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const SECRET = 'rt-SECRET-Vb71';

/** An error as a driver makes one: the data it was given hung on it. */
function driverError(): Error {
  return Object.assign(new Error('ERR something failed'), {
    code: 'EDRIVER',
    command: { name: 'set', args: ['k', `{"refresh_token":"${SECRET}"}`] },
    args: [SECRET],
    parameters: [SECRET],
    request: { headers: { authorization: `Bearer ${SECRET}` }, body: SECRET },
    response: { body: { access_token: SECRET } },
    detail: `Key (token)=(${SECRET}) already exists.`,
    config: { password: SECRET },
    syscall: 'write',
    errno: -32,
  });
}

describe('serializeError', () => {
  it('keeps type, message, code, stack and descriptive scalars; drops what the driver was given', () => {
    const out = serializeError(driverError()) as Record<string, unknown>;
    expect(out).toMatchObject({
      type: 'Error',
      message: 'ERR something failed',
      code: 'EDRIVER',
      syscall: 'write',
      errno: -32,
    });
    expect(out.stack).toEqual(expect.stringContaining('ERR something failed'));
    expect(Object.keys(out).sort()).toEqual(['code', 'errno', 'message', 'stack', 'syscall', 'type']);
    expect(JSON.stringify(out)).not.toContain(SECRET);
  });

  it('follows cause, AggregateError errors, and stops at cycles', () => {
    const inner = driverError();
    const agg = new AggregateError([inner, 'not an error', { token: SECRET }], 'all failed');
    const outer = new Error('the session store did not answer', { cause: agg });
    (inner as { cause?: unknown }).cause = outer; // a cycle
    const out = serializeError(outer) as {
      message: string;
      cause: { type: string; errors: { type: string; message?: string; cause?: { type: string } }[] };
    };
    expect(out.message).toBe('the session store did not answer');
    expect(out.cause.type).toBe('AggregateError');
    expect(out.cause.errors.map((e) => e.type)).toEqual(['Error', 'string', 'Object']);
    expect(out.cause.errors[0]!.message).toBe('ERR something failed');
    expect(out.cause.errors[0]!.cause).toEqual({ type: 'Circular' });
    expect(JSON.stringify(out)).not.toContain(SECRET);
  });

  it('logs a non-error cause (a response body) as its type alone', () => {
    const err = new Error('the token endpoint refused', { cause: { access_token: SECRET } });
    expect(serializeError(err)).toMatchObject({ cause: { type: 'Object' } });
    expect(JSON.stringify(serializeError(err))).not.toContain(SECRET);
  });

  it('passes strings and numbers through (sites that log err.message)', () => {
    expect(serializeError('connect ECONNREFUSED')).toBe('connect ECONNREFUSED');
    expect(serializeError(7)).toBe(7);
    expect(serializeError(null)).toEqual({ type: 'null' });
    expect(serializeError({ message: 'x' })).toEqual({ type: 'Object' });
  });

  it('drops the input V8 quotes in a JSON.parse message, from the stack too', () => {
    let parseError: Error | undefined;
    try {
      JSON.parse(SECRET);
    } catch (err) {
      parseError = err as Error;
    }
    expect(parseError!.message).toContain('Vb71'); // what V8 does
    const out = serializeError(parseError) as { type: string; message: string; stack: string };
    expect(out.type).toBe('SyntaxError');
    expect(out.message).toMatch(/is not valid JSON$/);
    expect(JSON.stringify(out)).not.toContain('Vb71');
    expect(withoutQuotedInput('Unexpected end of JSON input')).toBe('Unexpected end of JSON input');
    expect(withoutQuotedInput(`Unexpected token 'x', ..."en":"${SECRET}"... is not valid JSON`)).toBe(
      "Unexpected token 'x' is not valid JSON",
    );
  });

  it('caps long kept fields', () => {
    const err = Object.assign(new Error('x'), { error_description: 'd'.repeat(500) });
    expect((serializeError(err) as { error_description: string }).error_description).toHaveLength(201);
  });
});

describe('createLogger and errors', () => {
  it('serializes errors under err, error, cause, reason, any other key and one level down', () => {
    const out = capture();
    const logger = createLogger({ name: 't', level: 'info' }, out.stream);
    logger.error({ err: driverError() }, 'err');
    logger.error({ error: driverError(), cause: driverError(), reason: driverError() }, 'named');
    logger.warn({ failure: driverError(), job: { name: 'tick', problem: driverError() } }, 'other keys');
    logger.error(driverError());
    logger.child({ scope: 'c' }).warn({ err: driverError() }, 'child');
    const records = out.records();
    expect(records).toHaveLength(5);
    expect(records[0]).toMatchObject({ err: { type: 'Error', code: 'EDRIVER' }, msg: 'err' });
    expect(records[1]).toMatchObject({
      error: { code: 'EDRIVER' },
      cause: { code: 'EDRIVER' },
      reason: { code: 'EDRIVER' },
    });
    expect(records[2]).toMatchObject({
      failure: { code: 'EDRIVER' },
      job: { name: 'tick', problem: { code: 'EDRIVER' } },
    });
    expect(records[3]).toMatchObject({ err: { code: 'EDRIVER' }, msg: 'ERR something failed' });
    expect(records[4]).toMatchObject({ scope: 'c', err: { code: 'EDRIVER' } });
    expect(out.text()).not.toContain(SECRET);
    expect(out.text()).not.toMatch(/command|parameters|"args"|headers|response|detail/);
  });

  it('keeps string err fields as they are', () => {
    const out = capture();
    createLogger({ name: 't', level: 'info' }, out.stream).warn({ err: 'redis down' }, 'x');
    expect(out.records()[0]).toMatchObject({ err: 'redis down' });
  });
});
