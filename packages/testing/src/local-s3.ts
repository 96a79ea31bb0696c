import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startS3 } from './s3';

/**
 * `make up`'s stand-in for S3: an s3rver on 127.0.0.1 with a persistent folder and the bucket
 * created. Usage: node packages/testing/dist/local-s3.js --directory DIR --port N --bucket NAME
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      directory: { type: 'string', default: '.local/s3' },
      port: { type: 'string', default: '4568' },
      bucket: { type: 'string', default: 'secret-push' },
    },
  });
  mkdirSync(values.directory, { recursive: true });
  const s3 = await startS3({ directory: values.directory, port: Number(values.port), bucket: values.bucket });
  console.log(`s3rver on ${s3.endpoint}, bucket ${s3.bucket}, data in ${values.directory}`);
  const stop = () => {
    void s3.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
