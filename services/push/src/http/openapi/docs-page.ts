import { escapeHtml, inline, paragraphs, table } from './docs-page.html';
import { STYLE } from './docs-page.style';
import type {
  HttpMethod,
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
  SecurityRequirement,
} from './types';

/*
 * The HTML page of the document for /api/v2/docs (served with `default-src 'none'; style-src
 * 'unsafe-inline'`: no scripts, no assets).
 */

type SchemaLike = JsonSchema | boolean | undefined;

const refName = (ref: string): string => ref.split('/').at(-1) ?? ref;
const schemaLink = (name: string): string => `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
const unique = (items: string[]): string[] => [...new Set(items)];

/** The type of a schema as HTML: component names link to their section. */
function typeHtml(s: SchemaLike): string {
  if (s === undefined || s === true) return 'any';
  if (s === false) return 'nothing';
  if (s.$ref) return schemaLink(refName(s.$ref));
  if (s.const !== undefined) return `<code>${escapeHtml(JSON.stringify(s.const))}</code>`;
  if (s.enum) return s.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(' | ');
  if (s.anyOf) return unique(s.anyOf.map(typeHtml)).join(' | ');
  if (s.type === 'array') return `array of ${Array.isArray(s.items) ? 'items' : typeHtml(s.items)}`;
  const types = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
  return escapeHtml(s.format ? `${types} (${s.format})` : types);
}

function branches(s: JsonSchema): JsonSchema[] {
  return [s, ...(s.anyOf ?? []).flatMap(branches)];
}

function range(s: JsonSchema): string | undefined {
  if (s.minimum !== undefined && s.maximum !== undefined) return `${s.minimum}–${s.maximum}`;
  if (s.minimum !== undefined) return `≥ ${s.minimum}`;
  if (s.maximum !== undefined) return `≤ ${s.maximum}`;
  return undefined;
}

/** Bounds, lengths, pattern and default of a schema, in words. */
function constraints(s: SchemaLike): string[] {
  if (typeof s !== 'object') return [];
  const found = branches(s).flatMap((b) => [
    range(b),
    b.maxLength !== undefined ? `at most ${b.maxLength} characters` : undefined,
    b.maxItems !== undefined ? `at most ${b.maxItems} items` : undefined,
  ]);
  if (s.pattern) found.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) found.push(`default ${JSON.stringify(s.default)}`);
  return unique(found.filter((c): c is string => c !== undefined));
}

function describeHtml(s: SchemaLike, referenced?: SchemaLike): string {
  const described = [s, referenced].find((x) => typeof x === 'object' && x.description);
  const description = typeof described === 'object' ? inline(described.description ?? '') : '';
  const limits = constraints(s).map((c) => `<span class="c">${escapeHtml(c)}</span>`);
  return [description, ...limits].filter(Boolean).join(' ');
}

/** Resolves `#/components/schemas/…` references against the document. */
function resolve(doc: OpenApiDocument, s: SchemaLike): SchemaLike {
  return typeof s === 'object' && s.$ref && !s.properties ? doc.components.schemas[refName(s.$ref)] : s;
}

/** Rows for the properties of an object schema; nested objects (also behind a reference) are flattened. */
function propertyRows(doc: OpenApiDocument, s: SchemaLike, prefix = ''): string[][] {
  const schema = resolve(doc, s);
  if (typeof schema !== 'object' || !schema.properties) return [];
  return Object.entries(schema.properties).flatMap(([name, property]) => {
    const path = `${prefix}${name}`;
    const inner = resolve(doc, property);
    const row = [
      `<code>${escapeHtml(path)}</code>`,
      typeHtml(property),
      schema.required?.includes(name) ? 'yes' : 'no',
      describeHtml(property, inner),
    ];
    const nested = typeof inner === 'object' && inner.properties ? propertyRows(doc, inner, `${path}.`) : [];
    return [row, ...nested];
  });
}

/** How the page names each security scheme of the document (document.ts). */
const SCHEME_NAMES: Record<string, string> = {
  bearer: 'an access token',
  personalToken: 'a personal API token',
  legacyUserEmail: '`X-User-Email`',
  legacyUserToken: '`X-User-Token`',
};

function securityHtml(security: SecurityRequirement[]): string {
  if (security.length === 0) return 'None: public.';
  const alternatives = security.filter((r) => Object.keys(r).length > 0);
  const kinds = alternatives.map((r) =>
    Object.keys(r)
      .map((name) => SCHEME_NAMES[name] ?? name)
      .join(' + '),
  );
  const either = kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}` : (kinds[0] ?? '');
  const scopes = [...new Set(alternatives.flatMap((r) => Object.values(r).flat()))];
  const what =
    scopes.length > 0 ? `${either}, with scope ${scopes.map((s) => `\`${s}\``).join(', ')}` : either;
  const optional = security.some((r) => Object.keys(r).length === 0);
  return inline(optional ? `Optional: anonymous, or ${what}.` : `Required: ${what}.`);
}

function parametersHtml(parameters: ParameterObject[] | undefined): string {
  if (!parameters?.length) return '';
  const rows = parameters.map((p) => [
    `<code>${escapeHtml(p.name)}</code>`,
    escapeHtml(p.in),
    typeHtml(p.schema),
    p.required ? 'yes' : 'no',
    [inline(p.description), describeHtml({ ...p.schema, description: undefined })].filter(Boolean).join(' '),
  ]);
  return `<h4>Parameters</h4>${table('Parameters', ['Name', 'In', 'Type', 'Required', 'Description'], rows)}`;
}

function requestBodyHtml(doc: OpenApiDocument, body: RequestBodyObject | undefined): string {
  if (!body) return '';
  const types = Object.keys(body.content).map((t) => `<code>${escapeHtml(t)}</code>`);
  const [first] = Object.values(body.content);
  const example = first?.example
    ? `<p>Example:</p><pre><code>${escapeHtml(JSON.stringify(first.example, null, 2))}</code></pre>`
    : '';
  const rows = propertyRows(doc, first?.schema);
  const fields =
    rows.length > 0 ? table('Request body fields', ['Field', 'Type', 'Required', 'Description'], rows) : '';
  return `<h4>Request body${body.required ? '' : ' (optional)'}</h4>${paragraphs(body.description)}<p>Content types: ${types.join(', ')}. Form fields nest with brackets: <code>push[payload]</code>.</p>${fields}${example}`;
}

function bodyHtml(response: ResponseObject): string {
  return Object.entries(response.content ?? {})
    .map(([type, media]) => {
      const codes = media.schema.properties?.code;
      const narrowed =
        typeof codes === 'object' && codes.enum
          ? `; <code>code</code>: ${typeHtml({ enum: codes.enum })}`
          : '';
      return `<code>${escapeHtml(type)}</code>: ${typeHtml(media.schema)}${narrowed}`;
    })
    .join('<br>');
}

function responsesHtml(responses: Record<string, ResponseObject>): string {
  const rows = Object.entries(responses).map(([status, r]) => [
    `<strong>${escapeHtml(status)}</strong>`,
    inline(r.description),
    bodyHtml(r),
    Object.keys(r.headers ?? {})
      .map((h) => `<code>${escapeHtml(h)}</code>`)
      .join(', '),
  ]);
  return `<h4>Responses</h4>${table('Responses', ['Status', 'Description', 'Body', 'Headers'], rows)}`;
}

const operationAnchor = (op: OperationObject) => `op-${escapeHtml(op.operationId)}`;

function operationHtml(doc: OpenApiDocument, method: HttpMethod, path: string, op: OperationObject): string {
  const id = operationAnchor(op);
  return `<article id="${id}" aria-labelledby="${id}-title">
<h3 id="${id}-title"><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p class="summary">${inline(op.summary)}</p>
${paragraphs(op.description)}
<p><strong>Authentication:</strong> ${securityHtml(op.security)}</p>
${parametersHtml(op.parameters)}${requestBodyHtml(doc, op.requestBody)}${responsesHtml(op.responses)}
</article>`;
}

function operationsOf(doc: OpenApiDocument): { method: HttpMethod; path: string; op: OperationObject }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    (Object.entries(item) as [HttpMethod, OperationObject][]).map(([method, op]) => ({ method, path, op })),
  );
}

function schemaHtml(doc: OpenApiDocument, name: string, schema: JsonSchema): string {
  const rows = propertyRows(doc, schema);
  const shape =
    rows.length > 0 ? table(`${name} fields`, ['Field', 'Type', 'Required', 'Description'], rows) : '';
  return `<h3 id="schema-${escapeHtml(name)}">${escapeHtml(name)}</h3>${schema.description ? paragraphs(schema.description) : ''}${shape}`;
}

function isOpenApiDocument(doc: object): doc is OpenApiDocument {
  const d = doc as Partial<OpenApiDocument>;
  return (
    typeof d.openapi === 'string' &&
    typeof d.info === 'object' &&
    typeof d.paths === 'object' &&
    typeof d.components === 'object'
  );
}

function pageHtml(doc: OpenApiDocument): string {
  const operations = operationsOf(doc);
  const toc = operations
    .map(
      ({ method, path, op }) =>
        `<li><a href="#${operationAnchor(op)}">${method.toUpperCase()} ${escapeHtml(path)}</a>: ${inline(op.summary)}</li>`,
    )
    .join('\n');
  const base = doc.servers[0]?.url ?? '';
  const auth = Object.values(doc.components.securitySchemes).map((s) => paragraphs(s.description));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${doc.info.title} ${doc.info.version}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(doc.info.title)}</h1>
<p>API version ${escapeHtml(doc.info.version)}, OpenAPI ${escapeHtml(doc.openapi)}. Base URL: <code>${escapeHtml(base)}</code>. Machine-readable: <a href="openapi.json">openapi.json</a>.</p>
</header>
<nav aria-labelledby="toc"><h2 id="toc">Operations</h2><ul>
${toc}
</ul></nav>
<main>
<section aria-labelledby="overview"><h2 id="overview">Overview</h2>
${paragraphs(doc.info.description)}
<h3>Tokens</h3>
${auth.join('\n')}
</section>
<section aria-labelledby="operations"><h2 id="operations">Operations</h2>
${operations.map(({ method, path, op }) => operationHtml(doc, method, path, op)).join('\n')}
</section>
<section aria-labelledby="schemas"><h2 id="schemas">Schemas</h2>
${Object.entries(doc.components.schemas)
  .map(([name, s]) => schemaHtml(doc, name, s))
  .join('\n')}
</section>
</main>
</body>
</html>
`;
}

/**
 * The document as one self-contained, accessible HTML page (headings, captioned tables with
 * header cells, readable on a phone). Every text from the document is escaped.
 */
export function renderDocsHtml(doc: object): string {
  if (!isOpenApiDocument(doc)) throw new TypeError('renderDocsHtml expects a document from buildOpenApi');
  return pageHtml(doc);
}
