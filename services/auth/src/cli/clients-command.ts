import {
  type ClientAdminDeps,
  ClientAdminError,
  type IssuedCredentials,
  createClient,
  createResourceServer,
  createWebClient,
  deleteClient,
  listClients,
  rotateSecret,
} from '../clients/client-admin';
import type { CliIo } from './cli-io';

export interface ClientsOptions {
  name?: string;
  scopes?: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  json: boolean;
}

function printCredentials(
  io: CliIo,
  creds: IssuedCredentials & { redirect_uris?: string[]; post_logout_redirect_uris?: string[] },
  json: boolean,
): void {
  if (json) return io.out(JSON.stringify(creds));
  io.out(`client_id:     ${creds.client_id}`);
  io.out(`client_secret: ${creds.client_secret}`);
  if (creds.scope) io.out(`scope:         ${creds.scope}`);
  for (const uri of creds.redirect_uris ?? []) io.out(`redirect_uri:  ${uri}`);
  for (const uri of creds.post_logout_redirect_uris ?? []) io.out(`post_logout_redirect_uri: ${uri}`);
  io.out('The secret is shown only now; it is stored as a hash.');
}

/**
 * `secret-push-auth clients <command>`: create (API, resource server, web), list, rotate-secret,
 * delete. Returns the exit code; 2 asks the caller to print the usage.
 */
export async function runClientsCommand(
  admin: ClientAdminDeps,
  io: CliIo,
  command: string | undefined,
  arg: string | undefined,
  opts: ClientsOptions,
): Promise<number> {
  switch (command) {
    case 'create':
      if (!opts.name || !opts.scopes) {
        throw new ClientAdminError('clients create needs --name and --scopes');
      }
      printCredentials(io, await createClient(admin, { name: opts.name, scopes: opts.scopes }), opts.json);
      return 0;
    case 'create-resource-server':
      printCredentials(io, await createResourceServer(admin, { name: opts.name ?? 'push-api' }), opts.json);
      return 0;
    case 'create-web':
      if (!opts.name || !opts.redirectUris.length) {
        throw new ClientAdminError('clients create-web needs --name and at least one --redirect-uri');
      }
      printCredentials(
        io,
        await createWebClient(admin, {
          name: opts.name,
          redirectUris: opts.redirectUris,
          postLogoutRedirectUris: opts.postLogoutRedirectUris,
        }),
        opts.json,
      );
      return 0;
    case 'list': {
      const clients = await listClients(admin.db);
      if (opts.json) io.out(JSON.stringify(clients));
      else {
        for (const c of clients) {
          const kind = c.resource_server
            ? '(resource server)'
            : c.web
              ? `(web) ${(c.redirect_uris ?? []).join(' ')}`
              : c.scope;
          io.out(`${c.client_id}\t${c.name}\t${kind}`);
        }
      }
      return 0;
    }
    case 'rotate-secret':
      if (!arg) throw new ClientAdminError('clients rotate-secret needs a CLIENT_ID');
      printCredentials(io, await rotateSecret(admin.db, arg), opts.json);
      return 0;
    case 'delete': {
      if (!arg) throw new ClientAdminError('clients delete needs a CLIENT_ID');
      const { tokensRevoked } = await deleteClient(admin.db, arg);
      io.out(`deleted ${arg}; ${tokensRevoked} live token(s) revoked`);
      return 0;
    }
    case undefined:
    default:
      return 2;
  }
}
