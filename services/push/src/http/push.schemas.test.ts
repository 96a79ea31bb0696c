import { HttpError } from '@secret-push/http-kit';
import type { PushKind } from '../domain/push';
import {
  type CreateRules,
  MAX_LABEL,
  MAX_QR_PAYLOAD,
  MAX_TEXT_PAYLOAD,
  exceedsCodePoints,
  parseCreateBody,
} from './push.schemas';

const rules: CreateRules = Object.freeze({
  days: { default: 7, min: 1, max: 90 },
  views: { default: 5, min: 1, max: 100 },
  retrievalStepDefault: true,
  deletableByViewerDefault: true,
  enabledKinds: new Set<PushKind>(['text', 'url', 'qr', 'file']),
});

/** The field map of the 422 that `push` gets, or undefined when it is accepted. */
function fieldsOf(push: Record<string, unknown>): Record<string, string[]> | undefined {
  try {
    parseCreateBody({ push }, rules);
    return undefined;
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 422) throw err;
    return err.options.fields;
  }
}

describe('exceedsCodePoints', () => {
  const pieces = ['a', 'é', '✓', '😀', '\ud800', '\udc00', '\udbff\udfff'];

  it('agrees with [...s].length (lone surrogates counted as one) around the bound', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 500; i++) {
      const s = Array.from(
        { length: Math.floor(random() * 24) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join('');
      const length = [...s].length;
      for (const max of [0, 1, length - 1, length, length + 1].filter((m) => m >= 0)) {
        expect({ s, max, exceeds: exceedsCodePoints(s, max) }).toEqual({ s, max, exceeds: length > max });
      }
    }
  });

  it('decides a 16-million-unit string without reading it', () => {
    const huge = 'a'.repeat(16_000_000);
    const started = performance.now();
    for (let i = 0; i < 1000; i++) exceedsCodePoints(huge, MAX_TEXT_PAYLOAD);
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe('create bounds, in code points', () => {
  it('takes every string field at its bound in astral characters, and refuses one more', () => {
    const astral = (n: number) => '😀'.repeat(n);
    expect(fieldsOf({ payload: astral(MAX_TEXT_PAYLOAD) })).toBeUndefined();
    expect(fieldsOf({ kind: 'qr', payload: astral(MAX_QR_PAYLOAD) })).toBeUndefined();
    expect(
      fieldsOf({
        payload: 'x',
        name: astral(MAX_LABEL),
        note: astral(MAX_LABEL),
        passphrase: astral(MAX_LABEL),
      }),
    ).toBeUndefined();
    expect(fieldsOf({ payload: astral(MAX_TEXT_PAYLOAD + 1) })).toEqual({
      payload: [expect.stringMatching(/too large/)],
    });
    expect(
      fieldsOf({
        payload: 'x',
        name: astral(MAX_LABEL + 1),
        note: astral(MAX_LABEL + 1),
        passphrase: astral(MAX_LABEL + 1),
      }),
    ).toEqual({
      name: [`name must be at most ${MAX_LABEL} characters`],
      note: [`note must be at most ${MAX_LABEL} characters`],
      passphrase: [`must be at most ${MAX_LABEL} characters`],
    });
  });

  it('refuses NUL in the name (stored as text) and keeps it in sealed fields', () => {
    expect(fieldsOf({ payload: 'x', name: 'a\u0000b' })).toEqual({
      name: ['name must not contain NUL characters'],
    });
    expect(fieldsOf({ payload: 'a\u0000b', note: 'c\u0000d', passphrase: 'e\u0000f' })).toBeUndefined();
  });

  it('bounds the payload of every kind: a file push and a URL by the text limit', () => {
    const over = 'a'.repeat(MAX_TEXT_PAYLOAD + 1);
    expect(fieldsOf({ kind: 'file', payload: over })?.payload).toEqual([expect.stringMatching(/too large/)]);
    expect(fieldsOf({ kind: 'url', payload: `https://example.test/${over}` })?.payload).toEqual([
      expect.stringMatching(/too large/),
    ]);
    expect(fieldsOf({ kind: 'file', payload: '   ' })).toBeUndefined(); // optional, may be blank
    expect(fieldsOf({ kind: 'file' })).toBeUndefined();
  });

  it('refuses a 16-million-character payload, blank or not, before any work proportional to it', () => {
    for (const payload of ['a'.repeat(16_000_000), ' '.repeat(16_000_000)]) {
      const started = performance.now();
      expect(fieldsOf({ payload })?.payload).toEqual([expect.stringMatching(/too large/)]);
      expect(performance.now() - started).toBeLessThan(50);
    }
  });

  it('reads boolean words without lower-casing long strings', () => {
    expect(fieldsOf({ payload: 'x', retrieval_step: 'CHECKED' })).toBeUndefined();
    expect(fieldsOf({ payload: 'x', retrieval_step: 'checked!' })?.retrieval_step).toHaveLength(1);
    expect(
      fieldsOf({ payload: 'x', deletable_by_viewer: 'y'.repeat(1_000_000) })?.deletable_by_viewer,
    ).toHaveLength(1);
  });
});
