import type { K8sObject } from '../validate/kubernetes';

/** What a Kubernetes container would run: its command and its whole environment. */
export interface Workload {
  command: string[];
  env: Record<string, string>;
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
}

/**
 * The command and environment of `kind/name`'s first container, resolved as the kubelet does:
 * envFrom ConfigMaps (from the rendered objects), then env entries; Secret references are looked up
 * in `secrets` ("secret-name/key"), and a reference with no local value is an error.
 */
export function workloadOf(
  objects: K8sObject[],
  kind: 'Deployment' | 'Job',
  name: string,
  secrets: Record<string, string>,
): Workload {
  const obj = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  const container = (obj?.spec as { template?: { spec?: { containers?: Container[] } } } | undefined)
    ?.template?.spec?.containers?.[0];
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
  return { command: [...container.command, ...(container.args ?? [])], env };
}
