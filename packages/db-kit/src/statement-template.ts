import { CompiledQuery, type Kysely, type QueryResult, type RawBuilder } from 'kysely';

/*
 * A hand-written hot statement whose text never changes, compiled once. Kysely builds a `sql`
 * template's node tree and compiles it to text on every execution (in the push API's retrieve
 * profile that was ~9% of the process's CPU, plus the garbage); here the statement is built and
 * compiled at its first execution with a marker object in each place an input goes, and each
 * execution after that only fills the parameter list in the recorded order. The same text object
 * is sent every time, so the driver's prepared-statement name is found without rehashing it.
 *
 * The rule that keeps it correct: `build` may only interpolate its inputs, never compute with them
 * in JavaScript (`${input.x !== null}` would be computed once, from the marker); such a value must
 * be an input of its own. At its compilation every input must appear in the parameters (an input
 * used only in JavaScript is an error) and every other parameter must be a constant string, number
 * or null written in the statement (a kind, a literal); a boolean there is refused, as it is most
 * likely computed from an input.
 */

const SLOT = Symbol('statement input');
interface Marker {
  [SLOT]: string;
}
const isMarker = (v: unknown): v is Marker => typeof v === 'object' && v !== null && SLOT in v;

type Part = { input: string } | { constant: unknown };

export interface StatementTemplate<I, R> {
  execute<DB>(db: Kysely<DB>, input: I): Promise<QueryResult<R>>;
}

export function statementTemplate<I extends Record<string, unknown>, R>(
  inputs: readonly (keyof I & string)[],
  build: (input: I) => RawBuilder<R>,
): StatementTemplate<I, R> {
  let compiled: { sql: string; parts: Part[] } | undefined;
  const compile = <DB>(db: Kysely<DB>) => {
    const markers = Object.fromEntries(inputs.map((k) => [k, { [SLOT]: k }])) as unknown as I;
    const query = build(markers).compile(db);
    const parts: Part[] = query.parameters.map((p) => {
      if (isMarker(p)) return { input: p[SLOT] };
      if (p !== null && typeof p !== 'string' && typeof p !== 'number') {
        throw new Error(`statementTemplate: a ${typeof p} parameter is neither an input nor a constant`);
      }
      return { constant: p };
    });
    const unused = inputs.filter((k) => !parts.some((part) => 'input' in part && part.input === k));
    if (unused.length > 0) {
      throw new Error(`statementTemplate: inputs not in the statement: ${unused.join(', ')}`);
    }
    return { sql: query.sql, parts };
  };
  return {
    async execute(db, input) {
      compiled ??= compile(db);
      const parameters = compiled.parts.map((part) => ('input' in part ? input[part.input] : part.constant));
      return await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters));
    },
  };
}
