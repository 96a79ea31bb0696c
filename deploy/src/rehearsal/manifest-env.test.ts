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
    });
  });

  it('refuses a Secret reference without a local value, and an unknown workload', () => {
    expect(() => workloadOf(objects, 'Deployment', 'api', {})).toThrow('no local value for Secret sec/k');
    expect(() => workloadOf(objects, 'Job', 'api', {})).toThrow('Job/api: no container with a command');
  });
});
