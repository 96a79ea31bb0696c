import { z } from 'zod';
import { parseEnv } from './parse-env';

type Vars<V extends z.ZodRawShape> = z.output<z.ZodObject<V>>;

/**
 * One part of a process's configuration: its variables, each written once with its type, bounds,
 * default and `.describe()` text (docs/configuration.md is generated from them), and the part of
 * the nested config object it produces. A variable another section also needs is listed there too,
 * as the same schema (`otherSection.vars.NAME`): the loader reads it once.
 */
export interface EnvSection<V extends z.ZodRawShape = z.ZodRawShape, T extends object = object> {
  /** The section's heading in the generated documentation. */
  readonly title: string;
  readonly vars: V;
  /** Variables that may also be given as `NAME_FILE=/path` (mounted secrets). */
  readonly secretFiles: readonly (keyof V & string)[];
  /** The part of the config object made of these variables (merged with the other sections'). */
  readonly shape: (v: Vars<V>) => T;
  /** Problems between variables, run only when every variable of the process is valid. */
  readonly check?: (v: Vars<V>) => string[];
}

/** A section; see {@link EnvSection}. */
export function envSection<V extends z.ZodRawShape, T extends object>(
  title: string,
  vars: V,
  shape: (v: Vars<V>) => T,
  options: { secretFiles?: readonly (keyof V & string)[]; check?: (v: Vars<V>) => string[] } = {},
): EnvSection<V, T> {
  return { title, vars, shape, secretFiles: options.secretFiles ?? [], check: options.check };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any section, whatever its variables
export type AnySection = EnvSection<any, object>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The config object the sections produce together. */
export type ConfigOf<S extends readonly AnySection[]> = Simplify<
  UnionToIntersection<ReturnType<S[number]['shape']>>
>;

/** A process's configuration: its sections (for the documentation) and its loader. */
export interface EnvConfig<S extends readonly AnySection[]> {
  readonly sections: S;
  /**
   * Parses `env` once: every missing or bad variable, then every problem between variables, in one
   * ConfigError; otherwise the deeply frozen config object.
   */
  load(env: NodeJS.ProcessEnv): Readonly<ConfigOf<S>>;
}

/**
 * A process's configuration made of sections. A variable listed by several sections must be the
 * same schema in each (it is read once); a different one is a programming error, thrown here.
 */
export function defineConfig<const S extends readonly AnySection[]>(sections: S): EnvConfig<S> {
  const vars: Record<string, z.ZodType> = {};
  const secretFiles = new Set<string>();
  for (const section of sections) {
    for (const [name, schema] of Object.entries(section.vars as Record<string, z.ZodType>)) {
      if (vars[name] !== undefined && vars[name] !== schema) {
        throw new Error(`${name} is declared twice with different schemas (${section.title})`);
      }
      vars[name] = schema;
    }
    for (const name of section.secretFiles) secretFiles.add(name);
  }
  const schema = z.object(vars);
  return {
    sections,
    load: (env) =>
      parseEnv(schema, env, (v) => Object.assign({}, ...sections.map((s) => s.shape(v))) as ConfigOf<S>, {
        secretFiles: [...secretFiles],
        check: (v) => sections.flatMap((s) => s.check?.(v) ?? []),
      }),
  };
}
