import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { exampleEnv, interpolate } from './compose';
import { type ImageTarget, entryPointProblems, parseDockerfile } from './dockerfiles';
import { type CheckResult, check } from './report';

interface ComposeService {
  build?: string | { context?: string; dockerfile?: string; target?: string };
  image?: string;
  command?: string | string[];
}

const repositoryOf = (image: string) => image.replace(/@.*$/, '').replace(/:[^:/]*$/, '');

/** Every YAML file under `dir` (relative paths), k8s/ being small. */
function yamlFiles(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f));
}

/** Containers (image, command, args) anywhere in a parsed manifest. */
function containersIn(value: unknown, out: { image: string; command: string }[] = []) {
  if (Array.isArray(value)) value.forEach((v) => containersIn(v, out));
  else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.image === 'string' && typeof o.name === 'string') {
      const argv = [o.command, o.args].flatMap((a) => (Array.isArray(a) ? a.map(String) : []));
      out.push({ image: o.image, command: argv.join(' ') });
    }
    Object.values(o).forEach((v) => containersIn(v, out));
  }
  return out;
}

/**
 * The images compose and k8s run are the Dockerfile's targets: compose builds them from the one
 * Dockerfile with the matching --target and tag, every project image used is built there, and the
 * commands run `dist/….js` files that the image's package has.
 */
export function checkImageSources(root: string, dockerfile: string, targets: ImageTarget[]): CheckResult {
  const p: string[] = [];
  const stageNames = new Set(
    parseDockerfile(readFileSync(join(root, dockerfile), 'utf8')).stages.map((s) => s.name),
  );
  const byImage = new Map(targets.map((t) => [t.image, t]));
  const ours = (image: string) => byImage.get(repositoryOf(image));
  const projectImage = (image: string) => /^secret-push-/.test(repositoryOf(image));

  // docker-compose.yml
  const composeText = interpolate(
    readFileSync(join(root, 'docker-compose.yml'), 'utf8'),
    exampleEnv(readFileSync(join(root, '.env.example'), 'utf8')),
    new Set(),
  );
  const services = (parse(composeText, { merge: true }) as { services?: Record<string, ComposeService> })
    .services;
  const built = new Set<string>();
  for (const [name, svc] of Object.entries(services ?? {})) {
    if (svc.build === undefined) continue;
    const b = typeof svc.build === 'string' ? { context: svc.build } : svc.build;
    const file = normalize(join(b.context ?? '.', b.dockerfile ?? 'Dockerfile'));
    if (normalize(b.context ?? '.') !== '.' || file !== normalize(dockerfile)) {
      p.push(`compose ${name}: must build from context "." with dockerfile ${dockerfile} (has ${file})`);
    }
    const t = targets.find((x) => x.target === b.target);
    if (!t) {
      p.push(`compose ${name}: build.target must be one of ${targets.map((x) => x.target).join(', ')}`);
    } else {
      if (!stageNames.has(t.target)) p.push(`compose ${name}: ${dockerfile} has no stage "${t.target}"`);
      if (!svc.image || repositoryOf(svc.image) !== t.image) {
        p.push(`compose ${name}: builds target ${t.target}, so its image must be tagged ${t.image}:…`);
      }
    }
    if (svc.image) built.add(svc.image);
  }
  for (const [name, svc] of Object.entries(services ?? {})) {
    if (!svc.image || !projectImage(svc.image)) continue;
    const t = ours(svc.image);
    if (!t) p.push(`compose ${name}: image ${svc.image} is none of the Dockerfile's targets`);
    else if (!built.has(svc.image)) p.push(`compose ${name}: no service builds ${svc.image}`);
    const command = Array.isArray(svc.command) ? svc.command.join(' ') : svc.command;
    if (t && command !== undefined) {
      p.push(...entryPointProblems(root, t, `compose ${name} command`, command));
    }
  }
  for (const t of targets) {
    if (![...built].some((i) => repositoryOf(i) === t.image)) {
      p.push(`compose: no service builds ${t.image} (--target ${t.target})`);
    }
  }

  // k8s/: every project image the manifests run or kustomize renames is a target's image.
  const used = new Set<string>();
  for (const file of yamlFiles(root, 'k8s')) {
    for (const doc of parseAllDocuments(readFileSync(join(root, file), 'utf8'))) {
      const o = doc.toJS() as { kind?: string; images?: { name?: string }[] } | null;
      if (o?.kind === 'Kustomization') {
        for (const { name } of o.images ?? []) {
          if (name && projectImage(name) && !ours(name)) {
            p.push(`${file}: images entry ${name} is none of the Dockerfile's targets`);
          }
        }
        continue;
      }
      for (const c of containersIn(o)) {
        if (!projectImage(c.image)) continue;
        const t = ours(c.image);
        if (!t) {
          p.push(`${file}: image ${c.image} is none of the Dockerfile's targets`);
          continue;
        }
        used.add(t.image);
        if (c.command !== '') p.push(...entryPointProblems(root, t, `${file} (${c.image})`, c.command));
      }
    }
  }
  for (const t of targets) {
    if (!used.has(t.image)) p.push(`k8s: no workload runs ${t.image}`);
  }
  return check(
    `images: compose and k8s run ${targets.map((t) => t.image).join(', ')}, built from ${dockerfile}'s targets`,
    p,
  );
}
