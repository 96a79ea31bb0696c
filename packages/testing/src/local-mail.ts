import { parseArgs } from 'node:util';
import { startMailCatcher } from './mail-catcher';
import { startMailInbox } from './mail-inbox';

/**
 * `make up`'s mail catcher: an SMTP server that accepts every message (no TLS, no authentication)
 * and a web inbox to read them, both on 127.0.0.1, the last `--keep` messages in memory.
 * Usage: node packages/testing/dist/local-mail.js --smtp-port N --http-port M [--keep 200]
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'smtp-port': { type: 'string', default: '1025' },
      'http-port': { type: 'string', default: '8025' },
      keep: { type: 'string', default: '200' },
    },
  });
  const keep = Number(values.keep);
  if (!Number.isInteger(keep) || keep < 1) {
    throw new Error(`--keep must be a positive integer (got ${values.keep})`);
  }
  const catcher = await startMailCatcher({ port: Number(values['smtp-port']) });
  const inbox = await startMailInbox(catcher, { port: Number(values['http-port']), keep });
  console.log(`mail catcher: SMTP ${catcher.url}, inbox ${inbox.url}/ (last ${keep} messages, in memory)`);
  const stop = () => {
    void Promise.all([inbox.close(), catcher.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
