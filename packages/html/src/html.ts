/**
 * HTML by tagged templates, for the server-rendered pages of both services (the push service's
 * web app and recipient pages, the auth service's sign-in pages): every interpolated value is escaped unless it is already `Html`
 * (built by this tag, or marked with `trusted` for markup we generate ourselves, such as the QR
 * SVG). Chosen over a template engine because the pages are few and small: no dependency, the
 * templates are type-checked TypeScript, and forgetting to escape takes an explicit `trusted()`.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c]!);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Markup produced by our own code from escaped or non-textual input; never user text. */
export const trusted = (markup: string): Html => new Html(markup);
