import { z } from 'zod';
import { commonEnv, envCsv, envJson, envSection } from '@secret-push/config';

/** Key ids and cookie keys written by `secret-push-auth keys generate --dev` start with this. */
export const DEV_KEY_PREFIX = 'dev-';

const jwkSchema = z.looseObject({ kid: z.string().min(1), kty: z.string(), d: z.string().optional() });
const jwksSchema = z.object({ keys: z.array(jwkSchema).min(1, 'must hold at least one key') });

export type Jwks = z.infer<typeof jwksSchema>;

const vars = {
  NODE_ENV: commonEnv.NODE_ENV,
  AUTH_JWKS: envJson(jwksSchema)
    .optional()
    .describe(
      'Signing keys as a private JWKS (`{"keys":[…]}`, unique `kid` each; first key signs). Required in ' +
        'production, where keys with a `dev-` kid are refused. Outside production an ephemeral key is ' +
        'generated when unset. `secret-push-auth keys generate` prints one.',
    ),
  AUTH_COOKIE_KEYS: envCsv()
    .optional()
    .describe(
      'Comma-separated cookie keys (≥ 32 characters in production, no `dev-` prefix; the first ' +
        "signs). They sign the sign-in cookies and the forms' CSRF tokens: replicas share them. " +
        '`secret-push-auth keys cookie` prints one.',
    )
    .meta({ defaultText: 'random per process outside production' }),
};

type Vars = z.output<z.ZodObject<typeof vars>>;

function productionProblems(v: Vars): string[] {
  if (v.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (!v.AUTH_JWKS) problems.push('AUTH_JWKS: required in production (or AUTH_JWKS_FILE)');
  else if (v.AUTH_JWKS.keys.some((k) => k.kid.startsWith(DEV_KEY_PREFIX) || k.d === undefined)) {
    problems.push('AUTH_JWKS: development keys (kid "dev-…") or public-only keys are refused in production');
  }
  if (!v.AUTH_COOKIE_KEYS?.length) problems.push('AUTH_COOKIE_KEYS: required in production');
  else if (v.AUTH_COOKIE_KEYS.some((k) => k.startsWith(DEV_KEY_PREFIX) || k.length < 32)) {
    problems.push(
      'AUTH_COOKIE_KEYS: development keys or keys shorter than 32 characters are refused in production',
    );
  }
  return problems;
}

/** Signing and cookie keys: `jwks`, `cookieKeys`. */
export const keysSection = envSection(
  'Keys',
  vars,
  (v) => ({
    /** Undefined outside production means: generate an ephemeral key at start-up. */
    jwks: v.AUTH_JWKS,
    cookieKeys: v.AUTH_COOKIE_KEYS ?? [],
  }),
  { secretFiles: ['AUTH_JWKS', 'AUTH_COOKIE_KEYS'], check: productionProblems },
);
