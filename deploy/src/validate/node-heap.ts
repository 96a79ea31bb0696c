/**
 * Node's heap against its container's memory limit, for Kubernetes and compose alike: V8 only
 * collects hard near its heap limit, so without `--max-old-space-size` a process grows until the
 * kernel kills the container. The heap gets ~75 % of the limit; the rest is buffers, code, stacks.
 */
export const HEAP_SHARE = { min: 0.7, max: 0.8, target: 0.75 };

const MIB = 1024 * 1024;
const UNITS: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 1024,
  Mi: MIB,
  Gi: 1024 * MIB,
  Ti: 1024 * 1024 * MIB,
};

/** Bytes of a Kubernetes memory quantity (`512Mi`, `1Gi`, `500M`, `1073741824`); undefined if not one. */
export function quantityBytes(q: string | number | undefined): number | undefined {
  if (typeof q === 'number') return q;
  const m = /^(\d+(?:\.\d+)?)([kMGT]i?|Ki)?$/.exec(q?.trim() ?? '');
  return m ? Number(m[1]) * UNITS[m[2] ?? '']! : undefined;
}

/** Bytes of a compose `mem_limit` (`512m`, `1g`, `384M`, `1073741824`, `512mb`): binary units. */
export function composeBytes(q: string | number | undefined): number | undefined {
  if (typeof q === 'number') return q;
  const m = /^(\d+)\s*([bkmg]?)b?$/i.exec(q?.trim() ?? '');
  if (!m) return undefined;
  const unit = { '': 1, b: 1, k: 1024, m: MIB, g: 1024 * MIB }[m[2]!.toLowerCase()]!;
  return Number(m[1]) * unit;
}

/**
 * What is wrong with `nodeOptions` (the NODE_OPTIONS value) for a container limited to
 * `limitBytes`: missing, no `--max-old-space-size`, or out of step with the limit.
 */
export function heapProblems(
  where: string,
  nodeOptions: string | undefined,
  limitBytes: number | undefined,
): string[] {
  if (limitBytes === undefined) return [`${where}: no memory limit to size the heap by`];
  const limitMiB = limitBytes / MIB;
  const want = Math.round(limitMiB * HEAP_SHARE.target);
  const hint = `--max-old-space-size=${want} (~75 % of the ${Math.round(limitMiB)} MiB memory limit)`;
  if (nodeOptions === undefined) return [`${where}: NODE_OPTIONS is missing; set ${hint}`];
  const m = /(?:^|\s)--max-old-space-size=(\d+)(?:\s|$)/.exec(nodeOptions);
  if (!m) return [`${where}: NODE_OPTIONS "${nodeOptions}" has no --max-old-space-size; set ${hint}`];
  const heap = Number(m[1]);
  const share = heap / limitMiB;
  if (share < HEAP_SHARE.min || share > HEAP_SHARE.max) {
    return [
      `${where}: --max-old-space-size=${heap} is ${Math.round(share * 100)} % of the ${Math.round(limitMiB)} MiB memory limit (want 70–80 %): set ${hint}`,
    ];
  }
  return [];
}
