import { heapProblems, quantityBytes } from './node-heap';

/** Rules of this project that no schema knows: what every workload must have, and references. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

interface Container {
  name: string;
  image?: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  envFrom?: { configMapRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
  readinessProbe?: { httpGet?: { port: string | number } };
  livenessProbe?: { httpGet?: { port: string | number } };
  volumeMounts?: { mountPath: string }[];
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[]; securityContext?: { runAsNonRoot?: boolean } };
}

/** Variable names whose values are secrets: they must come from a Secret, never a literal. */
const SECRET_NAME =
  /SECRET|PASSWORD|JWKS|COOKIE_KEYS|ENCRYPTION_KEYS|ACCESS_KEY|DATABASE_URL|REDIS_URL|SMTP_URL$/;

const name = (o: K8sObject) => `${o.kind}/${o.metadata?.name ?? '?'}`;
const templateOf = (o: K8sObject) =>
  (o.kind === 'Deployment' || o.kind === 'Job' ? o.spec?.template : undefined) as PodTemplate | undefined;
const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  selector !== undefined && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

function containerProblems(
  owner: string,
  c: Container,
  isDeployment: boolean,
  configMaps: Set<string>,
): string[] {
  const p: string[] = [];
  const where = `${owner} container ${c.name}`;
  if (!c.image || !/:[\w][\w.-]*$|@sha256:/.test(c.image) || c.image.endsWith(':latest')) {
    p.push(`${where}: image "${c.image ?? ''}" needs a pinned tag or digest (not latest)`);
  }
  for (const kind of ['requests', 'limits'] as const) {
    for (const r of ['cpu', 'memory']) {
      if (!c.resources?.[kind]?.[r]) p.push(`${where}: resources.${kind}.${r} is missing`);
    }
  }
  const sc = c.securityContext;
  if (sc?.readOnlyRootFilesystem !== true) {
    p.push(`${where}: securityContext.readOnlyRootFilesystem must be true`);
  }
  if (sc?.allowPrivilegeEscalation !== false) {
    p.push(`${where}: securityContext.allowPrivilegeEscalation must be false`);
  }
  if (!sc?.capabilities?.drop?.includes('ALL')) {
    p.push(`${where}: securityContext.capabilities.drop must include ALL`);
  }
  if (!c.volumeMounts?.some((m) => m.mountPath === '/tmp')) {
    p.push(`${where}: needs a writable /tmp (emptyDir)`);
  }
  if (isDeployment) {
    const nodeOptions = c.env?.find((e) => e.name === 'NODE_OPTIONS')?.value;
    p.push(...heapProblems(where, nodeOptions, quantityBytes(c.resources?.limits?.memory)));
    const ports = new Set(c.ports?.flatMap((x) => [x.name, x.containerPort]));
    for (const probe of ['readinessProbe', 'livenessProbe'] as const) {
      const port = c[probe]?.httpGet?.port;
      if (port === undefined) p.push(`${where}: ${probe} (httpGet) is missing`);
      else if (!ports.has(port)) p.push(`${where}: ${probe} port "${port}" is not a container port`);
    }
  }
  for (const e of c.env ?? []) {
    if (e.value !== undefined && SECRET_NAME.test(e.name)) {
      p.push(`${where}: ${e.name} must come from a Secret`);
    }
  }
  for (const ref of c.envFrom ?? []) {
    if (ref.configMapRef && !configMaps.has(ref.configMapRef.name)) {
      p.push(`${where}: ConfigMap "${ref.configMapRef.name}" does not exist`);
    }
  }
  return p;
}

function referenceProblems(objects: K8sObject[]): string[] {
  const p: string[] = [];
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  const deployments = of('Deployment');
  const podsOf = (sel: Record<string, string> | undefined) =>
    deployments.filter((d) => matches(sel, templateOf(d)?.metadata?.labels));
  const services = new Map(of('Service').map((s) => [s.metadata?.name, s]));
  for (const s of services.values()) {
    const spec = s.spec as { selector?: Record<string, string>; ports?: { targetPort?: string | number }[] };
    const pods = podsOf(spec.selector);
    if (pods.length === 0) p.push(`${name(s)}: selector matches no Deployment`);
    for (const port of spec.ports ?? []) {
      const ok = pods.some((d) =>
        templateOf(d)!.spec.containers.some((c) =>
          c.ports?.some((x) => x.name === port.targetPort || x.containerPort === port.targetPort),
        ),
      );
      if (pods.length > 0 && !ok) {
        p.push(`${name(s)}: targetPort ${String(port.targetPort)} is no container port`);
      }
    }
  }
  for (const h of of('HorizontalPodAutoscaler')) {
    const ref = (h.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef;
    if (!deployments.some((d) => ref.kind === 'Deployment' && d.metadata?.name === ref.name)) {
      p.push(`${name(h)}: scaleTargetRef ${ref.kind}/${ref.name} does not exist`);
    }
  }
  for (const b of of('PodDisruptionBudget')) {
    const spec = b.spec as {
      minAvailable?: unknown;
      maxUnavailable?: unknown;
      selector?: { matchLabels?: Record<string, string> };
    };
    if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
      p.push(`${name(b)}: minAvailable and maxUnavailable are mutually exclusive`);
    }
    if (podsOf(spec.selector?.matchLabels).length === 0) p.push(`${name(b)}: selector matches no Deployment`);
  }
  for (const i of of('Ingress')) {
    const rules =
      (
        i.spec as {
          rules?: {
            http?: {
              paths: { backend: { service?: { name: string; port: { name?: string; number?: number } } } }[];
            };
          }[];
        }
      ).rules ?? [];
    for (const path of rules.flatMap((r) => r.http?.paths ?? [])) {
      const svc = path.backend.service;
      const target = svc && services.get(svc.name);
      const ports = (target?.spec as { ports?: { name?: string; port: number }[] } | undefined)?.ports ?? [];
      if (!svc || !target) p.push(`${name(i)}: backend service ${svc?.name ?? '?'} does not exist`);
      else if (!ports.some((x) => x.name === svc.port.name || x.port === svc.port.number)) {
        p.push(`${name(i)}: backend ${svc.name} has no port ${svc.port.name ?? svc.port.number}`);
      }
    }
  }
  const denyAll = of('NetworkPolicy').some((n) => {
    const spec = n.spec as {
      podSelector?: object;
      policyTypes?: string[];
      ingress?: unknown;
      egress?: unknown;
    };
    return (
      Object.keys(spec.podSelector ?? { x: 1 }).length === 0 &&
      !spec.ingress &&
      !spec.egress &&
      ['Ingress', 'Egress'].every((t) => spec.policyTypes?.includes(t))
    );
  });
  if (!denyAll) p.push('NetworkPolicy: no default-deny policy (podSelector {} for Ingress and Egress)');
  return [...p, ...metricsPortProblems(objects), ...bodySizeProblems(objects)];
}

interface ServiceSpec {
  selector?: Record<string, string>;
  ports?: { name?: string; port: number; targetPort?: string | number }[];
}
interface IngressBackend {
  service?: { name: string; port: { name?: string; number?: number } };
}
const ingressBackends = (i: K8sObject) =>
  ((i.spec as { rules?: { http?: { paths: { backend: IngressBackend }[] } }[] }).rules ?? []).flatMap((r) =>
    (r.http?.paths ?? []).map((path) => path.backend.service),
  );

/** The container ports (numbers) that an Ingress routes to, per Deployment name. */
function routedPorts(objects: K8sObject[]): Map<string, Set<number>> {
  const routed = new Map<string, Set<number>>();
  const services = objects.filter((o) => o.kind === 'Service');
  for (const backend of objects.filter((o) => o.kind === 'Ingress').flatMap(ingressBackends)) {
    const svc = services.find((s) => s.metadata?.name === backend?.name);
    const spec = svc?.spec as ServiceSpec | undefined;
    const port = spec?.ports?.find((x) => x.name === backend?.port.name || x.port === backend?.port.number);
    if (!spec || !port) continue;
    for (const d of objects.filter((o) => o.kind === 'Deployment')) {
      const t = templateOf(d)!;
      if (!matches(spec.selector, t.metadata?.labels)) continue;
      for (const c of t.spec.containers) {
        for (const x of c.ports ?? []) {
          if (x.name === port.targetPort || x.containerPort === (port.targetPort ?? port.port)) {
            const set = routed.get(d.metadata?.name ?? '') ?? new Set<number>();
            set.add(x.containerPort);
            routed.set(d.metadata?.name ?? '', set);
          }
        }
      }
    }
  }
  return routed;
}

interface PolicyPeer {
  namespaceSelector?: { matchLabels?: Record<string, string> };
  podSelector?: unknown;
  ipBlock?: unknown;
}
interface PolicySpec {
  podSelector?: { matchLabels?: Record<string, string> };
  policyTypes?: string[];
  ingress?: { from?: PolicyPeer[]; ports?: { port?: number | string }[] }[];
}
const MONITORING = 'monitoring';
const isMonitoringOnly = (peer: PolicyPeer) =>
  peer.podSelector === undefined &&
  peer.ipBlock === undefined &&
  peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === MONITORING;

/**
 * /metrics on a port of its own: the scraped port (`prometheus.io/port`) is a container port, no
 * Ingress routes to it, and the NetworkPolicies let the monitoring namespace, and only it, reach it.
 */
function metricsPortProblems(objects: K8sObject[]): string[] {
  const p: string[] = [];
  const routed = routedPorts(objects);
  const policies = objects
    .filter((o) => o.kind === 'NetworkPolicy')
    .map((o) => o.spec as PolicySpec)
    .filter((spec) => spec.policyTypes?.includes('Ingress'));
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const t = templateOf(d)!;
    const annotations = t.metadata?.annotations ?? {};
    if (annotations['prometheus.io/scrape'] !== 'true') continue;
    const where = `${name(d)}`;
    const port = Number(annotations['prometheus.io/port']);
    const container = t.spec.containers.find((c) => c.ports?.some((x) => x.containerPort === port));
    if (!container) {
      p.push(
        `${where}: prometheus.io/port "${annotations['prometheus.io/port'] ?? ''}" is not a container port`,
      );
      continue;
    }
    const portName = container.ports!.find((x) => x.containerPort === port)!.name;
    if (routed.get(d.metadata?.name ?? '')?.has(port)) {
      p.push(`${where}: metrics port ${port} is routed by an Ingress (serve /metrics on a port of its own)`);
    }
    const rules = policies
      .filter((spec) => matches(spec.podSelector?.matchLabels, t.metadata?.labels))
      .flatMap((spec) => spec.ingress ?? [])
      .filter((rule) => (rule.ports ?? []).some((x) => x.port === port || (portName && x.port === portName)));
    for (const rule of rules) {
      if (!(rule.from ?? []).every(isMonitoringOnly) || (rule.from ?? []).length === 0) {
        p.push(
          `${where}: a NetworkPolicy lets more than the ${MONITORING} namespace reach metrics port ${port}`,
        );
      }
    }
    if (rules.length === 0) {
      p.push(`${where}: no NetworkPolicy lets the ${MONITORING} namespace reach metrics port ${port}`);
    }
  }
  return p;
}

/** The multipart framing and the other form fields of a file push, on top of its files. */
export const FORM_OVERHEAD_BYTES = 16 * 1024 * 1024;

/** Bytes of an nginx size (`1040m`, `512k`, `1g`, `1048576`); 0 means unlimited. */
export function nginxSizeBytes(size: string): number | undefined {
  const m = /^(\d+)([kKmMgG]?)$/.exec(size.trim());
  if (!m) return undefined;
  return Number(m[1]) * ({ '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase()] ?? 1);
}

/**
 * The Ingress's body-size limit (`nginx.ingress.kubernetes.io/proxy-body-size`, nginx's default
 * 1m when absent) must let through the largest file push the push service accepts
 * (PUSH_FILES_MAX_TOTAL_BYTES, stated in the ConfigMap its pods read) plus the form's overhead.
 */
function bodySizeProblems(objects: K8sObject[]): string[] {
  const p: string[] = [];
  const services = objects.filter((o) => o.kind === 'Service');
  const configMaps = objects.filter((o) => o.kind === 'ConfigMap');
  for (const i of objects.filter((o) => o.kind === 'Ingress')) {
    const annotation = i.metadata?.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '1m';
    const limit = nginxSizeBytes(annotation);
    for (const backend of ingressBackends(i)) {
      const svc = services.find((s) => s.metadata?.name === backend?.name);
      const selector = (svc?.spec as ServiceSpec | undefined)?.selector;
      for (const d of objects.filter((o) => o.kind === 'Deployment')) {
        const t = templateOf(d)!;
        if (!matches(selector, t.metadata?.labels)) continue;
        for (const c of t.spec.containers) {
          const env: Record<string, string> = {};
          for (const ref of c.envFrom ?? []) {
            const cm = configMaps.find((o) => o.metadata?.name === ref.configMapRef?.name);
            Object.assign(env, cm?.data ?? {});
          }
          for (const e of c.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
          if (!Object.keys(env).some((k) => k.startsWith('PUSH_'))) continue;
          const where = `${name(i)} → ${name(d)}`;
          const total = Number(env.PUSH_FILES_MAX_TOTAL_BYTES);
          if (!env.PUSH_FILES_MAX_TOTAL_BYTES || !Number.isFinite(total)) {
            p.push(
              `${where}: state PUSH_FILES_MAX_TOTAL_BYTES in the push ConfigMap, so proxy-body-size can be checked`,
            );
          } else if (limit === undefined) {
            p.push(`${where}: proxy-body-size "${annotation}" is not an nginx size`);
          } else if (limit !== 0 && limit < total + FORM_OVERHEAD_BYTES) {
            const want = Math.ceil((total + FORM_OVERHEAD_BYTES) / 1024 ** 2);
            p.push(
              `${where}: proxy-body-size ${annotation} is below PUSH_FILES_MAX_TOTAL_BYTES (${total}) plus 16 MiB of form overhead; set at least ${want}m`,
            );
          }
        }
      }
    }
  }
  return [...new Set(p)];
}

/** Every rule below, over one rendered overlay. */
export function policyProblems(objects: K8sObject[]): string[] {
  const p: string[] = [];
  const configMaps = new Set(
    objects.filter((o) => o.kind === 'ConfigMap').map((o) => o.metadata?.name ?? ''),
  );
  for (const o of objects) {
    if (o.kind === 'Secret') p.push(`${name(o)}: Secret values never go into the manifests`);
    if (o.kind === 'ConfigMap') {
      for (const key of Object.keys(o.data ?? {})) {
        if (SECRET_NAME.test(key)) p.push(`${name(o)}: ${key} is a secret; reference it from a Secret`);
      }
    }
    const t = templateOf(o);
    if (!t) continue;
    if (t.spec.securityContext?.runAsNonRoot !== true) {
      p.push(`${name(o)}: pod securityContext.runAsNonRoot must be true`);
    }
    for (const c of t.spec.containers) {
      p.push(...containerProblems(name(o), c, o.kind === 'Deployment', configMaps));
    }
  }
  return [...p, ...referenceProblems(objects)];
}
