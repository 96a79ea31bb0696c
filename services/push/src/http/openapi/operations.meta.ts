import { jsonRef, jsonResponse } from './responses';
import { PUBLIC } from './operations.shared';
import type { OperationObject } from './types';

/* The Meta operations: version, this document and its HTML rendering. */

export function versionOperation(): OperationObject {
  return {
    operationId: 'getVersion',
    tags: ['Meta'],
    summary: 'Version and instance features',
    description: 'Public: any token, valid or not, is ignored here. Values come from instance configuration.',
    security: PUBLIC,
    responses: { 200: jsonRef('Version and features.', 'Version') },
  };
}

export function openApiOperation(): OperationObject {
  return {
    operationId: 'getOpenApi',
    tags: ['Meta'],
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 description of this API, also at `/openapi.json`. Public.',
    security: PUBLIC,
    responses: {
      200: jsonResponse('The document.', {
        type: 'object',
        properties: {
          openapi: { type: 'string', const: '3.1.0' },
          info: { type: 'object' },
          paths: { type: 'object' },
        },
        required: ['openapi', 'info', 'paths'],
      }),
    },
  };
}

const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'";

export function docsOperation(): OperationObject {
  return {
    operationId: 'getDocs',
    tags: ['Meta'],
    summary: 'Human-readable API documentation',
    description:
      'This document rendered as one self-contained HTML page (no scripts, no external assets). Public.',
    security: PUBLIC,
    responses: {
      200: {
        description: 'The HTML page.',
        headers: {
          'Content-Security-Policy': {
            description: 'A strict policy: no scripts, inline styles only.',
            required: true,
            schema: { type: 'string', const: DOCS_CSP },
          },
        },
        content: { 'text/html': { schema: { type: 'string' } } },
      },
    },
  };
}
