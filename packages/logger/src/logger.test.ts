import { Writable } from 'node:stream';
import { REDACT_PATHS, createLogger } from './index';

// The package cannot depend on @secret-push/testing (captureLogs): the same idea, inline.
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  return {
    stream,
    text: () => lines.join(''),
    records: () =>
      lines
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const SECRETS = {
  payload: 'payload-Zq81',
  passphrase: 'passphrase-Kd72',
  note: 'note-Hs90',
  password: 'password-Lm33',
  authorization: 'Bearer authz-Pp41',
  cookie: 'sid=cookie-Yt55',
  token: 'token-Wc18',
  access_token: 'access-Rb26',
  client_secret: 'client-secret-Nv64',
  secret: 'secret-Jx07',
};

describe('createLogger', () => {
  it('writes JSON lines with the level as a label, the name and an ISO time', () => {
    const out = capture();
    const logger = createLogger({ name: 'push-api', level: 'info' }, out.stream);
    logger.info({ push_id: 7 }, 'created');
    logger.debug('not at info');
    const records = out.records();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 'info', name: 'push-api', push_id: 7, msg: 'created' });
    expect(records[0]!.time).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));
  });

  it('never writes the values of secret fields at the top level', () => {
    const out = capture();
    createLogger({ name: 't', level: 'info' }, out.stream).info({ ...SECRETS, push_id: 'kept' }, 'top');
    const [record] = out.records();
    expect(record).toMatchObject({ push_id: 'kept', msg: 'top' });
    for (const key of Object.keys(SECRETS)) expect(record).not.toHaveProperty(key);
    for (const value of Object.values(SECRETS)) expect(out.text()).not.toContain(value);
  });

  it('never writes the values of secret fields one level down', () => {
    const out = capture();
    createLogger({ name: 't', level: 'info' }, out.stream).info(
      { push: { ...SECRETS, kind: 'text' }, body: { passphrase: SECRETS.passphrase } },
      'nested',
    );
    const [record] = out.records();
    expect(record).toMatchObject({ push: { kind: 'text' }, body: {} });
    for (const value of Object.values(SECRETS)) expect(out.text()).not.toContain(value);
  });

  it('never writes authorization, cookie, passphrase or user-token headers of a logged request', () => {
    const out = capture();
    createLogger({ name: 't', level: 'info' }, out.stream).warn(
      {
        req: {
          method: 'GET',
          headers: {
            authorization: 'Bearer hdr-authz-Qe12',
            cookie: 'sid=hdr-cookie-Ui34',
            'x-passphrase': 'hdr-pass-Oa56',
            'x-user-token': 'hdr-user-Sd78',
            accept: 'application/json',
          },
        },
      },
      'request',
    );
    const [record] = out.records();
    expect(record).toMatchObject({ req: { method: 'GET', headers: { accept: 'application/json' } } });
    expect(out.text()).not.toMatch(/hdr-authz|hdr-cookie|hdr-pass|hdr-user/);
  });

  it('redacts in child loggers and in bindings too', () => {
    const out = capture();
    const child = createLogger({ name: 't', level: 'info' }, out.stream).child({ token: 'bound-Fg90' });
    child.info({ payload: 'child-payload-Hj12' }, 'child');
    expect(out.records()).toHaveLength(1);
    expect(out.text()).not.toMatch(/bound-Fg90|child-payload-Hj12/);
  });

  it('does not alter the object it was given', () => {
    const out = capture();
    const obj = { payload: 'p', push: { passphrase: 'q' } };
    createLogger({ name: 't', level: 'info' }, out.stream).info(obj, 'x');
    expect(obj).toEqual({ payload: 'p', push: { passphrase: 'q' } });
  });

  it('lists every secret field at both depths', () => {
    for (const key of Object.keys(SECRETS)) {
      expect(REDACT_PATHS).toContain(key);
      expect(REDACT_PATHS).toContain(`*.${key}`);
    }
  });
});
