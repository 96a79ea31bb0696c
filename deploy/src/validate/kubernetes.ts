import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { type CheckResult, check } from './report';
import { mailProblems } from './kubernetes-mail';
import { type K8sObject, policyProblems } from './kubernetes-policy';

export type { K8sObject } from './kubernetes-policy';

/** `kubectl kustomize DIR` (kustomize v5 inside kubectl ≥ 1.27), parsed into objects. */
export function render(dir: string): K8sObject[] {
  const yamlText = execFileSync('kubectl', ['kustomize', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseAllDocuments(yamlText)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

const label = (o: K8sObject) => `${o.kind}/${o.metadata?.name ?? '?'}`;
/** kubernetes-models' module for an apiVersion: "apps/v1" → kubernetes-models/apps/v1. */
const modelModule = (apiVersion: string) => `kubernetes-models/${apiVersion}`;

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

/** Types, enums, formats, quantities and required fields, by kubernetes-models' generated validators. */
async function schemaProblems(objects: K8sObject[]): Promise<string[]> {
  const problems: string[] = [];
  for (const o of objects) {
    let Cls: ModelClass | undefined;
    try {
      // kubernetes-models is ESM-only: a real dynamic import.
      const mod = (await import(modelModule(o.apiVersion))) as Record<string, ModelClass | undefined>;
      Cls = mod[o.kind];
    } catch {
      Cls = undefined;
    }
    if (!Cls) {
      problems.push(`${label(o)}: unknown apiVersion/kind ${o.apiVersion} ${o.kind}`);
      continue;
    }
    try {
      new Cls(o).validate();
    } catch (err) {
      problems.push(`${label(o)}: ${(err as Error).message.replace(/\s+/g, ' ')}`);
    }
  }
  return problems;
}

/**
 * Unknown field names: each object becomes a typed object literal (kubernetes-models' interfaces)
 * and TypeScript's excess-property check reports any field the API does not have, at any depth.
 */
export function unknownFieldProblems(objects: K8sObject[]): string[] {
  const workDir = join(__dirname, '..', '..', 'tmp');
  mkdirSync(workDir, { recursive: true });
  const dir = mkdtempSync(join(workDir, 'k8s-types-'));
  try {
    const imports = objects.map(
      (o, i) => `import type { I${o.kind} as T${i} } from '${modelModule(o.apiVersion)}/${o.kind}';`,
    );
    let text = `${imports.join('\n')}\n`;
    let line = imports.length;
    const owners: { line: number; name: string }[] = [];
    objects.forEach((o, i) => {
      const source = `export const o${i}: T${i} = ${JSON.stringify(o, null, 1)};\n`;
      owners.push({ line, name: label(o) });
      line += source.split('\n').length - 1;
      text += source;
    });
    const file = join(dir, 'objects.mts');
    writeFileSync(file, text);
    const program = ts.createProgram([file], {
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      const owner = [...owners].reverse().find((x) => x.line <= line)?.name ?? 'objects';
      return `${owner}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Renders each kustomization and checks every object: schema, unknown fields, our own rules. */
export async function checkKubernetes(root: string, overlays: string[]): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const overlay of overlays) {
    let objects: K8sObject[];
    try {
      objects = render(join(root, overlay));
    } catch (err) {
      results.push(
        check(`k8s ${overlay}: kubectl kustomize renders`, [
          String((err as { stderr?: string }).stderr ?? err),
        ]),
      );
      continue;
    }
    results.push(check(`k8s ${overlay}: kubectl kustomize renders (${objects.length} objects)`, []));
    results.push(
      check(`k8s ${overlay}: objects match the Kubernetes schemas`, await schemaProblems(objects)),
    );
    results.push(check(`k8s ${overlay}: no unknown field names`, unknownFieldProblems(objects)));
    results.push(
      check(
        `k8s ${overlay}: project rules (probes, limits, heap, non-root, references, metrics ports, body size, no secrets)`,
        policyProblems(objects),
      ),
    );
    results.push(
      check(
        `k8s ${overlay}: email (SMTP URL as a Secret file, From in config, the worker's keys and public URL, SMTP egress for auth and the worker only)`,
        mailProblems(objects),
      ),
    );
  }
  return results;
}
