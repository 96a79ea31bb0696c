import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/** Messages by key: `area.name` (the file `<locale>/<area>.json`, and the key inside it). */
export type Messages = Record<string, string>;

/**
 * Reads the catalogues under `dirs`: each holds one folder per locale (`de/`, `pt-BR/`) of JSON
 * files, one per area of the pages (`create.json`); a file's keys are prefixed with its name, and
 * nested objects are flattened with dots (`{"list": {"empty": "…"}}` in `pushes.json` is
 * `pushes.list.empty`). Several directories merge (the shared frame's and a service's own); a key
 * defined twice is an error, so that one area never silently overrides another.
 */
export function loadCatalogues(dirs: readonly string[]): Map<string, Messages> {
  const out = new Map<string, Messages>();
  for (const dir of dirs) {
    for (const locale of readdirSync(dir)) {
      const folder = join(dir, locale);
      if (!statSync(folder).isDirectory()) continue;
      const messages = out.get(locale) ?? {};
      for (const file of readdirSync(folder)
        .filter((f) => f.endsWith('.json'))
        .sort()) {
        const area = basename(file, '.json');
        const parsed = JSON.parse(readFileSync(join(folder, file), 'utf8')) as unknown;
        flatten(area, parsed, messages, join(folder, file));
      }
      out.set(locale, messages);
    }
  }
  return out;
}

function flatten(prefix: string, value: unknown, into: Messages, file: string): void {
  if (typeof value === 'string') {
    if (Object.hasOwn(into, prefix)) throw new Error(`${file}: the key ${prefix} is defined twice`);
    into[prefix] = value;
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${file}: ${prefix} must be a message (a string) or an object of messages`);
  }
  for (const [k, v] of Object.entries(value)) flatten(`${prefix}.${k}`, v, into, file);
}
