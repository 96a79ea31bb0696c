import type { AuditContext } from './push';
import type { PushService } from './push-service';
import { userPrincipalId } from './user';
import type { WebhookEndpointStore } from './ports/webhook-store';
import type { UserTokenService } from './user-tokens';

export interface AccountDeletionDeps {
  pushes: Pick<PushService, 'expireAllOwnedBy'>;
  users: Pick<UserTokenService, 'disableUser' | 'deleteUser'>;
  /** Their webhook endpoints (absent: none to delete). */
  webhooks?: Pick<WebhookEndpointStore, 'removeAllOf'>;
}

/**
 * A person deletes their account here: every push they own expires at once (nothing of theirs is
 * served after this returns), every personal token of theirs stops working, and the user is
 * deleted (signing in again later makes a new, empty user). In that order, each step safe to
 * repeat after a failure: expire, disable (revokes every token at once and refuses new ones), expire
 * again (a push created with a token between the first two steps), delete. Ending their web
 * sessions and deleting their account at the sign-in provider are the caller's (the web app's).
 * Their webhook endpoints go first (nothing about their pushes is sent once this returns; a
 * message being sent at that moment may still arrive), and again at the end (one made meanwhile).
 * Returns how many pushes were still active.
 */
export function createAccountDeletion(deps: AccountDeletionDeps) {
  return async function deleteAccount(userId: string, ctx: AuditContext): Promise<number> {
    const owner = userPrincipalId(userId);
    await deps.webhooks?.removeAllOf(owner);
    let expired = await deps.pushes.expireAllOwnedBy(owner, ctx);
    await deps.users.disableUser(userId);
    expired += await deps.pushes.expireAllOwnedBy(owner, ctx);
    await deps.users.deleteUser(userId);
    await deps.webhooks?.removeAllOf(owner);
    return expired;
  };
}

export type DeleteAccount = ReturnType<typeof createAccountDeletion>;
