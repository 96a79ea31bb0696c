/**
 * The validators must fail on broken files, or they prove nothing: each case copies the real
 * deployment files, breaks one thing, and expects exactly the checks that should notice to fail.
 * Needs kubectl (kustomize) and docker-compose, as scripts/validate-deploy.sh does.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCompose } from './compose';
import { checkDockerfile } from './dockerfiles';
import { checkDockerignore } from './dockerignore';
import { checkImageSources } from './image-sources';
import { checkKubernetes } from './kubernetes';
import { DOCKERFILE, IMAGE_TARGETS, OVERLAYS } from './main';

const REPO = join(__dirname, '..', '..', '..');
// The services' sources too: the checks look up the entry points that commands run.
const COPIED = [
  'k8s',
  'docker-compose.yml',
  '.env.example',
  '.dockerignore',
  DOCKERFILE,
  ...IMAGE_TARGETS.map((t) => `${t.dir}/src`),
];
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
    ...checkDockerfile(root, DOCKERFILE, IMAGE_TARGETS),
    checkImageSources(root, DOCKERFILE, IMAGE_TARGETS),
    checkDockerignore(root, IMAGE_TARGETS),
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

describe('heap, metrics port and body size', () => {
  it('reports NODE_OPTIONS out of step with the memory limit, in the base and in an overlay', async () => {
    edit('k8s/base/push/deployment.yaml', 'memory: 512Mi }', 'memory: 1Gi }');
    edit('k8s/base/auth/deployment.yaml', '--max-old-space-size=240', '--max-semi-space-size=1');
    edit(
      'k8s/overlays/dev/kustomization.yaml',
      'value: --max-old-space-size=288',
      'value: --max-old-space-size=380',
    );
    const base = failing(await checkKubernetes(root, ['k8s/base'])).join('\n');
    expect(base).toContain(
      'Deployment/push container push: --max-old-space-size=384 is 38 % of the 1024 MiB memory limit (want 70–80 %): set --max-old-space-size=768',
    );
    expect(base).toContain(
      'Deployment/auth container auth: NODE_OPTIONS "--max-semi-space-size=1" has no --max-old-space-size',
    );
    const dev = failing(await checkKubernetes(root, ['k8s/overlays/dev'])).join('\n');
    expect(dev).toContain(
      'Deployment/push-worker container worker: --max-old-space-size=380 is 99 % of the 384 MiB',
    );
  }, 60_000);

  it('reports a metrics port that the Ingress routes or that more than the monitoring namespace may reach', async () => {
    edit('k8s/base/push/deployment.yaml', "prometheus.io/port: '9464'", "prometheus.io/port: '3000'");
    edit(
      'k8s/base/network-policies.yaml',
      '      ports:\n        - { protocol: TCP, port: 9465 }',
      '      ports:\n        - { protocol: TCP, port: 9465 }\n    - from:\n        - podSelector: {}\n      ports:\n        - { protocol: TCP, port: 9465 }',
    );
    const rules = failing(await checkKubernetes(root, ['k8s/base'])).join('\n');
    expect(rules).toContain('Deployment/push: metrics port 3000 is routed by an Ingress');
    expect(rules).toContain(
      'Deployment/auth: a NetworkPolicy lets more than the monitoring namespace reach metrics port 9465',
    );
  }, 30_000);

  it("reports an Ingress body limit below the push service's file limit", async () => {
    edit('k8s/base/ingress.yaml', 'proxy-body-size: 1040m', 'proxy-body-size: 100m');
    expect(failing(await checkKubernetes(root, ['k8s/base'])).join('\n')).toContain(
      'Ingress/secret-push → Deployment/push: proxy-body-size 100m is below PUSH_FILES_MAX_TOTAL_BYTES (1073741824) plus 16 MiB of form overhead; set at least 1040m',
    );
  }, 30_000);

  it('reports a compose service whose NODE_OPTIONS does not follow its mem_limit', () => {
    edit('docker-compose.yml', 'mem_limit: 512m', 'mem_limit: 1g');
    expect(failing(checkCompose(root)).join('\n')).toContain(
      'compose push: --max-old-space-size=384 is 38 % of the 1024 MiB memory limit',
    );
  });
});

describe('email', () => {
  const mailCheck = async (overlay = 'k8s/base') =>
    failing(await checkKubernetes(root, [overlay]))
      .filter((f) => f.includes(': email ('))
      .join('\n');

  it('reports a worker without the keys, and SMTP reachable by the API but not by auth', async () => {
    edit(
      'k8s/base/push/worker-deployment.yaml',
      '            - name: PUSH_ENCRYPTION_KEYS\n              valueFrom: { secretKeyRef: { name: push-secrets, key: encryption-keys } }\n',
      '',
    );
    edit('k8s/base/network-policies.yaml', 'values: [auth, push-worker] }', 'values: [push, push-worker] }');
    const failed = await mailCheck('k8s/overlays/prod');
    expect(failed).toContain(
      'Deployment/push-worker: PUSH_ENCRYPTION_KEYS must come from the Secret, as for push',
    );
    expect(failed).toContain(
      'NetworkPolicy/smtp-egress: lets Deployment/push reach SMTP (587, 465); only auth and push-worker send email',
    );
    expect(failed).toContain('Deployment/auth: no NetworkPolicy lets it reach SMTP port 587, 465');
  }, 30_000);

  it('reports an SMTP URL given as a value, a *_FILE outside the Secret, a missing From and an open egress rule', async () => {
    edit(
      'k8s/base/push/config.env',
      'PUSH_REDIS_PREFIX=push:',
      'PUSH_REDIS_PREFIX=push:\nPUSH_SMTP_URL=smtp://u:p@relay:587',
    );
    edit('k8s/base/auth/deployment.yaml', 'value: /etc/secret-push/smtp/smtp-url', 'value: /tmp/smtp-url');
    edit('k8s/base/auth/config.env', /^AUTH_MAIL_FROM=.*$/m, '');
    edit(
      'k8s/base/network-policies.yaml',
      '        - { protocol: TCP, port: 6379 }\n        - { protocol: TCP, port: 26379 }\n---\n# push,',
      '---\n# push,',
    );
    const failed = await mailCheck();
    expect(failed).toContain("Deployment/push: PUSH_SMTP_URL holds the relay's password");
    expect(failed).toContain(
      'Deployment/auth: AUTH_SMTP_URL_FILE (/tmp/smtp-url) is not a file of a mounted Secret',
    );
    expect(failed).toContain('Deployment/auth: AUTH_MAIL_FROM must be a From address in its config');
    // The auth-egress rule to Redis without ports opens every port, SMTP included, to the migration Job.
    expect(failed).toContain('NetworkPolicy/auth-egress: lets Job/auth-migrate reach SMTP (587, 465)');
    expect(failing(await checkKubernetes(root, ['k8s/base'])).join('\n')).toContain('ConfigMap/push-config-');
  }, 30_000);

  it('reports a compose worker without the keys and an SMTP host that is no service', () => {
    edit(
      'docker-compose.yml',
      '      PUSH_ENCRYPTION_KEYS_FILE: /bootstrap/push-encryption-keys\n    volumes:\n      - bootstrap:/bootstrap:ro\n    depends_on:\n      bootstrap',
      '    depends_on:\n      bootstrap',
    );
    edit(
      'docker-compose.yml',
      '  AUTH_SMTP_URL: ${SMTP_URL:-smtp://mail:1025}',
      '  AUTH_SMTP_URL: ${SMTP_URL:-smtp://mailpit:1025}',
    );
    const failed = failing(checkCompose(root)).join('\n');
    expect(failed).toContain("worker: PUSH_ENCRYPTION_KEYS_FILE must be the same as push's");
    expect(failed).toContain(
      'auth: AUTH_SMTP_URL names the host "mailpit", which is no service of this file',
    );
  });
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

describe('Dockerfile', () => {
  const dockerfile = () => failing(checkDockerfile(root, DOCKERFILE, IMAGE_TARGETS)).join('\n');
  const sources = () => failing([checkImageSources(root, DOCKERFILE, IMAGE_TARGETS)]).join('\n');

  it('reports a lint error and a root user inherited by both targets', () => {
    edit(DOCKERFILE, '--chown=root:root /out/push', '--chwon=root:root /out/push');
    edit(DOCKERFILE, /^USER 1000:1000$/m, 'USER root');
    const failed = dockerfile();
    expect(failed).toContain('Unknown flag: chwon');
    expect(failed).toContain('target auth: must run as a non-root USER');
    expect(failed).toContain('target push: must run as a non-root USER');
  });

  it("reports a target holding another service's tree, writable code and an unpinned base", () => {
    edit(DOCKERFILE, '--chown=root:root /out/push ./', '--chown=1000:1000 /out/push ./');
    edit(DOCKERFILE, '--chown=root:root /out/auth ./', '--chown=root:root /out/push ./');
    edit(DOCKERFILE, /^ARG NODE_IMAGE=.*$/m, 'ARG NODE_IMAGE=node:latest');
    const failed = dockerfile();
    expect(failed).toContain(
      'target auth: must COPY --from the build stage the tree "pnpm --filter @secret-push/auth deploy --prod" writes',
    );
    expect(failed).toContain('target push: line');
    expect(failed).toContain('its code must stay owned by root');
    expect(failed).toContain('base image "node:latest" needs a pinned tag or digest');
  });

  it('reports a missing target, in the Dockerfile and where compose builds it', () => {
    edit(DOCKERFILE, 'FROM runtime AS push', 'FROM runtime AS api');
    expect(dockerfile()).toContain(
      'no stage "push": `docker build --target push` builds no secret-push-push',
    );
    expect(dockerfile()).toContain('the last stage (built without --target) must be one of the images');
    expect(sources()).toContain('compose push-migrate: Dockerfile has no stage "push"');
  });

  it('reports compose building elsewhere or mistagged, and commands without their entry point', () => {
    edit(
      'docker-compose.yml',
      'dockerfile: Dockerfile, target: push',
      'dockerfile: services/push/Dockerfile',
    );
    edit(
      'docker-compose.yml',
      'image: secret-push-auth:dev\n    command',
      'image: secret-push-api:dev\n    command',
    );
    edit('k8s/base/push/worker-deployment.yaml', 'dist/main-worker.js', 'dist/main-wroker.js');
    edit(DOCKERFILE, 'CMD ["node", "dist/main.js"]', 'CMD ["node", "dist/main-api.js"]');
    const failed = sources();
    expect(failed).toContain(
      'compose push-migrate: must build from context "." with dockerfile Dockerfile (has services/push/Dockerfile)',
    );
    expect(failed).toContain('compose push-migrate: build.target must be one of auth, push');
    expect(failed).toContain(
      'compose auth-migrate: builds target auth, so its image must be tagged secret-push-auth:…',
    );
    expect(failed).toContain(
      'k8s/base/push/worker-deployment.yaml (secret-push-push:0.1.0): dist/main-wroker.js',
    );
    expect(dockerfile()).toContain(
      'target auth CMD: dist/main-api.js is not built by @secret-push/auth (no services/auth/src/main-api.ts)',
    );
  });

  it('reports a .dockerignore that lets secrets in or leaves build inputs out', () => {
    edit('.dockerignore', /^\.env$/m, '');
    edit('.dockerignore', /^\*\*\/dist$/m, '**/dist\n**/package.json');
    const failed = failing([checkDockerignore(root, IMAGE_TARGETS)]).join('\n');
    expect(failed).toContain('must exclude .env');
    expect(failed).not.toContain('must exclude .env.local');
    expect(failed).toContain('must not exclude package.json');
    expect(failed).toContain('must not exclude services/push/package.json');
  });
});
