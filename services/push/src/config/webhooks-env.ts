import ipaddr from 'ipaddr.js';

import { envBoolean, envCsv, envInt, envSection } from '@secret-push/config';

/** Host names or CIDRs (a bare address: itself); each checked here so a typo stops the start-up. */
const destinations = () =>
  envCsv().superRefine((entries, ctx) => {
    for (const entry of entries) {
      const ok = entry.includes('/')
        ? ipaddr.isValidCIDR(entry)
        : ipaddr.isValid(entry) || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(entry);
      if (!ok) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is neither a host name nor an address or CIDR (e.g. hooks.internal, 10.1.0.0/16)`,
        });
      }
    }
  });

/** Where webhooks may go (`webhooks`): read by the API (a URL's scheme at create) and the worker (each send). */
export const webhookDestinationsSection = envSection(
  'Webhook destinations',
  {
    PUSH_WEBHOOK_ALLOW_HTTP: envBoolean()
      .default(false)
      .describe('Accept `http://` webhook URLs (development, internal receivers); otherwise only `https://`'),
    PUSH_WEBHOOK_ALLOWED_DESTINATIONS: destinations()
      .default([])
      .describe(
        'Host names and CIDRs (comma-separated) webhooks may reach although they are private: every ' +
          'other loopback, private, link-local, CGNAT, multicast, metadata or IPv4-in-IPv6 address is ' +
          'refused when sending, whatever the name resolves to. Empty in production',
      )
      .meta({ defaultText: 'empty' }),
  },
  (v) => ({
    webhooks: {
      allowHttp: v.PUSH_WEBHOOK_ALLOW_HTTP,
      allowedDestinations: v.PUSH_WEBHOOK_ALLOWED_DESTINATIONS,
    },
  }),
);

/** The worker's delivery of webhooks (`webhookDelivery`). */
export const webhookDeliverySection = envSection(
  'Webhook delivery',
  {
    PUSH_WEBHOOK_INTERVAL_MS: envInt(50, 60_000)
      .default(1000)
      .describe('How often each worker looks for webhook deliveries that are due (in the background)'),
    PUSH_WEBHOOK_CONCURRENCY: envInt(1, 256)
      .default(8)
      .describe('Deliveries each worker sends at once (each has a 10 s deadline)'),
  },
  (v) => ({
    webhookDelivery: { intervalMs: v.PUSH_WEBHOOK_INTERVAL_MS, concurrency: v.PUSH_WEBHOOK_CONCURRENCY },
  }),
);

export type WebhookDestinations = { allowHttp: boolean; allowedDestinations: string[] };
