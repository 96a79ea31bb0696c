import type { Provider } from 'oidc-provider';

/**
 * How long this process reuses a client it read from the store, in seconds. oidc-provider looks
 * the client up on every token and introspection request (and introspection once more, for the
 * token's own client): each lookup was a database read plus a SHA-256 of the stored metadata (the
 * provider's key for its parsed clients). A client created, rotated or deleted through this
 * process is forgotten at once; through another (the operator CLI, another replica) the change
 * takes effect here within this time, counted from the moment the old row was read. Clients not
 * found are not remembered (a client created elsewhere works at once).
 */
export const CLIENT_CACHE_SECONDS = 2;
const CLIENT_CACHE_SIZE = 1000;

type Client = NonNullable<Awaited<ReturnType<Provider['Client']['find']>>>;

/**
 * The clients this process has read, by client id, each until its read time plus the TTL. Every
 * change made through this process (`invalidate`, called by the adapter before and after it writes
 * or deletes a client row) also bumps a generation, so that a lookup that was running across the
 * change cannot store what it read before it.
 */
export class ClientCache {
  private readonly entries = new Map<string, { client: Client; until: number }>();
  private generation = 0;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { ttlSeconds?: number; now?: () => number } = {}) {
    this.ttlMs = (options.ttlSeconds ?? CLIENT_CACHE_SECONDS) * 1000;
    this.now = options.now ?? Date.now;
  }

  /** The client when it was read less than the TTL ago and has not changed here since. */
  get(id: string): Client | undefined {
    const hit = this.entries.get(id);
    if (!hit) return undefined;
    if (hit.until > this.now()) return hit.client;
    this.entries.delete(id);
    return undefined;
  }

  /** Reads through `find` (the provider's own lookup) on a miss, and keeps what it found. */
  async find(id: string, find: (id: string) => Promise<Client | undefined>): Promise<Client | undefined> {
    const hit = this.get(id);
    if (hit) return hit;
    const generation = this.generation;
    const readFrom = this.now();
    const client = await find(id);
    if (client && this.ttlMs > 0 && generation === this.generation) {
      if (this.entries.size >= CLIENT_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(id, { client, until: readFrom + this.ttlMs });
    }
    return client;
  }

  /** A client changed through this process: forgotten, and no lookup in flight may store it. */
  invalidate(id: string): void {
    this.generation++;
    this.entries.delete(id);
  }
}

/**
 * Puts `cache` in front of the provider's client lookup (`provider.Client.find`, which every
 * endpoint uses). Its static clients (the account console's) are in memory already.
 */
export function installClientCache(provider: Provider, cache: ClientCache): void {
  const Client = provider.Client as unknown as { find(id: string): Promise<Client | undefined> };
  const find = Client.find.bind(Client);
  Client.find = (id: string) => (typeof id === 'string' ? cache.find(id, find) : find(id));
}
