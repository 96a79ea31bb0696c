import { workloadOf } from './manifest-env';
import type { K8sObject } from '../validate/kubernetes';

const objects: K8sObject[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg-abc' }, data: { A: '1', B: 'from-map' } },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api' },
    spec: {
      template: {
        spec: {
          containers: [
            {
              name: 'api',
              command: ['node', 'dist/main.js'],
              envFrom: [{ configMapRef: { name: 'cfg-abc' } }],
              env: [
                { name: 'B', value: 'literal wins' },
                { name: 'S', valueFrom: { secretKeyRef: { name: 'sec', key: 'k' } } },
              ],
            },
          ],
        },
      },
    },
  },
];

describe('workloadOf', () => {
  it('resolves the command, envFrom ConfigMaps, literals and Secret references as the kubelet does', () => {
    expect(workloadOf(objects, 'Deployment', 'api', { 'sec/k': 'secret value' })).toEqual({
      command: ['node', 'dist/main.js'],
      env: { A: '1', B: 'literal wins', S: 'secret value' },
      files: {},
    });
  });

  it('refuses a Secret reference without a local value, and an unknown workload', () => {
    expect(() => workloadOf(objects, 'Deployment', 'api', {})).toThrow('no local value for Secret sec/k');
    expect(() => workloadOf(objects, 'Job', 'api', {})).toThrow('Job/api: no container with a command');
  });

  it('turns a Secret volume into local files and points the *_FILE value that names one at it', () => {
    const withVolume = structuredClone(objects);
    const pod = (withVolume[1]!.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    const [container] = pod.containers as Record<string, unknown>[];
    container!.env = [{ name: 'SMTP_URL_FILE', value: '/etc/app/smtp/smtp-url' }];
    container!.volumeMounts = [{ name: 'smtp', mountPath: '/etc/app/smtp/', readOnly: true }];
    pod.volumes = [
      { name: 'smtp', secret: { secretName: 'sec', items: [{ key: 'smtp-url', path: 'smtp-url' }] } },
    ];
    const w = workloadOf(
      withVolume,
      'Deployment',
      'api',
      { 'sec/smtp-url': 'smtp://127.0.0.1:2525' },
      '/run/x',
    );
    expect(w.env.SMTP_URL_FILE).toBe('/run/x/smtp/smtp-url');
    expect(w.files).toEqual({ '/run/x/smtp/smtp-url': 'smtp://127.0.0.1:2525' });
    expect(() => workloadOf(withVolume, 'Deployment', 'api', {}, '/run/x')).toThrow(
      'no local value for Secret sec/smtp-url',
    );
    expect(() => workloadOf(withVolume, 'Deployment', 'api', { 'sec/smtp-url': 'x' })).toThrow(
      'give a directory for its files',
    );
  });
});
