import { promises as dns } from 'node:dns';
import type { Resolver } from '../domain/ports/resolver';

/** The system resolver (getaddrinfo): every address of a name, as the sender then checks them. */
export const dnsResolver: Resolver = {
  async lookup(host) {
    const answers = await dns.lookup(host, { all: true, verbatim: true });
    return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
};
