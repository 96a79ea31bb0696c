import { IssuerUnavailable, type RelyingParty } from './relying-party';

/*
 * The sign-in provider's accounts, as far as it lets this application see them. Our own auth
 * service advertises two non-standard fields in its discovery document:
 *
 * - `secret_push_accounts_endpoint`: `GET <endpoint>/<sub>` answers whether the person's account
 *   is active (200 `{"sub","active"}`, 404 when it no longer exists), for first-party applications
 *   authenticated with their client id and secret (HTTP Basic, both form-urlencoded first, as at
 *   the token endpoint); `DELETE <endpoint>/<sub>` deletes it, only with the person's own access
 *   token (`Authorization: Bearer`) from a sign-in at most a few minutes old;
 * - `secret_push_account_page`: where a person changes their password and second factor.
 *
 * Any other OpenID provider has neither: then nothing here is checked or deleted at the provider
 * (its users are signed out at the first failed refresh, and an operator disables them here with
 * `secret-push-push users disable`).
 */

export interface IssuerAccountsSettings {
  clientId: string;
  clientSecret: string;
  /** Deadline of each request to the provider, in seconds. */
  timeoutSeconds: number;
}

/** What the provider says about an account. */
export type AccountStatus = 'active' | 'inactive' | 'gone';

export interface IssuerAccounts {
  /** Whether the provider has an accounts endpoint (our auth service does). */
  supported(): Promise<boolean>;
  /** The provider's answer for `subject`; throws IssuerUnavailable when it does not give one. */
  status(subject: string): Promise<AccountStatus>;
  /**
   * Deletes the account at the provider with the person's own access token (from a recent
   * sign-in); done also when it was already gone.
   */
  remove(subject: string, accessToken: string): Promise<void>;
  /** The provider's own account page (password, second factor), when it has one. */
  accountPage(): Promise<string | undefined>;
}

const ENDPOINT_FIELD = 'secret_push_accounts_endpoint';
const PAGE_FIELD = 'secret_push_account_page';

export function createIssuerAccounts(
  relyingParty: Pick<RelyingParty, 'metadata'>,
  settings: IssuerAccountsSettings,
): IssuerAccounts {
  const basic = `Basic ${Buffer.from(
    `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`,
  ).toString('base64')}`;

  async function field(name: string): Promise<string | undefined> {
    const value = (await relyingParty.metadata())[name];
    return typeof value === 'string' && /^https?:\/\//.test(value) ? value : undefined;
  }

  async function call(method: 'GET' | 'DELETE', subject: string, authorization = basic): Promise<Response> {
    const endpoint = await field(ENDPOINT_FIELD);
    if (!endpoint) throw new Error('the sign-in provider has no accounts endpoint');
    let res: Response;
    try {
      res = await fetch(`${endpoint}/${encodeURIComponent(subject)}`, {
        method,
        headers: { authorization, accept: 'application/json' },
        signal: AbortSignal.timeout(settings.timeoutSeconds * 1000),
        redirect: 'error',
      });
    } catch (err) {
      throw new IssuerUnavailable('The sign-in provider did not answer', { cause: err });
    }
    // 401/403 mean our own credentials are wrong: an operator's mistake, never the user's answer.
    if (res.status >= 500 || res.status === 429 || res.status === 401 || res.status === 403) {
      await res.body?.cancel();
      throw new IssuerUnavailable(`The sign-in provider's accounts endpoint answered ${res.status}`);
    }
    return res;
  }

  return {
    supported: async () => (await field(ENDPOINT_FIELD)) !== undefined,

    async status(subject) {
      const res = await call('GET', subject);
      if (res.status === 404) {
        await res.body?.cancel();
        return 'gone';
      }
      const body = (await res.json().catch(() => undefined)) as { active?: unknown } | undefined;
      if (res.status !== 200 || typeof body?.active !== 'boolean') {
        throw new IssuerUnavailable(`The sign-in provider's accounts endpoint answered ${res.status}`);
      }
      return body.active ? 'active' : 'inactive';
    },

    async remove(subject, accessToken) {
      const res = await call('DELETE', subject, `Bearer ${accessToken}`).catch(async (err: unknown) => {
        // A 401 can be a repeated request whose token died with the account: then it is done.
        if ((await this.status(subject).catch(() => undefined)) === 'gone') return undefined;
        throw err;
      });
      await res?.body?.cancel();
      if (res && res.status !== 204 && res.status !== 200 && res.status !== 404) {
        throw new IssuerUnavailable(`The sign-in provider's accounts endpoint answered ${res.status}`);
      }
    },

    accountPage: () => field(PAGE_FIELD),
  };
}
