export { buildOpenApi } from './document';
export { renderDocsHtml } from './docs-page';
export { BOOLEAN_WORDS, integerRangePattern } from './push-input.schema';
export type { HttpMethod, OpenApiDocument, OperationObject } from './types';
