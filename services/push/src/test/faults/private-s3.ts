import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Child, httpAnswers, waitFor } from './processes';

/*
 * An s3rver as a child process (so that it can be killed and frozen like a real object store):
 * packages/testing's `local-s3` script, the small s3rver launcher `make up` uses, started with
 * node from its dist/ build, on its own port and folder. Its objects are files in that folder, so
 * a restart keeps them.
 */

export const S3_BUCKET = 'secret-push';

export interface PrivateS3 {
  port: number;
  url: string;
  child: Child;
  start(): Promise<void>;
  answers(): Promise<boolean>;
  destroy(): Promise<void>;
}

export async function startPrivateS3(root: string, port: number, logDir: string): Promise<PrivateS3> {
  const dir = mkdtempSync(join(tmpdir(), 'sp-faults-s3-'));
  const url = `http://127.0.0.1:${port}`;
  const child = new Child(
    {
      name: 's3rver',
      command: process.execPath,
      args: [
        join(root, 'packages/testing/dist/local-s3.js'),
        '--directory',
        dir,
        '--port',
        String(port),
        '--bucket',
        S3_BUCKET,
      ],
      env: {},
      cwd: root,
    },
    logDir,
  );
  // Any HTTP answer (ListBuckets) means it serves.
  const answers = () => httpAnswers(`${url}/`, () => true, 1000);
  const start = async () => {
    child.start();
    if (!(await waitFor(answers, 20_000, 100))) throw new Error('s3rver did not start');
  };
  await start();
  return {
    port,
    url,
    child,
    start,
    answers,
    async destroy() {
      await child.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
