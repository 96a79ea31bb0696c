import { errors } from 'oidc-provider';

// The OAuth errors this service raises itself. They live at the top of the tree so that every layer
// may raise them: storage (a database outage), policy and provider (the client-auth throttle).

/**
 * oidc-provider hides every error of status ≥ 500 behind `server_error`; a dependency outage is not
 * a bug, so it is exposed as RFC 6749 `temporarily_unavailable` with status 503.
 */
export class DependencyUnavailable extends errors.OIDCProviderError {
  constructor(dependency: string, options?: { cause?: unknown }) {
    super(
      503,
      'temporarily_unavailable',
      options?.cause instanceof Error ? { cause: options.cause } : undefined,
    );
    this.expose = true;
    this.error_description = `the ${dependency} is unavailable, retry later`;
  }
}

/** Too many failed client authentications from this address (for this client): 429 with Retry-After. */
export class TooManyAttempts extends errors.OIDCProviderError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'slow_down');
    this.error_description = 'too many failed client authentication attempts, retry later';
  }
}
