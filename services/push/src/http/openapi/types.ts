import type { z } from 'zod';

/*
 * The OpenAPI 3.1 objects the push API document is made of (only the parts it uses).
 */

/** A JSON Schema (draft 2020-12), as OpenAPI 3.1 embeds it. */
export type JsonSchema = z.core.JSONSchema.JSONSchema;

/** An OpenAPI 3.1 Header Object. */
export interface HeaderObject {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

/** An OpenAPI 3.1 Media Type Object (the parts this document uses). */
export interface MediaTypeObject {
  schema: JsonSchema;
  encoding?: Record<string, { style: 'deepObject'; explode: true }>;
  example?: unknown;
}

/** An OpenAPI 3.1 Response Object (the parts this document uses). */
export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

/** An OpenAPI 3.1 Parameter Object (the parts this document uses). */
export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
}

/** An OpenAPI 3.1 Request Body Object. */
export interface RequestBodyObject {
  description: string;
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

/** An OpenAPI 3.1 Security Scheme Object (the kinds this document uses). */
export type SecuritySchemeObject =
  | { type: 'http'; scheme: 'bearer'; bearerFormat?: string; description: string }
  | { type: 'apiKey'; in: 'header'; name: string; description: string };

/**
 * Scheme name → scopes (roles); `{}` alone means anonymous is allowed. The schemes of one
 * requirement are all needed together; the requirements of a list are alternatives.
 */
export type SecurityRequirement = Record<string, string[]>;

/** An OpenAPI 3.1 Operation Object (the parts this document uses). */
export interface OperationObject {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  security: SecurityRequirement[];
  responses: Record<string, ResponseObject>;
}

/** The HTTP methods the push API uses. */
export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** The OpenAPI 3.1 document `buildOpenApi` (document.ts) returns. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<HttpMethod, OperationObject>>>;
  components: {
    securitySchemes: Record<string, SecuritySchemeObject>;
    schemas: Record<string, JsonSchema>;
  };
}
