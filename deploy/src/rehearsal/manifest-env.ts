import { join } from 'node:path';
import type { K8sObject } from '../validate/kubernetes';

/** What a Kubernetes container would run: its command, its whole environment and its Secret files. */
export interface Workload {
  command: string[];
  env: Record<string, string>;
  /** The files of its mounted Secret volumes, by local path (under `secretDir`): write them before it starts. */
  files: Record<string, string>;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface Container {
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Volume {
  name: string;
  secret?: { secretName: string; items?: { key: string; path: string }[] };
}

/**
 * The command and environment of `kind/name`'s first container, resolved as the kubelet does:
 * envFrom ConfigMaps (from the rendered objects), then env entries; Secret references are looked up
 * in `secrets` ("secret-name/key"), and a reference with no local value is an error. A Secret volume
 * (its `items`) becomes files under `secretDir`/<volume>, and a literal value naming a file of its
 * mount path (`*_FILE`) is rewritten to the local file.
 */
export function workloadOf(
  objects: K8sObject[],
  kind: 'Deployment' | 'Job',
  name: string,
  secrets: Record<string, string>,
  secretDir?: string,
): Workload {
  const obj = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  const pod = (
    obj?.spec as { template?: { spec?: { containers?: Container[]; volumes?: Volume[] } } } | undefined
  )?.template?.spec;
  const container = pod?.containers?.[0];
  if (!container?.command) throw new Error(`${kind}/${name}: no container with a command in the manifests`);
  const configMap = (cm: string) => {
    const found = objects.find((o) => o.kind === 'ConfigMap' && o.metadata?.name === cm);
    if (!found) throw new Error(`${kind}/${name}: ConfigMap ${cm} not rendered`);
    return found.data ?? {};
  };
  const secret = (ref: { name: string; key: string }) => {
    const value = secrets[`${ref.name}/${ref.key}`];
    if (value === undefined) {
      throw new Error(`${kind}/${name}: no local value for Secret ${ref.name}/${ref.key}`);
    }
    return value;
  };
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, configMap(from.configMapRef.name));
    if (from.secretRef) throw new Error(`${kind}/${name}: envFrom secretRef is not supported here`);
  }
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.secretKeyRef) env[e.name] = secret(e.valueFrom.secretKeyRef);
    else if (e.valueFrom?.configMapKeyRef) {
      env[e.name] = configMap(e.valueFrom.configMapKeyRef.name)[e.valueFrom.configMapKeyRef.key] ?? '';
    }
  }
  const files: Record<string, string> = {};
  for (const m of container.volumeMounts ?? []) {
    const v = pod?.volumes?.find((x) => x.name === m.name)?.secret;
    if (!v) continue;
    if (!secretDir) {
      throw new Error(`${kind}/${name}: mounts Secret ${v.secretName}; give a directory for its files`);
    }
    if (!v.items) {
      throw new Error(`${kind}/${name}: Secret volume ${m.name} without items is not supported here`);
    }
    const mountPath = m.mountPath.replace(/\/$/, '');
    for (const item of v.items) {
      const local = join(secretDir, m.name, item.path);
      files[local] = secret({ name: v.secretName, key: item.key });
      for (const [k, value] of Object.entries(env)) {
        if (value === `${mountPath}/${item.path}`) env[k] = local;
      }
    }
  }
  return { command: [...container.command, ...(container.args ?? [])], env, files };
}
