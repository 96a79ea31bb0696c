import { Gauge, type Registry } from 'prom-client';
import type { Readiness } from './readiness';

/**
 * `<prefix>_dependency_up{dependency="…"}`: 1 when the dependency answered its last check, 0 when
 * not, for every dependency of `readiness`, required or not (`push_dependency_up{dependency=
 * "object_store"}` says file pushes are down while the API stays ready). Updated by every
 * evaluation of the returned readiness (each `/readyz`) and, afresh, at every scrape.
 */
export function exportDependencyStates(readiness: Readiness, registry: Registry, prefix: string): Readiness {
  const observed: Readiness = async () => {
    const report = await readiness();
    for (const [dependency, state] of Object.entries(report.checks)) {
      gauge.set({ dependency }, state === 'ok' ? 1 : 0);
    }
    return report;
  };
  const gauge = new Gauge({
    name: `${prefix}_dependency_up`,
    help: 'Whether each dependency answered its last readiness check (1) or not (0)',
    labelNames: ['dependency'],
    registers: [registry],
    async collect() {
      await observed();
    },
  });
  return observed;
}
