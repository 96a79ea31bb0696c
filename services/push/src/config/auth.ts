import { z } from 'zod';
import { commonEnv, envInt, envSection } from '@secret-push/config';

/** Access tokens, checked at the auth service: `auth`. */
export const introspectionSection = envSection(
  'Access tokens (introspection)',
  {
    PUSH_AUTH_URL: z
      .url({ protocol: /^https?$/ })
      .describe('Base URL of the auth service (introspection at `/connect/introspect`). Required.'),
    PUSH_INTROSPECTION_CLIENT_ID: z
      .string()
      .min(1)
      .describe(
        "The push service's resource-server client (`secret-push-auth clients create-resource-server`). " +
          'Required. Not a secret, but created with its secret, so deployments mount both as files.',
      ),
    PUSH_INTROSPECTION_CLIENT_SECRET: z.string().min(1).describe('Its secret. Required.'),
    PUSH_INTROSPECTION_CACHE_SECONDS: envInt(0, 30)
      .default(30)
      .describe(
        "How long an active introspection answer is cached (0–30, never past the token's `exp`). This " +
          'is the longest a revoked token keeps working.',
      ),
    PUSH_INTROSPECTION_CACHE_SIZE: envInt(1, 1_000_000)
      .default(10_000)
      .describe('Bound of the introspection cache (entries)'),
    PUSH_INTROSPECTION_TIMEOUT_MS: envInt(100, 30_000)
      .default(3000)
      .describe('Timeout of one introspection call; past it the request answers 503'),
  },
  (v) => ({
    auth: {
      introspectionUrl: `${v.PUSH_AUTH_URL.replace(/\/$/, '')}/connect/introspect`,
      clientId: v.PUSH_INTROSPECTION_CLIENT_ID,
      clientSecret: v.PUSH_INTROSPECTION_CLIENT_SECRET,
      cacheSeconds: v.PUSH_INTROSPECTION_CACHE_SECONDS,
      cacheSize: v.PUSH_INTROSPECTION_CACHE_SIZE,
      timeoutMs: v.PUSH_INTROSPECTION_TIMEOUT_MS,
    },
  }),
  { secretFiles: ['PUSH_INTROSPECTION_CLIENT_ID', 'PUSH_INTROSPECTION_CLIENT_SECRET'] },
);

/** Personal API tokens (`spu_…`), checked in our own database: `personalTokens`. */
export const personalTokenSection = envSection(
  'Personal API tokens',
  {
    PUSH_PERSONAL_TOKEN_CACHE_SECONDS: envInt(0, 10)
      .default(10)
      .describe(
        "How long a personal API token's lookup (found or not) is cached in each replica (0–10, never " +
          "past the token's expiry). This is the longest a revoked or regenerated token, or a token of " +
          'a disabled user, keeps working.',
      ),
  },
  (v) => ({ personalTokens: { cacheSeconds: v.PUSH_PERSONAL_TOKEN_CACHE_SECONDS } }),
);

const signInVars = {
  NODE_ENV: commonEnv.NODE_ENV,
  PUSH_OIDC_ISSUER: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'The OpenID Connect provider people sign in with to the web app (the local auth service by ' +
        'default in `make up`; any standards-compliant provider: Keycloak, Entra ID, Google, ' +
        'Authentik). `https://` in production. Unset: nobody can sign in. Set all three ' +
        '`PUSH_OIDC_*` or none.',
    ),
  PUSH_OIDC_CLIENT_ID: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The web app's client at that provider (authorization code + PKCE S256, " +
        '`client_secret_basic`, redirect URI `<PUSH_PUBLIC_URL>/sign-in/callback`, post-logout ' +
        'redirect URI `<PUSH_PUBLIC_URL>/signed-out`, scopes `openid email`; a refresh token lets the service ' +
        're-check the user).',
    ),
  PUSH_OIDC_CLIENT_SECRET: z.string().min(1).optional().describe("That client's secret"),
  PUSH_SESSION_COOKIE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only')
    .default('sp_session')
    .describe(
      "The web session cookie's name (its own: both services share a cookie jar on one host). " +
        'HttpOnly, SameSite=Lax, a browser-session cookie (no Max-Age); in production Secure and ' +
        'sent as `__Host-<name>`.',
    ),
  PUSH_SESSION_IDLE_SECONDS: envInt(60, 30 * 86_400)
    .default(7200)
    .describe('A web session ends when unused this long (sessions live in Redis).'),
  PUSH_SESSION_ABSOLUTE_SECONDS: envInt(300, 365 * 86_400)
    .default(86_400)
    .describe('A web session ends this long after sign-in, however much it is used.'),
  PUSH_SESSION_RECHECK_SECONDS: envInt(1, 60)
    .default(60)
    .describe(
      'How often a signed-in person is re-checked (the user must still be enabled here, and the ' +
        'provider must still accept its refresh token): a disabled user loses the web app within it ' +
        "(1–60). The same interval bounds how long the provider's answer about a personal token's " +
        'user is reused, where the provider has an accounts endpoint.',
    ),
};

type SignInVars = z.output<z.ZodObject<typeof signInVars>>;

function signInProblems(v: SignInVars): string[] {
  const problems: string[] = [];
  const oidc = [v.PUSH_OIDC_ISSUER, v.PUSH_OIDC_CLIENT_ID, v.PUSH_OIDC_CLIENT_SECRET];
  if (oidc.some((x) => x !== undefined) && oidc.some((x) => x === undefined)) {
    problems.push('PUSH_OIDC_ISSUER, PUSH_OIDC_CLIENT_ID, PUSH_OIDC_CLIENT_SECRET: set all three, or none');
  }
  if (v.NODE_ENV === 'production' && v.PUSH_OIDC_ISSUER?.startsWith('http://')) {
    problems.push('PUSH_OIDC_ISSUER: must be https:// in production');
  }
  if (v.PUSH_SESSION_IDLE_SECONDS > v.PUSH_SESSION_ABSOLUTE_SECONDS) {
    problems.push('PUSH_SESSION_IDLE_SECONDS: must not exceed PUSH_SESSION_ABSOLUTE_SECONDS');
  }
  return problems;
}

/** Sign-in to the web app (OpenID Connect) and its sessions: `signIn` (absent: none), `sessions`. */
export const signInSection = envSection(
  'Web sign-in and sessions',
  signInVars,
  (v) => ({
    signIn:
      v.PUSH_OIDC_ISSUER && v.PUSH_OIDC_CLIENT_ID && v.PUSH_OIDC_CLIENT_SECRET
        ? {
            issuer: v.PUSH_OIDC_ISSUER.replace(/\/$/, ''),
            clientId: v.PUSH_OIDC_CLIENT_ID,
            clientSecret: v.PUSH_OIDC_CLIENT_SECRET,
            // openid-client talks to an http:// issuer only outside production (refused above).
            allowInsecureRequests: v.PUSH_OIDC_ISSUER.startsWith('http://'),
          }
        : undefined,
    sessions: {
      cookieName: v.PUSH_SESSION_COOKIE,
      // Development and tests run on http://, where a Secure cookie would never come back.
      secureCookies: v.NODE_ENV === 'production',
      idleSeconds: v.PUSH_SESSION_IDLE_SECONDS,
      absoluteSeconds: v.PUSH_SESSION_ABSOLUTE_SECONDS,
      recheckSeconds: v.PUSH_SESSION_RECHECK_SECONDS,
    },
  }),
  { check: signInProblems },
);
