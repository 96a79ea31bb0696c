import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkCompose, exampleEnv } from './compose';
import { type ImageTarget, checkDockerfile } from './dockerfiles';
import { checkDockerignore } from './dockerignore';
import { checkImageSources } from './image-sources';
import { checkKubernetes } from './kubernetes';
import { type CheckResult, check, printReport } from './report';

export const OVERLAYS = ['k8s/base', 'k8s/overlays/dev', 'k8s/overlays/prod'];
/** The one Dockerfile (repository root), with one final stage per image: `docker build --target T`. */
export const DOCKERFILE = 'Dockerfile';
export const IMAGE_TARGETS: ImageTarget[] = [
  { target: 'auth', image: 'secret-push-auth', pkg: '@secret-push/auth', dir: 'services/auth' },
  { target: 'push', image: 'secret-push-push', pkg: '@secret-push/push', dir: 'services/push' },
];

/** Debian's docker-compose 1.29 (`config -q`): an independent second parser of the compose file. */
function checkDockerCompose(root: string): CheckResult {
  const name = 'compose: docker-compose 1.29 config -q accepts the file';
  const dir = mkdtempSync(join(tmpdir(), 'compose-env-'));
  try {
    const env = exampleEnv(readFileSync(join(root, '.env.example'), 'utf8'));
    writeFileSync(
      join(dir, '.env'),
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    );
    execFileSync(
      'docker-compose',
      ['--env-file', join(dir, '.env'), '-f', join(root, 'docker-compose.yml'), 'config', '-q'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      },
    );
    return check(name, []);
  } catch (err) {
    const e = err as { code?: string; stderr?: string };
    return check(name, [
      e.code === 'ENOENT'
        ? 'docker-compose is not installed (scripts/validate-deploy.sh installs it)'
        : String(e.stderr ?? err),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every static check of the deployment files under `root`. */
export async function runAllChecks(root: string): Promise<CheckResult[]> {
  return [
    ...checkCompose(root),
    checkDockerCompose(root),
    ...checkDockerfile(root, DOCKERFILE, IMAGE_TARGETS),
    checkImageSources(root, DOCKERFILE, IMAGE_TARGETS),
    checkDockerignore(root, IMAGE_TARGETS),
    ...(await checkKubernetes(root, OVERLAYS)),
  ];
}

if (require.main === module) {
  const root = resolve(process.argv[2] ?? join(__dirname, '..', '..', '..'));
  runAllChecks(root).then(
    (results) => {
      process.exitCode = printReport(results, (l) => console.log(l)) ? 0 : 1;
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
