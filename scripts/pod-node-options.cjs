#!/usr/bin/env node
// The NODE_OPTIONS of a service's Kubernetes Deployment (k8s/base), so that `make up` and the
// benchmarks run each process with the heap settings its pods ship with and cannot drift from them.
// `node scripts/pod-node-options.cjs auth|push|worker` prints the value; bench/src/processes.ts
// requires podNodeOptions(). Parsed with deploy/'s yaml, as scripts/validate-deploy.sh reads them.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const DEPLOYMENTS = {
  auth: 'k8s/base/auth/deployment.yaml',
  push: 'k8s/base/push/deployment.yaml',
  worker: 'k8s/base/push/worker-deployment.yaml',
};

/** The NODE_OPTIONS env value of the service's container; throws when there is none. */
function podNodeOptions(service) {
  const file = DEPLOYMENTS[service];
  if (!file) throw new Error(`pod-node-options: unknown service "${service}" (auth, push or worker)`);
  const yaml = require(require.resolve('yaml', { paths: [join(root, 'deploy')] }));
  const containers = yaml.parse(readFileSync(join(root, file), 'utf8'))?.spec?.template?.spec?.containers;
  const value = containers?.[0]?.env?.find((e) => e.name === 'NODE_OPTIONS')?.value;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`pod-node-options: ${file} has no NODE_OPTIONS in its first container's env`);
  }
  return value.trim();
}

module.exports = { podNodeOptions };

if (require.main === module) {
  try {
    console.log(podNodeOptions(process.argv[2]));
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
