/** Counts passphrase attempts before they are verified; throws TooManyAttempts or DependencyDown. */
export interface AttemptLimiter {
  consume(pushKey: string, ip: string | null): Promise<void>;
}
