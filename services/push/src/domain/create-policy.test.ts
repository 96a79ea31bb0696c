import {
  ANONYMOUS,
  type Actor,
  type CreateDecision,
  type CreateFeatures,
  holds,
  mayCreate,
  ownerOf,
} from './create-policy';
import type { PushKind } from './push';

// mayCreate's truth table, written out row by row (not recomputed from the rule), for every kind
// of actor: a token (with or without pushes:write), a person's session, nobody.

const writer: Actor = { kind: 'token', id: 'client:w', scopes: new Set(['pushes:read', 'pushes:write']) };
const reader: Actor = { kind: 'token', id: 'user:r', scopes: new Set(['pushes:read']) };
const scopeless: Actor = { kind: 'token', id: 'client:none', scopes: new Set() };
const person: Actor = { kind: 'session', id: 'user:p' };

const OK: CreateDecision = { ok: true };
const AUTH: CreateDecision = { ok: false, reason: 'authentication_required' };
const FILES_AUTH: CreateDecision = { ok: false, reason: 'files_need_authentication' };
const SCOPE: CreateDecision = { ok: false, reason: 'missing_scope' };

const ALL_FEATURES: CreateFeatures[] = [
  { anonymousCreate: true, fileRequiresAuth: true },
  { anonymousCreate: true, fileRequiresAuth: false },
  { anonymousCreate: false, fileRequiresAuth: true },
  { anonymousCreate: false, fileRequiresAuth: false },
];
const ALL_KINDS: (PushKind | undefined)[] = ['text', 'url', 'qr', 'file', undefined];

describe('mayCreate: a token', () => {
  const rows = ALL_FEATURES.flatMap((features) => ALL_KINDS.map((kind) => ({ features, kind })));

  it.each(rows)(
    'with pushes:write may create $kind whatever the features ($features)',
    ({ features, kind }) => {
      expect(mayCreate(writer, kind, features)).toEqual(OK);
    },
  );

  it.each(rows)('without pushes:write may not create $kind ($features)', ({ features, kind }) => {
    expect(mayCreate(reader, kind, features)).toEqual(SCOPE);
    expect(mayCreate(scopeless, kind, features)).toEqual(SCOPE);
  });

  it('needs exactly the pushes:write scope (not a look-alike)', () => {
    const lookAlike: Actor = {
      kind: 'token',
      id: 'client:x',
      scopes: new Set(['pushes:write:all', 'PUSHES:WRITE', 'pushes']),
    };
    expect(mayCreate(lookAlike, 'text', ALL_FEATURES[0]!)).toEqual(SCOPE);
  });
});

describe("mayCreate: a person's session", () => {
  const rows = ALL_FEATURES.flatMap((features) => ALL_KINDS.map((kind) => ({ features, kind })));

  it.each(rows)('may create $kind whatever the features ($features)', ({ features, kind }) => {
    expect(mayCreate(person, kind, features)).toEqual(OK);
  });
});

describe('mayCreate: nobody (anonymous)', () => {
  // [anonymousCreate, fileRequiresAuth, kind, decision]
  const table: [boolean, boolean, PushKind | undefined, CreateDecision][] = [
    [true, true, 'text', OK],
    [true, true, 'url', OK],
    [true, true, 'qr', OK],
    [true, true, 'file', FILES_AUTH],
    [true, true, undefined, OK],

    [true, false, 'text', OK],
    [true, false, 'url', OK],
    [true, false, 'qr', OK],
    [true, false, 'file', OK],
    [true, false, undefined, OK],

    [false, true, 'text', AUTH],
    [false, true, 'url', AUTH],
    [false, true, 'qr', AUTH],
    [false, true, 'file', FILES_AUTH],
    // the kind is not known yet: anonymous callers are judged once it is
    [false, true, undefined, OK],

    [false, false, 'text', AUTH],
    [false, false, 'url', AUTH],
    [false, false, 'qr', AUTH],
    [false, false, 'file', AUTH],
    [false, false, undefined, OK],
  ];

  it('covers every kind and feature combination', () => {
    expect(table).toHaveLength(ALL_FEATURES.length * ALL_KINDS.length);
  });

  it.each(table)(
    'anonymousCreate=%s fileRequiresAuth=%s kind=%s → %o',
    (anonymousCreate, fileRequiresAuth, kind, decision) => {
      expect(mayCreate(ANONYMOUS, kind, { anonymousCreate, fileRequiresAuth })).toEqual(decision);
    },
  );
});

describe('ownerOf and holds', () => {
  it('records a token or a session as its id, nobody as null', () => {
    expect(ownerOf(writer)).toBe('client:w');
    expect(ownerOf(person)).toBe('user:p');
    expect(ownerOf(ANONYMOUS)).toBeNull();
  });

  it("gives a token its own scopes, a person's session every scope, nobody none", () => {
    expect(holds(writer, 'pushes:write')).toBe(true);
    expect(holds(reader, 'pushes:write')).toBe(false);
    expect(holds(reader, 'pushes:read')).toBe(true);
    expect(holds(person, 'pushes:write')).toBe(true);
    expect(holds(person, 'pushes:read')).toBe(true);
    expect(holds(ANONYMOUS, 'pushes:read')).toBe(false);
    expect(holds(ANONYMOUS, 'pushes:write')).toBe(false);
  });
});
