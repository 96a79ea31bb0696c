/** Where the operator CLI reads its environment and input and writes its output. */
export interface CliIo {
  /** The environment to configure from: the process's own, passed in by main.ts (tests pass theirs). */
  env: NodeJS.ProcessEnv;
  /** Read only by `--password-stdin`; the CLI passes the process's stdin. */
  stdin?: AsyncIterable<string | Buffer>;
  out(line: string): void;
  err(line: string): void;
}
