import type fc from 'fast-check';
import type { HttpRequest, HttpResult } from './http-send';

/*
 * The suite's endpoints by name, with their shares of the inputs, and what an endpoint is (its
 * input generator and its judgements): the generators are in endpoints.ts and page-endpoints.ts.
 */

/** Each endpoint's share of the inputs (out of the sum), and the order the suite runs them in. */
export const ENDPOINT_WEIGHTS = {
  'POST /pushes': 18,
  'GET /pushes/:t': 8,
  'POST /pushes/:t/reveal': 7,
  'GET /pushes/:t/preview': 6,
  'GET /pushes/:t/audit': 6,
  'POST /pushes/:t/notify_emails': 4,
  'DELETE /pushes/:t': 5,
  'GET /pushes/active': 4,
  'GET /pushes/expired': 4,
  'GET /files/:id': 3,
  'GET /version': 4,
  'GET /openapi': 1.5,
  'GET /docs': 1.5,
  'POST /webhooks': 4,
  'PATCH /webhooks/:id': 3,
  'GET /webhooks[/:id[/deliveries[/:msg]]]': 2.5,
  'POST /webhooks/:id/(rotate|test|replay) and DELETE': 2.5,
  'POST /requests': 4,
  'GET /requests[/active|open|answered|ready|closed]': 2,
  'GET /requests/:t': 1.5,
  'GET /requests/:t/(preview|audit)': 2,
  'DELETE /requests/:t': 1.5,
  'GET /requests/:t/respond': 2,
  'POST|PATCH /requests/:t/respond': 4,
  'POST /requests/:t/code': 2,
  'GET /requests/:t/files/:id': 2,
  'GET /p/:t': 4,
  'GET /p/:t/r': 3,
  'POST /p/:t[/r]': 5,
  'POST /p/:t/delete': 3,
  'GET /f/:t, /r/:t (legacy)': 1.5,
  'GET /': 1.5,
  'POST /': 5,
  // The anonymous pages of issue 29 (page-endpoints.ts).
  'GET /respond/:t[/done]': 2.5,
  'POST /respond/:t': 4,
  'POST /respond/:t/code': 1.5,
  'GET /respond/:t/files/:id': 1.5,
  'GET /receipt/:r[/expire]': 2,
  'POST /receipt/:r/expire': 2,
  'GET /files/archive': 2.5,
  'GET /about and trailing punctuation': 1,
  'POST /language': 1.5,
  'POST /connect/token': 6,
  'POST /connect/introspect': 5,
  'POST /connect/revocation': 4,
  'GET discovery': 2,
  'GET /.well-known/jwks': 1.5,
} as const;

export type EndpointName = keyof typeof ENDPOINT_WEIGHTS;

/** Inputs per endpoint for a total: each share rounded up, so the sum is at least `total`. */
export function allocate(total: number): Record<EndpointName, number> {
  const names = Object.keys(ENDPOINT_WEIGHTS) as EndpointName[];
  const sum = names.reduce((n, k) => n + ENDPOINT_WEIGHTS[k], 0);
  return Object.fromEntries(
    names.map((k) => [k, Math.max(1, Math.ceil((total * ENDPOINT_WEIGHTS[k]) / sum))]),
  ) as Record<EndpointName, number>;
}

export interface FuzzInput {
  /** The generator branch (body family, or path/query shape), to tell failures apart. */
  family: string;
  request: HttpRequest;
}

export interface Endpoint {
  name: EndpointName;
  service: 'push' | 'auth';
  reached(status: number, body: Buffer): boolean;
  input: fc.Arbitrary<FuzzInput>;
  /**
   * The responder's pages (page-endpoints.ts): a refusal (any 4xx) may add up to this many request
   * audit entries (the refusal's own, and `link_opened` when the form is shown again) and must
   * change nothing else. Undefined: the runner's general rules.
   */
  refusalAudits?: number;
  /** A judgement of an answer beyond status and state (a problem's description), if any. */
  verdict?: (res: HttpResult) => string | undefined;
}

/**
 * Whether this is a multipart request: the only kind that can store objects, and whose uploads
 * may still be cancelled and cleaned up after a refusal went out (the runner waits for quiet).
 */
export const isMultipart = (input: FuzzInput): boolean =>
  input.request.headers.some(([k, v]) => k.toLowerCase() === 'content-type' && /multipart/i.test(v));
