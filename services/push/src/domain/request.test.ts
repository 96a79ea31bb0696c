import { mayCreateRequest } from './create-policy';
import {
  type SecretRequest,
  answerPushInput,
  daysRemaining,
  isGoneForResponder,
  mayAnswer,
  statesOf,
} from './request';

const NOW = new Date('2026-11-27T12:00:00Z');
const DAY = 86_400_000;

function request(over: Partial<SecretRequest> = {}): SecretRequest {
  return {
    id: 'r1',
    owner: 'user:o',
    state: 'open',
    name: 'n',
    passphraseProtected: false,
    responseFileAttachments: false,
    includeRequestor: false,
    requestorEmail: null,
    answerableBy: 'anyone',
    answerableEmails: [],
    closeAfterAt: new Date(NOW.getTime() + 2.5 * DAY),
    window: { closeAfterDuration: null, expireAfterDays: 3, expireAfterDuration: null },
    answer: {
      expireAfterViews: 1,
      expireAfterDays: null,
      expireAfterDuration: 1,
      retrievalStep: true,
      deletableByViewer: true,
    },
    answerPushId: null,
    notifyOwnerOnAnswer: false,
    emailLocale: null,
    attachmentDownloads: 3,
    auditDropped: 0,
    createdAt: NOW,
    updatedAt: NOW,
    answeredAt: null,
    closedAt: null,
    closedReason: null,
    ...over,
  };
}

describe('request rules', () => {
  test('lists: active is open and answered, ready is answered', () => {
    expect(statesOf('active')).toEqual(['open', 'answered']);
    expect(statesOf('ready')).toEqual(['answered']);
    expect(statesOf('closed')).toEqual(['closed']);
  });

  test('gone for the responder: closed, or open past its window; an answered one is not gone', () => {
    expect(isGoneForResponder(request(), NOW)).toBe(false);
    expect(isGoneForResponder(request({ state: 'closed' }), NOW)).toBe(true);
    expect(isGoneForResponder(request({ closeAfterAt: NOW }), NOW)).toBe(true);
    expect(isGoneForResponder(request({ state: 'answered', closeAfterAt: NOW }), NOW)).toBe(false);
  });

  test('days remaining round up, 0 when closed', () => {
    expect(daysRemaining(request(), NOW)).toBe(3);
    expect(daysRemaining(request({ state: 'closed' }), NOW)).toBe(0);
  });

  test('who may answer', () => {
    expect(mayAnswer(request(), { kind: 'anonymous' })).toEqual({ ok: true });
    const users = request({ answerableBy: 'users' });
    expect(mayAnswer(users, { kind: 'anonymous' })).toEqual({ ok: false, reason: 'user_required' });
    expect(mayAnswer(users, { kind: 'client', id: 'client:c' })).toEqual({ ok: false, reason: 'not_a_user' });
    expect(mayAnswer(users, { kind: 'user', id: 'user:u', email: null })).toEqual({ ok: true });
    const emails = request({ answerableBy: 'emails', answerableEmails: ['a@example.test'] });
    expect(mayAnswer(emails, { kind: 'user', id: 'user:u', email: 'a@example.test' })).toEqual({
      ok: false,
      reason: 'code_required',
    });
    expect(mayAnswer(emails, { kind: 'anonymous' }, true)).toEqual({ ok: true });
  });

  test('the answer push takes the answer limits: a duration index, or days', () => {
    const byDuration = answerPushInput(request(), { kind: 'text', payload: 's' }, [900, 1800]);
    expect(byDuration).toMatchObject({
      ttlSeconds: 1800,
      expireAfterDays: 1,
      expireAfterViews: 1,
      passphrase: null,
    });
    const byDays = answerPushInput(
      request({ answer: { ...request().answer, expireAfterDays: 4, expireAfterDuration: null } }),
      { kind: 'url', payload: 'https://example.test/' },
      [],
    );
    expect(byDays).toMatchObject({ ttlSeconds: 4 * 86_400, expireAfterDays: 4, deletableByViewer: null });
  });

  test('only someone may create a request: a token with pushes:write or a session', () => {
    expect(mayCreateRequest({ kind: 'anonymous' })).toEqual({ ok: false, reason: 'authentication_required' });
    expect(mayCreateRequest({ kind: 'token', id: 'c', scopes: new Set(['pushes:read']) })).toEqual({
      ok: false,
      reason: 'missing_scope',
    });
    expect(mayCreateRequest({ kind: 'token', id: 'c', scopes: new Set(['pushes:write']) })).toEqual({
      ok: true,
    });
    expect(mayCreateRequest({ kind: 'session', id: 'user:u' })).toEqual({ ok: true });
  });
});
