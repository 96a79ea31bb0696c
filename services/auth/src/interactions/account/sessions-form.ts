import { endOtherSessions } from '../../storage/oidc-payload.repository';
import type { AccountKit } from './account-views';
import { type AccountMiddleware, signedInPerson } from './signed-in';

/**
 * `POST /account/sessions`: ends every other provider session of the account and revokes the
 * grants (and so refresh tokens) not held by this one.
 */
export function sessionsForm({ deps, views }: AccountKit): AccountMiddleware {
  return async (ctx) => {
    const who = signedInPerson(ctx);
    const authorizations = (who.session.authorizations ?? {}) as Record<string, { grantId?: string }>;
    const keep = Object.values(authorizations).flatMap((a) => (a.grantId ? [a.grantId] : []));
    const ended = await endOtherSessions(deps.db, who.account.id, who.session.jti, keep);
    deps.logger.info(
      { ip: ctx.ip, account_id: who.account.id, sessions: ended },
      'account console: other sessions ended',
    );
    views.backTo(ctx, 'sessions');
  };
}
