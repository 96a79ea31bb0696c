import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { type PushConfig, loadPushConfig } from '@secret-push/push';

/*
 * src/generated/openapi.ts is generated from the OpenAPI document that the push service builds
 * (buildOpenApi in services/push/src/http/openapi). This test builds the document again, turns it
 * into types with openapi-typescript and fails when the result differs from the committed file, so
 * the SDK's types cannot drift from the API. To regenerate the file after an API change, run this
 * test with SP_WRITE_OPENAPI_TYPES=1.
 *
 * The document depends on the instance's configuration, so it is built from a fixed one: the
 * defaults, with every kind of push enabled (files included) and a fixed public URL.
 */
const GENERATED = join(import.meta.dirname, 'generated', 'openapi.ts');

const HEADER = `/* eslint-disable -- generated code */
/*
 * Generated from the OpenAPI document of the push API (services/push/src/http/openapi) by
 * openapi-typescript. Do not edit: run packages/client/src/openapi-types.test.ts with
 * SP_WRITE_OPENAPI_TYPES=1 to regenerate it.
 */
`;

const fixedConfig = (): PushConfig =>
  loadPushConfig({
    NODE_ENV: 'test',
    PUSH_PUBLIC_URL: 'https://push.example.com',
    PUSH_AUTH_URL: 'https://auth.example.com',
    PUSH_DATABASE_URL: 'postgres://localhost/unused',
    PUSH_REDIS_URL: 'redis://localhost:6379',
    PUSH_INTROSPECTION_CLIENT_ID: 'unused',
    PUSH_INTROSPECTION_CLIENT_SECRET: 'unused',
    PUSH_ENCRYPTION_KEYS: `gen:${Buffer.alloc(32).toString('base64')}`,
    PUSH_S3_BUCKET: 'unused',
    PUSH_S3_ACCESS_KEY_ID: 'unused',
    PUSH_S3_SECRET_ACCESS_KEY: 'unused',
    PUSH_FILE_PUSHES_ENABLED: 'true',
  });

async function generate(): Promise<string> {
  // Imported by path: the push service does not export its document builder as a package entry,
  // and the path is computed so that the client's build does not compile the push sources.
  const builder = join(
    import.meta.dirname,
    '..',
    '..',
    '..',
    'services',
    'push',
    'src',
    'http',
    'openapi',
    'index.ts',
  );
  const { buildOpenApi } = (await import(builder)) as { buildOpenApi: (config: PushConfig) => object };
  const doc = buildOpenApi(fixedConfig());
  const ast = await openapiTS(JSON.parse(JSON.stringify(doc)) as Parameters<typeof openapiTS>[0], {
    defaultNonNullable: false,
  });
  // Formatted like the rest of the repository, so that `prettier --check` accepts the file.
  const options = (await resolveConfig(GENERATED)) ?? {};
  return format(HEADER + astToString(ast), { ...options, parser: 'typescript' });
}

test('src/generated/openapi.ts matches the document the push service builds', async () => {
  const fresh = await generate();
  if (process.env.SP_WRITE_OPENAPI_TYPES === '1') writeFileSync(GENERATED, fresh);
  const committed = readFileSync(GENERATED, 'utf8');
  expect(committed).toBe(fresh);
});
