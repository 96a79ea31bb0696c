import { Provider } from 'oidc-provider';
import { TooManyAttempts } from '../errors';
import type { ClientAuthThrottle, PrefetchedClientThrottle } from '../policy/client-auth-throttle';

/** Wraps the secret comparison so a (client, IP) over its limit gets 429 before the secret is compared. */
export function installClientThrottle(provider: Provider, throttle: ClientAuthThrottle): void {
  type Compare = (this: { clientId: string }, actual: string) => Promise<boolean>;
  const proto = provider.Client.prototype as unknown as { compareClientSecret: Compare };
  const compare = proto.compareClientSecret;
  proto.compareClientSecret = async function throttledCompare(actual: string) {
    const ctx = Provider.ctx;
    const pre = (ctx?.state as { clientThrottle?: PrefetchedClientThrottle } | undefined)?.clientThrottle;
    const wait =
      pre?.clientId === this.clientId
        ? pre.wait
        : await throttle.clientBlockedFor(this.clientId, ctx?.ip ?? 'unknown');
    if (wait > 0) {
      ctx?.set('Retry-After', String(wait));
      throw new TooManyAttempts(wait);
    }
    return compare.call(this, actual);
  };
}
