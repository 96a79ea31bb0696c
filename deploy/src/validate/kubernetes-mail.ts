import type { K8sObject } from './kubernetes-policy';

/**
 * Email in the manifests (docs/deployment.md, "Email"): each service reads its SMTP URL from the
 * Secret's `smtp-url` key mounted as a file (`<P>_SMTP_URL_FILE`) and its From address from plain
 * config; the worker, which sends the push service's email, has the API's encryption keys and
 * public URL; and only the senders (auth and the worker) may reach SMTP ports.
 */

/** The workloads that send email, by Deployment name (= their pods' app.kubernetes.io/name). */
export const MAIL_SENDERS = ['auth', 'push-worker'];
/** Submission (STARTTLS) and SMTPS. */
export const SMTP_PORTS = [587, 465];
/** The workloads that read SMTP settings, and their variables' prefix. */
const MAIL_READERS = [
  { deployment: 'auth', prefix: 'AUTH' },
  { deployment: 'push', prefix: 'PUSH' },
  { deployment: 'push-worker', prefix: 'PUSH' },
];

interface SecretRef {
  name: string;
  key: string;
}
interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: SecretRef } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[];
}
interface Template {
  metadata?: { labels?: Record<string, string> };
  spec: PodSpec;
}
interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface EgressRule {
  ports?: { protocol?: string; port?: number | string; endPort?: number }[];
}
interface NetworkPolicySpec {
  podSelector?: LabelSelector;
  policyTypes?: string[];
  egress?: EgressRule[];
}

const templateOf = (o: K8sObject) =>
  (o.kind === 'Deployment' || o.kind === 'Job' ? o.spec?.template : undefined) as Template | undefined;
const deployment = (objects: K8sObject[], name: string) =>
  objects.find((o) => o.kind === 'Deployment' && o.metadata?.name === name);

/** Whether a Kubernetes label selector selects these labels (matchLabels and matchExpressions). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    const has = key in labels;
    if (operator === 'In') return has && values.includes(labels[key]!);
    if (operator === 'NotIn') return !has || !values.includes(labels[key]!);
    if (operator === 'Exists') return has;
    return !has; // DoesNotExist
  });
  return byLabels && byExpressions;
}

/** A container's plain values (its ConfigMaps, then literals) and its Secret references. */
function envOf(objects: K8sObject[], c: Container) {
  const values: Record<string, string> = {};
  const secrets: Record<string, SecretRef> = {};
  for (const ref of c.envFrom ?? []) {
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata?.name === ref.configMapRef?.name);
    Object.assign(values, cm?.data ?? {});
  }
  for (const e of c.env ?? []) {
    if (e.value !== undefined) values[e.name] = e.value;
    else if (e.valueFrom?.secretKeyRef) secrets[e.name] = e.valueFrom.secretKeyRef;
  }
  return { values, secrets };
}

/** The Secret key behind a file path of the container (a Secret volume's item), if any. */
function secretFileAt(spec: PodSpec, c: Container, path: string): SecretRef | undefined {
  for (const m of c.volumeMounts ?? []) {
    const secret = spec.volumes?.find((v) => v.name === m.name)?.secret;
    if (!secret) continue;
    const item = secret.items?.find((i) => `${m.mountPath.replace(/\/$/, '')}/${i.path}` === path);
    if (item) return { name: secret.secretName, key: item.key };
  }
  return undefined;
}

/** Each reader: the SMTP URL as a file from a Secret's smtp-url, never a value; a From address. */
function settingsProblems(objects: K8sObject[]): string[] {
  const p: string[] = [];
  for (const { deployment: name, prefix } of MAIL_READERS) {
    const d = deployment(objects, name);
    const t = d && templateOf(d);
    const c = t?.spec.containers[0];
    if (!t || !c) {
      p.push(`Deployment/${name}: missing (it reads the SMTP settings)`);
      continue;
    }
    const where = `Deployment/${name}`;
    const { values, secrets } = envOf(objects, c);
    const url = `${prefix}_SMTP_URL`;
    if (url in values || url in secrets) {
      p.push(`${where}: ${url} holds the relay's password: mount the Secret's smtp-url and set ${url}_FILE`);
    }
    const file = values[`${url}_FILE`];
    const ref = file ? secretFileAt(t.spec, c, file) : undefined;
    if (!file) p.push(`${where}: ${url}_FILE is not set (the SMTP URL, from the Secret's smtp-url)`);
    else if (!ref) p.push(`${where}: ${url}_FILE (${file}) is not a file of a mounted Secret`);
    else if (ref.key !== 'smtp-url') {
      p.push(`${where}: ${url}_FILE reads the Secret key ${ref.key}, not smtp-url`);
    }
    const from = values[`${prefix}_MAIL_FROM`];
    if (!from || !/@[^@\s>]+>?$/.test(from)) {
      p.push(`${where}: ${prefix}_MAIL_FROM must be a From address in its config (has "${from ?? ''}")`);
    }
  }
  return p;
}

/** The worker builds the API's links: the same encryption keys (Secret) and PUSH_PUBLIC_URL. */
function workerProblems(objects: K8sObject[]): string[] {
  const [api, worker] = ['push', 'push-worker'].map((n) => {
    const c = templateOf(deployment(objects, n) ?? ({} as K8sObject))?.spec.containers[0];
    return c ? envOf(objects, c) : undefined;
  });
  if (!api || !worker) return ['Deployment/push or Deployment/push-worker is missing'];
  const p: string[] = [];
  const keys = (e: typeof api) => e.secrets.PUSH_ENCRYPTION_KEYS;
  if (!keys(worker)) {
    p.push('Deployment/push-worker: PUSH_ENCRYPTION_KEYS must come from the Secret, as for push');
  } else if (JSON.stringify(keys(worker)) !== JSON.stringify(keys(api))) {
    p.push(
      'Deployment/push-worker: PUSH_ENCRYPTION_KEYS must be the same Secret key as Deployment/push reads',
    );
  }
  if (!worker.values.PUSH_PUBLIC_URL || worker.values.PUSH_PUBLIC_URL !== api.values.PUSH_PUBLIC_URL) {
    p.push(
      `Deployment/push-worker: PUSH_PUBLIC_URL must be the API's (${api.values.PUSH_PUBLIC_URL ?? 'unset'}), has ${worker.values.PUSH_PUBLIC_URL ?? 'none'}`,
    );
  }
  return p;
}

/** The SMTP ports an egress rule opens (a rule without ports opens every port). */
function smtpPortsOpenedBy(rule: EgressRule): number[] {
  if (!rule.ports || rule.ports.length === 0) return SMTP_PORTS;
  return SMTP_PORTS.filter((n) =>
    rule.ports!.some(
      (x) =>
        (x.protocol ?? 'TCP') === 'TCP' &&
        typeof x.port === 'number' &&
        (x.endPort === undefined ? x.port === n : x.port <= n && n <= x.endPort),
    ),
  );
}

/** SMTP ports reachable by exactly the senders: each sender both ports, any other pod none. */
function egressProblems(objects: K8sObject[]): string[] {
  const p: string[] = [];
  const pods = objects.flatMap((o) => {
    const t = templateOf(o);
    return t
      ? [
          {
            workload: `${o.kind}/${o.metadata?.name ?? '?'}`,
            name: o.metadata?.name,
            labels: t.metadata?.labels,
          },
        ]
      : [];
  });
  const opened = new Map<string, Set<number>>();
  for (const n of objects.filter((o) => o.kind === 'NetworkPolicy')) {
    const spec = n.spec as NetworkPolicySpec;
    if (!spec.policyTypes?.includes('Egress')) continue;
    const ports = (spec.egress ?? []).flatMap(smtpPortsOpenedBy);
    if (ports.length === 0) continue;
    for (const pod of pods.filter((x) => selects(spec.podSelector, x.labels))) {
      const set = opened.get(pod.workload) ?? new Set<number>();
      ports.forEach((x) => set.add(x));
      opened.set(pod.workload, set);
      if (!MAIL_SENDERS.includes(pod.name ?? '') || pod.workload.startsWith('Job/')) {
        p.push(
          `NetworkPolicy/${n.metadata?.name ?? '?'}: lets ${pod.workload} reach SMTP (${[...new Set(ports)].join(', ')}); only ${MAIL_SENDERS.join(' and ')} send email`,
        );
      }
    }
  }
  for (const sender of MAIL_SENDERS) {
    const missing = SMTP_PORTS.filter((x) => !opened.get(`Deployment/${sender}`)?.has(x));
    if (missing.length > 0) {
      p.push(`Deployment/${sender}: no NetworkPolicy lets it reach SMTP port ${missing.join(', ')}`);
    }
  }
  return p;
}

/** Every email rule over one rendered overlay. */
export function mailProblems(objects: K8sObject[]): string[] {
  return [...settingsProblems(objects), ...workerProblems(objects), ...egressProblems(objects)];
}
