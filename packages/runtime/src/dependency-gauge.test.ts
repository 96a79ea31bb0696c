import { Registry } from 'prom-client';
import { exportDependencyStates } from './dependency-gauge';
import { createReadiness } from './readiness';

describe('exportDependencyStates', () => {
  it('exports every dependency as <prefix>_dependency_up, updated by each readiness check and at scrape time', async () => {
    const registry = new Registry();
    let storeUp = true;
    let checks = 0;
    const readiness = exportDependencyStates(
      createReadiness({
        database: {
          check: () => {
            checks++;
            return Promise.resolve();
          },
          required: true,
        },
        object_store: {
          check: () => (storeUp ? Promise.resolve() : Promise.reject(new Error('down'))),
          required: false,
        },
      }),
      registry,
      'push',
    );
    const up = async () =>
      ((await registry.getSingleMetric('push_dependency_up')!.get()).values ?? []).map((v) => [
        v.labels.dependency,
        v.value,
      ]);

    expect(await readiness()).toEqual({ ready: true, checks: { database: 'ok', object_store: 'ok' } });
    storeUp = false;
    // A readiness evaluation (the probe's /readyz) updates the gauge …
    expect((await readiness()).ready).toBe(true);
    const afterProbe = checks;
    expect((await registry.getSingleMetric('push_dependency_up')!.get()).values.map((v) => v.value)).toEqual([
      1, 0,
    ]);
    // … and so does a scrape, with a fresh check.
    storeUp = true;
    const text = await registry.metrics();
    expect(checks).toBeGreaterThan(afterProbe);
    expect(text).toContain('# TYPE push_dependency_up gauge');
    expect(text).toContain('push_dependency_up{dependency="database"} 1');
    expect(text).toContain('push_dependency_up{dependency="object_store"} 1');
    expect(await up()).toEqual([
      ['database', 1],
      ['object_store', 1],
    ]);
  });
});
