import proxyAddr from 'proxy-addr';
import { z } from 'zod';
import { envCsv } from '@secret-push/config';

/**
 * The proxies whose `X-Forwarded-For` is believed: IP addresses and CIDR ranges (IPv4 or IPv6), or
 * proxy-addr's names `loopback`, `linklocal`, `uniquelocal` (as Express's `trust proxy`). Each entry
 * is checked here, so a typo stops the start-up instead of trusting nothing (or everything).
 */
export const trustedProxies = () =>
  envCsv().superRefine((entries, ctx) => {
    for (const entry of entries) {
      try {
        proxyAddr.compile(entry);
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, 192.0.2.7, fd00::/8)`,
        });
      }
    }
  });

const FALSE = ['false', '0', 'no', 'off'];

/**
 * `AUTH_TRUST_PROXY=true` believed the leftmost `X-Forwarded-For` entry from any caller, so anyone
 * could name any address (and have it throttled). It is refused rather than ignored, so that a
 * deployment that relied on it is told what replaces it; `false` (what nothing set means) passes.
 */
export const removedTrustProxy = () =>
  z
    .string()
    .refine(
      (v) => FALSE.includes(v.trim().toLowerCase()),
      'no longer supported (it believed X-Forwarded-For from any caller): list the proxies whose ' +
        'X-Forwarded-For is believed in AUTH_TRUSTED_PROXIES (comma-separated IPs or CIDRs, e.g. the ' +
        "ingress controller's pod network) and remove AUTH_TRUST_PROXY",
    )
    .optional();
