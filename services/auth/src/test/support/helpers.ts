import request from 'supertest';
import type { ClientCredentials } from '../../testing';

export const basic = (c: { client_id: string; client_secret: string }) =>
  `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`;

/** POST a form to the auth service with Basic client authentication. */
export function postForm(
  issuer: string,
  path: string,
  form: Record<string, string>,
  client?: ClientCredentials,
) {
  const req = request(issuer).post(path).type('form');
  if (client) void req.set('Authorization', basic(client));
  return req.send(form);
}

export function introspect(issuer: string, rs: ClientCredentials, token: string) {
  return postForm(issuer, '/connect/introspect', { token }, rs);
}
