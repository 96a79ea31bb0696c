import { createAccountDeletion } from './account-deletion';
import { UserNotFound } from './errors';
import { userPrincipalId } from './user';
import {
  type InMemoryDomain,
  createInMemoryDomain,
  testCtx,
  textPush,
} from '../test/support/in-memory-domain';

// Account deletion over the in-memory ports: what a person owns expires, their tokens stop, they go.

let d: InMemoryDomain;
beforeEach(() => {
  d = createInMemoryDomain();
});

it('expires every push of the person, revokes their tokens and deletes them', async () => {
  const user = await d.users.upsertUser({
    issuer: 'https://idp',
    subject: 's',
    email: null,
    emailVerified: false,
  });
  const owner = userPrincipalId(user.id);
  const { value } = await d.users.createToken(user.id, { name: 'ci', scopes: ['pushes:write'] });
  const mine = await d.pushes.create(textPush(), { owner, audit: testCtx });
  await d.pushes.create(textPush(), { owner, audit: testCtx });
  const theirs = await d.pushes.create(textPush(), { owner: 'user:someone-else', audit: testCtx });
  const deleteAccount = createAccountDeletion({ pushes: d.pushes, users: d.users });

  expect(await deleteAccount(user.id, testCtx)).toBe(2);
  expect((await d.pushes.retrieve(mine.urlToken, undefined, testCtx)).outcome).toBe('expired');
  expect((await d.pushes.preview(mine.urlToken)).push.deleted).toBe(true);
  expect((await d.pushes.preview(theirs.urlToken)).push.expired).toBe(false);
  expect(await d.users.verify(value)).toBeNull();
  await expect(d.users.findUser(user.id)).rejects.toBeInstanceOf(UserNotFound);
  // A later sign-in makes a new, empty user.
  const again = await d.users.upsertUser({
    issuer: 'https://idp',
    subject: 's',
    email: null,
    emailVerified: false,
  });
  expect(again.id).not.toBe(user.id);
  expect(await d.pushes.list(userPrincipalId(again.id), 'active', 1)).toEqual([]);
});

it('is refused for an unknown user after expiring nothing', async () => {
  const deleteAccount = createAccountDeletion({ pushes: d.pushes, users: d.users });
  await expect(deleteAccount('00000000-0000-4000-8000-000000000000', testCtx)).rejects.toBeInstanceOf(
    UserNotFound,
  );
});

it("deletes the person's webhook endpoints before and after the rest", async () => {
  const user = await d.users.upsertUser({
    issuer: 'https://idp',
    subject: 'hooks',
    email: null,
    emailVerified: false,
  });
  const removed: string[] = [];
  const deleteAccount = createAccountDeletion({
    pushes: d.pushes,
    users: d.users,
    webhooks: {
      removeAllOf: (owner) => {
        removed.push(owner);
        return Promise.resolve(0);
      },
    },
  });
  await deleteAccount(user.id, testCtx);
  expect(removed).toEqual([userPrincipalId(user.id), userPrincipalId(user.id)]);
});
