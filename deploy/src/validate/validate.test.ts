/**
 * The validators must fail on broken files, or they prove nothing: each case copies the real
 * deployment files, breaks one thing, and expects exactly the checks that should notice to fail.
 * Needs kubectl (kustomize) and docker-compose, as scripts/validate-deploy.sh does.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCompose } from './compose';
import { checkDockerfiles } from './dockerfiles';
import { checkKubernetes } from './kubernetes';
import { DOCKERFILES, OVERLAYS } from './main';

const REPO = join(__dirname, '..', '..', '..');
const COPIED = ['k8s', 'docker-compose.yml', '.env.example', '.dockerignore', ...DOCKERFILES];
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'deploy-mutant-'));
  for (const path of COPIED) cpSync(join(REPO, path), join(root, path), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function edit(path: string, from: string | RegExp, to: string): void {
  const before = readFileSync(join(root, path), 'utf8');
  const after = before.replace(from, to);
  expect(after).not.toBe(before);
  writeFileSync(join(root, path), after);
}
const failing = (results: { name: string; problems: string[] }[]) =>
  results.filter((r) => r.problems.length > 0).map((r) => `${r.name}: ${r.problems.join(' | ')}`);

// docker-compose 1.29's own parse runs in scripts/validate-deploy.sh, which installs it.
it('passes on the files as committed', async () => {
  const results = [
    ...checkCompose(root),
    ...checkDockerfiles(root, DOCKERFILES),
    ...(await checkKubernetes(root, OVERLAYS)),
  ];
  expect(failing(results)).toEqual([]);
}, 60_000);

describe('Kubernetes', () => {
  it('reports a misspelt field name at any depth', async () => {
    edit('k8s/base/auth/deployment.yaml', '          readinessProbe:', '          readinesProbe:');
    const failed = failing(await checkKubernetes(root, ['k8s/base']));
    expect(failed.join('\n')).toContain(`'"readinesProbe"' does not exist in type 'IContainer'`);
  }, 30_000);

  it('reports a wrong type, a bad quantity and a value outside an enum', async () => {
    edit('k8s/base/auth/hpa.yaml', 'maxReplicas: 10', 'maxReplicas: ten');
    edit('k8s/base/push/deployment.yaml', 'memory: 512Mi }', 'memory: 512Mbytes }');
    edit('k8s/base/push/migrate-job.yaml', 'restartPolicy: Never', 'restartPolicy: Sometimes');
    const schema = failing(await checkKubernetes(root, ['k8s/base'])).find((f) =>
      f.includes('Kubernetes schemas'),
    );
    expect(schema).toContain('HorizontalPodAutoscaler/auth: data/spec/maxReplicas must be integer');
    expect(schema).toContain('limits/memory must match format "quantity"');
    expect(schema).toContain(
      'Job/push-migrate: data/spec/template/spec/restartPolicy must be equal to one of the allowed values',
    );
  }, 30_000);

  it('reports a broken kustomization', async () => {
    edit('k8s/base/kustomization.yaml', '  - ingress.yaml', '  - ingres.yaml');
    expect(failing(await checkKubernetes(root, ['k8s/overlays/prod'])).join('\n')).toMatch(
      /renders: .*ingres\.yaml/,
    );
  }, 30_000);

  it('reports a secret literal, a root container and a dangling reference', async () => {
    edit(
      'k8s/base/push/config.env',
      'PUSH_REDIS_PREFIX=push:',
      'PUSH_REDIS_PREFIX=push:\nPUSH_ENCRYPTION_KEYS=k1:abc',
    );
    edit('k8s/base/push/worker-deployment.yaml', 'runAsNonRoot: true', 'runAsNonRoot: false');
    edit('k8s/base/push/hpa.yaml', 'kind: Deployment, name: push }', 'kind: Deployment, name: push-api }');
    const rules = failing(await checkKubernetes(root, ['k8s/base'])).find((f) => f.includes('project rules'));
    expect(rules).toContain('PUSH_ENCRYPTION_KEYS is a secret');
    expect(rules).toContain('Deployment/push-worker: pod securityContext.runAsNonRoot must be true');
    expect(rules).toContain('scaleTargetRef Deployment/push-api does not exist');
  }, 30_000);
});

describe('compose', () => {
  it('reports an unknown depends_on condition and a variable missing from .env.example', () => {
    edit(
      'docker-compose.yml',
      'auth-migrate: { condition: service_completed_successfully }',
      'auth-migrate: { condition: service_done }',
    );
    edit('.env.example', /^POSTGRES_PASSWORD=$/m, '');
    const failed = failing(checkCompose(root)).join('\n');
    expect(failed).toContain('condition must be equal to one of the allowed values');
    expect(failed).toContain(
      'POSTGRES_PASSWORD is required by docker-compose.yml but missing from .env.example',
    );
  });

  it('reports an unknown service key', () => {
    edit('docker-compose.yml', '    init: true\n', '    init: true\n    restart_policy: always\n');
    expect(failing(checkCompose(root)).join('\n')).toContain('must NOT have additional properties');
  });
});

describe('Dockerfiles', () => {
  it('reports a lint error and a root final stage', () => {
    edit('services/push/Dockerfile', '--chown=root:root', '--chwon=root:root');
    edit('services/auth/Dockerfile', /^USER 1000:1000$/m, 'USER root');
    const failed = failing(checkDockerfiles(root, DOCKERFILES)).join('\n');
    expect(failed).toContain('Unknown flag: chwon');
    expect(failed).toContain('the final stage must switch to a non-root USER');
  });
});
