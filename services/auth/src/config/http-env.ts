import { z } from 'zod';
import { commonEnv, envInt, envSection } from '@secret-push/config';
import { removedTrustProxy, trustedProxies } from './trusted-proxies';

const host = z.string().default('127.0.0.1').describe('Listen address (also of the metrics port)');
const port = envInt(0, 65535).default(4000).describe('Listen port');

const vars = {
  AUTH_HOST: host,
  AUTH_PORT: port,
  AUTH_METRICS_PORT: envInt(0, 65535)
    .default(9465)
    .describe(
      'Port of `/metrics` (also `/healthz`, `/readyz`), on `AUTH_HOST`; never routed by the Ingress. ' +
        'The main port answers `/metrics` with 404. `0`: any free port.',
    ),
  AUTH_HTTP_HEADERS_TIMEOUT_MS: envInt(1000, 300_000)
    .default(10_000)
    .describe(
      'The request line and headers must arrive within this (slow-header clients get 408). At most ' +
        '`AUTH_HTTP_REQUEST_TIMEOUT_MS`.',
    ),
  AUTH_HTTP_REQUEST_TIMEOUT_MS: envInt(0, 3_600_000)
    .default(30_000)
    .describe('The whole request, body included, must arrive within this (408); `0`: no limit'),
  AUTH_HTTP_IDLE_TIMEOUT_MS: envInt(1000, 3_600_000)
    .default(30_000)
    .describe(
      'A connection with no traffic either way for this long is closed (a stalled request body, a ' +
        'client that stops reading)',
    ),
  AUTH_HTTP_KEEP_ALIVE_TIMEOUT_MS: envInt(1000, 3_600_000)
    .default(65_000)
    .describe(
      "How long an idle keep-alive connection is kept. Must stay above the Ingress controller's " +
        'upstream keep-alive timeout (ingress-nginx: 60 s), so the proxy closes idle connections first.',
    ),
  AUTH_HTTP_MAX_HEADER_BYTES: envInt(4096, 1024 * 1024)
    .default(16 * 1024)
    .describe('Largest request line plus headers (431 above)'),
  AUTH_TRUSTED_PROXIES: trustedProxies()
    .default([])
    .describe(
      'Comma-separated IP addresses or CIDR ranges (IPv4, IPv6) of the proxies in front of the ' +
        'service: the only peers whose `X-Forwarded-For/Proto/Host` are believed (rule below). Empty: ' +
        'none. An entry that is not an address or range stops the start-up.',
    ),
  AUTH_TRUST_PROXY: removedTrustProxy().describe(
    'Gone (see below): anything but `false` stops the start-up, with what replaces it',
  ),
};

type Vars = z.output<z.ZodObject<typeof vars>>;

function check(v: Vars): string[] {
  const problems: string[] = [];
  if (v.AUTH_HTTP_REQUEST_TIMEOUT_MS > 0 && v.AUTH_HTTP_HEADERS_TIMEOUT_MS > v.AUTH_HTTP_REQUEST_TIMEOUT_MS) {
    problems.push('AUTH_HTTP_HEADERS_TIMEOUT_MS: must not exceed AUTH_HTTP_REQUEST_TIMEOUT_MS');
  }
  if (v.AUTH_METRICS_PORT !== 0 && v.AUTH_METRICS_PORT === v.AUTH_PORT) {
    problems.push('AUTH_METRICS_PORT: must differ from AUTH_PORT (the Ingress routes AUTH_PORT)');
  }
  return problems;
}

/** The listeners: `http`, `httpLimits` and `metrics`. */
export const httpSection = envSection(
  'HTTP',
  vars,
  (v) => ({
    http: {
      host: v.AUTH_HOST,
      port: v.AUTH_PORT,
      /** Empty: `X-Forwarded-*` headers are ignored and the client is the connection's peer. */
      trustedProxies: v.AUTH_TRUSTED_PROXIES,
    },
    // What a client may cost the main port (runtime's createHttpServer).
    httpLimits: {
      headersTimeoutMs: v.AUTH_HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: v.AUTH_HTTP_REQUEST_TIMEOUT_MS,
      idleTimeoutMs: v.AUTH_HTTP_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: v.AUTH_HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxHeaderBytes: v.AUTH_HTTP_MAX_HEADER_BYTES,
    },
    // /metrics (and /healthz, /readyz) on a port of its own, which the Ingress does not route.
    metrics: { host: v.AUTH_HOST, port: v.AUTH_METRICS_PORT },
  }),
  { check },
);

const issuerVars = {
  NODE_ENV: commonEnv.NODE_ENV,
  AUTH_HOST: host,
  AUTH_PORT: port,
  AUTH_ISSUER: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'Public issuer URL (`iss` of tokens and discovery; where people sign in). Required in ' +
        'production, and https there unless its host is loopback (`localhost`, `127.0.0.1`, …).',
    )
    .meta({ defaultText: '`http://AUTH_HOST:AUTH_PORT`' }),
};

type IssuerVars = z.output<z.ZodObject<typeof issuerVars>>;

/** Loopback names and addresses: a browser reaches them only from the same machine. */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

function issuerProblems(v: IssuerVars): string[] {
  if (v.NODE_ENV !== 'production') return [];
  if (!v.AUTH_ISSUER) return ['AUTH_ISSUER: required in production'];
  const url = new URL(v.AUTH_ISSUER);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname)
    ? ['AUTH_ISSUER: must be https in production (people sign in there); http only for a loopback host']
    : [];
}

/**
 * The issuer, and whether the sign-in cookies carry `Secure`: in production, whenever the issuer is
 * https (the service is then reached through a TLS-terminating proxy, which must be in
 * AUTH_TRUSTED_PROXIES so that its `X-Forwarded-Proto: https` is believed). Never in development
 * or test, and not for an http issuer, which is only fit for a machine of one's own (docker compose
 * on localhost): a Secure cookie cannot be set over plain HTTP.
 */
export const issuerSection = envSection(
  'Issuer',
  issuerVars,
  (v) => {
    const issuer = (v.AUTH_ISSUER ?? `http://${v.AUTH_HOST}:${v.AUTH_PORT}`).replace(/\/$/, '');
    return {
      issuer,
      /** The sign-in cookies (oidc-provider's session and interaction cookies) carry `Secure`. */
      secureCookies: v.NODE_ENV === 'production' && new URL(issuer).protocol === 'https:',
    };
  },
  { check: issuerProblems },
);
