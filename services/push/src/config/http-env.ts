import { z } from 'zod';
import { commonEnv, envCsv, envInt, envSection } from '@secret-push/config';
import { corsOrigins } from './cors-origins';

const vars = {
  NODE_ENV: commonEnv.NODE_ENV,
  PUSH_HOST: z.string().default('127.0.0.1').describe('Listen address (also of the metrics port)'),
  PUSH_PORT: envInt(0, 65535).default(3000).describe('Listen port'),
  PUSH_METRICS_PORT: envInt(0, 65535)
    .default(9464)
    .describe(
      'Port of `/metrics` (also `/healthz`, `/readyz`), on `PUSH_HOST`; never routed by the Ingress. ' +
        'The main port answers `/metrics` with 404. `0`: any free port.',
    ),
  PUSH_HTTP_HEADERS_TIMEOUT_MS: envInt(1000, 300_000)
    .default(10_000)
    .describe(
      'The request line and headers must arrive within this (slow-header clients get 408). At most ' +
        '`PUSH_HTTP_REQUEST_TIMEOUT_MS`.',
    ),
  PUSH_HTTP_REQUEST_TIMEOUT_MS: envInt(0, 24 * 3_600_000)
    .default(600_000)
    .describe(
      'The whole request, body included, must arrive within this (408): it bounds the largest upload ' +
        '(`PUSH_FILES_MAX_TOTAL_BYTES`; 10 min is 1 GiB at 1.8 MB/s); `0`: no limit',
    ),
  PUSH_HTTP_IDLE_TIMEOUT_MS: envInt(1000, 3_600_000)
    .default(30_000)
    .describe(
      'A connection with no traffic either way for this long is closed: a stalled upload, a recipient ' +
        'that stops reading a download. A transfer that makes progress is never cut by it.',
    ),
  PUSH_HTTP_KEEP_ALIVE_TIMEOUT_MS: envInt(1000, 3_600_000)
    .default(65_000)
    .describe(
      "How long an idle keep-alive connection is kept. Must stay above the Ingress controller's " +
        'upstream keep-alive timeout (ingress-nginx: 60 s), so the proxy closes idle connections first.',
    ),
  PUSH_HTTP_MAX_HEADER_BYTES: envInt(4096, 1024 * 1024)
    .default(16 * 1024)
    .describe('Largest request line plus headers (431 above)'),
  PUSH_PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('Base of `html_url`, `json_url` and preview URLs. Required in production.')
    .meta({ defaultText: '`http://PUSH_HOST:PUSH_PORT`' }),
  PUSH_TRUSTED_PROXIES: envCsv()
    .default([])
    .describe(
      'Comma-separated CIDRs of proxies whose `X-Forwarded-For` is believed (audit IPs, rate limits). ' +
        'Empty: the socket address is used.',
    ),
  PUSH_CORS_ORIGINS: corsOrigins()
    .default([])
    .describe(
      'Comma-separated origins whose web pages may call `/api/v2` from a browser (CORS, see ' +
        '[api.md](api.md#browsers-cors)), each as browsers send `Origin`: `https://app.example.com`, ' +
        '`http://localhost:5173` (no path or trailing slash; `*` is refused). Empty: no CORS headers, ' +
        "only the API's own origin can read its answers.",
    ),
};

type Vars = z.output<z.ZodObject<typeof vars>>;

function check(v: Vars): string[] {
  const problems: string[] = [];
  if (v.PUSH_HTTP_REQUEST_TIMEOUT_MS > 0 && v.PUSH_HTTP_HEADERS_TIMEOUT_MS > v.PUSH_HTTP_REQUEST_TIMEOUT_MS) {
    problems.push('PUSH_HTTP_HEADERS_TIMEOUT_MS: must not exceed PUSH_HTTP_REQUEST_TIMEOUT_MS');
  }
  if (v.PUSH_METRICS_PORT !== 0 && v.PUSH_METRICS_PORT === v.PUSH_PORT) {
    problems.push('PUSH_METRICS_PORT: must differ from PUSH_PORT (the Ingress routes PUSH_PORT)');
  }
  if (v.NODE_ENV === 'production' && !v.PUSH_PUBLIC_URL) {
    problems.push('PUSH_PUBLIC_URL: required in production');
  }
  return problems;
}

/** The API's listeners: `http`, `httpLimits`, `metrics` and `publicUrl`. */
export const httpSection = envSection(
  'HTTP',
  vars,
  (v) => ({
    http: {
      host: v.PUSH_HOST,
      port: v.PUSH_PORT,
      trustedProxies: v.PUSH_TRUSTED_PROXIES,
      // Empty: no CORS headers at all (browsers may call the API from its own origin only).
      corsOrigins: v.PUSH_CORS_ORIGINS,
    },
    // What a client may cost the main port (runtime's createHttpServer).
    httpLimits: {
      headersTimeoutMs: v.PUSH_HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: v.PUSH_HTTP_REQUEST_TIMEOUT_MS,
      idleTimeoutMs: v.PUSH_HTTP_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: v.PUSH_HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxHeaderBytes: v.PUSH_HTTP_MAX_HEADER_BYTES,
    },
    // /metrics (and /healthz, /readyz) on a port of its own, which the Ingress does not route.
    metrics: { host: v.PUSH_HOST, port: v.PUSH_METRICS_PORT },
    publicUrl: (v.PUSH_PUBLIC_URL ?? `http://${v.PUSH_HOST}:${v.PUSH_PORT}`).replace(/\/$/, ''),
  }),
  { check },
);
