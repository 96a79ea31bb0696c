import { Counter } from 'prom-client';
import { createMetricsRegistry, httpRequestDuration } from '@secret-push/runtime';

/** Prometheus metrics of the auth service. No label is ever taken from unauthenticated input. */
export function createAuthMetrics() {
  const registry = createMetricsRegistry();
  return {
    registry,
    tokensIssued: new Counter({
      name: 'auth_tokens_issued_total',
      help: 'Access tokens issued, by client',
      labelNames: ['client_id'],
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'auth_refusals_total',
      help: 'Refused token, introspection, revocation, authorization, userinfo and logout requests, by endpoint and OAuth error (client only when it exists)',
      labelNames: ['endpoint', 'error', 'client_id'],
      registers: [registry],
    }),
    signIns: new Counter({
      name: 'auth_sign_ins_total',
      help: 'Sign-in attempts at the login and second-factor pages, by outcome: success, refused (wrong email or password, disabled account, wrong second-factor code), throttled, unavailable (Redis or the database down), forbidden (CSRF, cross-site, not first-party)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    signUps: new Counter({
      name: 'auth_sign_ups_total',
      help: 'Self sign-up attempts (AUTH_SELF_SIGNUP), by outcome: created, refused (invalid email, weak or mismatched passwords), taken (the email has an account), throttled, unavailable (Redis or the database down), forbidden (CSRF, cross-site)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    requestDuration: httpRequestDuration(registry, 'auth'),
  };
}

export type AuthMetrics = ReturnType<typeof createAuthMetrics>;
