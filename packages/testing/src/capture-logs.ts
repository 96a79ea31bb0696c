import { Writable } from 'node:stream';

export interface CapturedLogs {
  stream: Writable;
  text(): string;
}

/** A destination for a pino logger that keeps every line, so tests can assert what was (not) logged. */
export function captureLogs(): CapturedLogs {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { stream, text: () => chunks.join('') };
}
