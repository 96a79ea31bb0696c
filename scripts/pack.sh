#!/usr/bin/env bash
# make packages: builds the SDK and the CLI and packs each into an installable tarball in packs/.
# Install both together (the CLI's dependency on the SDK is met by the SDK's tarball; these names
# are not ours on the public registry, so never let npm look them up there):
#   npm install ./packs/secret-push-client-*.tgz ./packs/secret-push-cli-*.tgz
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/toolchain.sh || exit 1
rm -rf packs && mkdir -p packs
for pkg in client cli; do
  (cd "packages/$pkg" && pnpm pack --pack-destination ../../packs >/dev/null)
done
ls -1 "$PWD"/packs/*.tgz
