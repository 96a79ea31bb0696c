import { z } from 'zod';
import type { PushConfig } from '../../config';
import {
  DURATIONS,
  FALSE_WORDS,
  MAX_QR_PAYLOAD,
  MAX_TEXT_PAYLOAD,
  TRUE_WORDS,
  pushInputSchema,
} from '../push.schemas';
import type { JsonSchema } from './types';

/*
 * The JSON Schema of the create body, derived from the zod schema that validates requests
 * (push.schemas.ts), with the coercions zod cannot describe restored and the fields documented
 * from instance configuration.
 */

/**
 * The words push.schemas.ts reads as booleans, in any case (a refinement that JSON Schema cannot
 * see), each true word followed by its false counterpart: true, false, 1, 0, … as the docs list them.
 */
export const BOOLEAN_WORDS: readonly string[] = Array.from(
  { length: Math.max(TRUE_WORDS.length, FALSE_WORDS.length) },
  (_, i) => [TRUE_WORDS[i], FALSE_WORDS[i]],
)
  .flat()
  .filter((word): word is string => word !== undefined);

const anyCase = (word: string) =>
  [...word]
    .map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toLowerCase()}${c.toUpperCase()}]`))
    .join('');

export const BOOLEAN_LIKE: JsonSchema = {
  anyOf: [
    { type: 'boolean' },
    { enum: [0, 1] },
    { type: 'string', pattern: `^(?:${BOOLEAN_WORDS.map(anyCase).join('|')})$` },
  ],
};

interface DigitBlock {
  head: string;
  low: number;
  high: number;
  zeros: number;
}

/** Splits [min, max] (min ≥ 1) into blocks `head + [low-high] + \d{zeros}`, merging neighbours. */
function digitBlocks(min: number, max: number): DigitBlock[] {
  const blocks: DigitBlock[] = [];
  for (let n = min; n <= max;) {
    let size = 1;
    while (n % (size * 10) === 0 && n + size * 10 - 1 <= max) size *= 10;
    const digits = String(n / size);
    const block = { head: digits.slice(0, -1), low: Number(digits.at(-1)), zeros: Math.log10(size) };
    const last = blocks.at(-1);
    if (last && last.head === block.head && last.zeros === block.zeros && last.high + 1 === block.low) {
      last.high = block.low;
    } else blocks.push({ ...block, high: block.low });
    n += size;
  }
  return blocks;
}

const renderBlock = ({ head, low, high, zeros }: DigitBlock) =>
  `${head}${low === high ? low : `[${low}-${high}]`}${zeros === 0 ? '' : zeros === 1 ? '\\d' : `\\d{${zeros}}`}`;

/**
 * The decimal strings zod's integer-string branch accepts for [min, max] (0 ≤ min ≤ max): leading
 * zeros allowed, and `-0` when 0 is allowed.
 */
export function integerRangePattern(min: number, max: number): string {
  const alternatives = digitBlocks(Math.max(1, min), max).map(renderBlock);
  if (min === 0) alternatives.unshift('0');
  return `^${min === 0 ? '(?:-(?=0+$))?' : ''}0*(?:${alternatives.join('|')})$`;
}

export const integerLike = (minimum: number, maximum: number): JsonSchema => ({
  anyOf: [
    { type: 'integer', minimum, maximum },
    { type: 'string', pattern: integerRangePattern(minimum, maximum) },
  ],
});

function replaceContents(target: JsonSchema, replacement: JsonSchema): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, replacement);
}

/**
 * With `io: 'input'`, zod describes a pipe by its input side only, which loses the integer bounds
 * of `intIn` (they live on the output side), and a refinement is invisible. This restores both:
 * integer pipes get their range on the number and the string branch, boolean-like unions their words.
 */
function describeCoercions(ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: JsonSchema }): void {
  const def = ctx.zodSchema._zod.def;
  if (def.type === 'pipe') {
    const out = z.toJSONSchema(def.out, { io: 'output', unrepresentable: 'any' });
    if (out.type === 'integer' && out.minimum !== undefined && out.maximum !== undefined) {
      replaceContents(ctx.jsonSchema, integerLike(out.minimum, out.maximum));
    }
  } else if (def.type === 'union' && def.options.some((o) => o._zod.def.type === 'boolean')) {
    replaceContents(ctx.jsonSchema, structuredClone(BOOLEAN_LIKE));
  }
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

function humanDuration(seconds: number): string {
  if (seconds < HOUR) return `${seconds / MINUTE} min`;
  if (seconds < DAY) return `${seconds / HOUR} h`;
  if (seconds % (7 * DAY) === 0 && seconds < 30 * DAY) return `${seconds / (7 * DAY)} w`;
  return `${seconds / DAY} d`;
}

const BOOLEAN_NOTE = `Also as a string: ${BOOLEAN_WORDS.join('/')} (any case).`;
const INTEGER_NOTE = 'An integer, also as an integer string ("5").';

/** Descriptions and defaults of the create fields, from instance configuration. */
function fieldDocs(config: PushConfig): Record<string, { description: string; default?: unknown }> {
  const { limits, features } = config;
  const kinds = [
    'text',
    features.urlPushes && 'url',
    features.qrPushes && 'qr',
    features.filePushes && 'file',
  ];
  const durations = DURATIONS.map((s, i) => `${i} = ${humanDuration(s)}`).join(', ');
  return {
    payload: {
      description: `The secret. Required (not blank) unless kind is \`file\`. At most ${MAX_TEXT_PAYLOAD.toLocaleString('en')} characters (Unicode code points) for \`text\`, ${MAX_QR_PAYLOAD.toLocaleString('en')} for \`qr\`; an absolute http or https URL for \`url\`.`,
    },
    kind: {
      description: `\`file\` when files are attached, else \`text\`. Enabled on this instance: ${kinds.filter(Boolean).join(', ')}; another kind → 422.`,
      default: 'text',
    },
    files: {
      description: features.filePushes
        ? 'Files to attach (multipart/form-data `push[files][]`); makes the push a `file` push.'
        : 'File pushes are disabled on this instance: sending this field makes the push a `file` push, which is refused (422).',
    },
    expire_after_days: {
      description: `Days until the push expires, ${limits.days.min} to ${limits.days.max}. ${INTEGER_NOTE} Not together with expire_after_duration.`,
      default: limits.days.default,
    },
    expire_after_duration: {
      description: `Instead of expire_after_days (both → 422): ${durations}. ${INTEGER_NOTE}`,
    },
    expire_after_views: {
      description: `Views allowed, ${limits.views.min} to ${limits.views.max}. ${INTEGER_NOTE}`,
      default: limits.views.default,
    },
    deletable_by_viewer: {
      description: `Whether anyone with the link may expire the push with DELETE; forced to null for \`url\` pushes. ${BOOLEAN_NOTE}`,
      default: limits.deletableByViewerDefault,
    },
    retrieval_step: {
      description: `Whether the recipient page asks for a click before revealing the secret. ${BOOLEAN_NOTE}`,
      default: limits.retrievalStepDefault,
    },
    passphrase: {
      description:
        'Recipients must send it to retrieve the push. Stored as a slow hash, never returned; empty means none.',
    },
    name: { description: 'A label shown only to the owner (create response, lists).' },
    note: {
      description:
        'A note shown only to the owner; encrypted at rest. For an anonymous push it appears only in the create response.',
    },
  };
}

/** `anyOf: [{anyOf: [a, b]}, c]` (a nullable coercion) as `anyOf: [a, b, c]`. */
function flatAnyOf(schema: JsonSchema): JsonSchema {
  const nested = (b: JsonSchema) => (b.anyOf && Object.keys(b).length === 1 ? b.anyOf : [b]);
  return schema.anyOf ? { anyOf: schema.anyOf.flatMap(nested) } : {};
}

/**
 * The JSON Schema of the create body's `push` object: `pushInputSchema` converted by zod (input
 * side, draft 2020-12), with the coercions restored and descriptions and defaults added.
 */
export function pushInputJsonSchema(config: PushConfig): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(pushInputSchema(config.limits), {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: describeCoercions,
  });
  const docs = fieldDocs(config);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (typeof property === 'object') Object.assign(property, flatAnyOf(property), docs[name]);
  }
  return {
    ...schema,
    description: 'The push to create. Unknown fields are ignored; null means "not sent".',
  };
}
