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
      help: 'Sign-in attempts at the login and second-factor pages, by outcome: success, refused (wrong email or password, disabled account, wrong second-factor code), cancelled ("Cancel": back to the application), throttled, unavailable (Redis or the database down), forbidden (CSRF, cross-site, not first-party)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    signUps: new Counter({
      name: 'auth_sign_ups_total',
      help: 'Self sign-up attempts (AUTH_SELF_SIGNUP), by outcome: created, refused (invalid email, weak or mismatched passwords), taken (the email has an account), throttled, unavailable (Redis or the database down), forbidden (CSRF, cross-site)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    passwordResets: new Counter({
      name: 'auth_password_resets_total',
      help: 'Password resets ("Forgot password?", email on), by outcome: requested (the same for known and unknown addresses), throttled, completed, refused (password rules, wrong second-factor code), invalid (a link expired, used, voided or unknown), unavailable (Redis or the database down), forbidden (CSRF, cross-site)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    emails: new Counter({
      name: 'auth_emails_total',
      help: 'Email of the auth service (password reset, security notices), by kind and what became of one attempt: sent, deferred (a temporary failure, retried), failed (final: refused, retries spent, or no longer wanted)',
      labelNames: ['kind', 'status'],
      registers: [registry],
    }),
    requestDuration: httpRequestDuration(registry, 'auth'),
  };
}

export type AuthMetrics = ReturnType<typeof createAuthMetrics>;
