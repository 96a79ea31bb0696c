/** One POST of one message to one endpoint. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** How one attempt went. */
export type AttemptResult =
  /** The receiver answered (any status: only 2xx is a success). */
  | {
      kind: 'answered';
      status: number;
      latencyMs: number;
      /** At most 4 KiB of the answer. */
      answer: string;
      /** The answer's `Retry-After`, in seconds, when it had one. */
      retryAfterSeconds: number | null;
    }
  /** Not sent: the destination is not allowed (a refused address, scheme, port). */
  | { kind: 'refused'; reason: string }
  /** Sent or not, no answer: DNS, connection, TLS, the deadline. */
  | { kind: 'failed'; reason: string; latencyMs: number };

/** Sends webhook messages to safe destinations only (outbound/webhook-sender.ts). */
export interface WebhookSender {
  post(request: WebhookRequest): Promise<AttemptResult>;
}
