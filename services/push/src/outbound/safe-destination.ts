import ipaddr from 'ipaddr.js';

/*
 * Which addresses a webhook may be sent to. Addresses are parsed and matched with ipaddr.js
 * (rather than by hand): it reads every notation an attacker can use (IPv4 in the IPv6 forms,
 * compressed and zone-scoped IPv6, leading zeros), matches CIDRs for both families, and keeps its
 * named special ranges (IANA's registries) up to date; it is small, dependency-free and is what
 * Express's proxy-addr already relies on.
 *
 * The rule: an address is allowed only when ipaddr.js calls it plain `unicast` (so loopback,
 * private, link-local, CGNAT, 0/8, multicast, broadcast, reserved, unique-local, IPv4-mapped,
 * -translated, 6to4, Teredo… are not), and it is in none of REFUSED (listed again here so the
 * rule does not hang on the library's names, plus cloud metadata addresses that are public).
 * The operator's allow-list (PUSH_WEBHOOK_ALLOWED_DESTINATIONS) lets chosen hosts or CIDRs through.
 */
export const REFUSED_RANGES: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '168.63.129.16/32', // Azure's wire server (metadata, DNS) on a public address
  '::/128',
  '::1/128',
  '::ffff:0:0/96',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '2002::/16',
  '2001::/32',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
];

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const REFUSED: readonly Cidr[] = REFUSED_RANGES.map((r) => ipaddr.parseCIDR(r));

const inRange = (addr: ipaddr.IPv4 | ipaddr.IPv6, [net, bits]: Cidr) =>
  addr.kind() === net.kind() && addr.match(net, bits);

/** The operator's allow-list: host names (exact, any case) and CIDRs. */
export interface AllowList {
  hosts: ReadonlySet<string>;
  ranges: readonly Cidr[];
}

/** Parses `host,10.0.0.0/8,127.0.0.1` (a bare address is its /32 or /128); throws on a bad CIDR. */
export function parseAllowList(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const ranges: Cidr[] = [];
  for (const raw of entries.map((e) => e.trim()).filter(Boolean)) {
    if (raw.includes('/')) ranges.push(ipaddr.parseCIDR(raw));
    else if (ipaddr.isValid(raw)) {
      const a = ipaddr.parse(raw);
      ranges.push([a, a.kind() === 'ipv4' ? 32 : 128]);
    } else hosts.add(raw.toLowerCase());
  }
  return { hosts, ranges };
}

export const EMPTY_ALLOW_LIST: AllowList = { hosts: new Set(), ranges: [] };

/** Why an address is refused (undefined: allowed). */
export function refusedAddress(address: string, allow: AllowList = EMPTY_ALLOW_LIST): string | undefined {
  if (!ipaddr.isValid(address)) return `not an IP address: ${address}`;
  const addr = ipaddr.parse(address);
  if (allow.ranges.some((r) => inRange(addr, r))) return undefined;
  const range = addr.range();
  if (range !== 'unicast') return `${address} is ${range}`;
  if (REFUSED.some((r) => inRange(addr, r))) return `${address} is in a refused range`;
  return undefined;
}

/** Whether a host name is on the operator's allow-list (its addresses are then not checked). */
export const hostAllowed = (host: string, allow: AllowList): boolean => allow.hosts.has(host.toLowerCase());
