import { z } from 'zod';
import type { AnySection } from './env-config';

/** What the generated documentation says about one variable. */
export interface EnvVarDoc {
  name: string;
  description: string;
  /** The default as written in the table: `7`, empty, unset, required, or the schema's `defaultText`. */
  default: string;
  /** Also read from `NAME_FILE=/path`. */
  secretFile: boolean;
}

/**
 * A default the value cannot say well (`1073741824` is 1 GiB; a default computed from other
 * variables): `schema.meta({ defaultText })`, after `.describe()`.
 */
declare module 'zod' {
  interface GlobalMeta {
    defaultText?: string;
  }
}

function defaultOf(schema: z.ZodType): string {
  const meta = z.globalRegistry.get(schema);
  if (meta?.defaultText !== undefined) return meta.defaultText;
  const def = schema._zod.def;
  if (def.type === 'default') {
    const value: unknown = (def as z.core.$ZodDefaultDef).defaultValue;
    if (Array.isArray(value)) return value.length === 0 ? 'empty' : `\`${value.join(',')}\``;
    return `\`${String(value)}\``;
  }
  return def.type === 'optional' ? 'unset' : 'required';
}

/** The variables of `sections`, each once (in the order first listed), with their documentation. */
export function documentVariables(sections: readonly AnySection[]): EnvVarDoc[] {
  const docs = new Map<string, EnvVarDoc>();
  for (const section of sections) {
    for (const [name, schema] of Object.entries(section.vars as Record<string, z.ZodType>)) {
      if (docs.has(name)) continue;
      if (!schema.description) throw new Error(`${name} (${section.title}) has no .describe() text`);
      docs.set(name, {
        name,
        description: schema.description,
        default: defaultOf(schema),
        secretFile: section.secretFiles.includes(name),
      });
    }
  }
  return [...docs.values()];
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** A Markdown table of variables (Variable, Meaning, Default); prettier aligns it. */
export function renderEnvTable(vars: readonly EnvVarDoc[]): string {
  const rows = vars.map((v) => {
    const name = v.secretFile ? `\`${v.name}\` or \`${v.name}_FILE\`` : `\`${v.name}\``;
    return `| ${name} | ${cell(v.description)} | ${cell(v.default)} |`;
  });
  return ['| Variable | Meaning | Default |', '| --- | --- | --- |', ...rows].join('\n');
}
