/** One address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Name resolution for outbound requests (webhooks): every address of a host name. The real one is
 * `dns.promises.lookup(host, { all: true })` (outbound/dns-resolver.ts); tests script the answers.
 */
export interface Resolver {
  lookup(host: string): Promise<ResolvedAddress[]>;
}
