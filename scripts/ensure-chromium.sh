#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the browser tests of the recipient pages
# (the browser suite: services/push/src/test/pages.browser.ts and packages/client/src/sdk.browser.ts
# drive /usr/bin/chromium with playwright-core).
# Installs the `chromium` package non-interactively when it is missing; never touches it otherwise.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium: not installed, and installing it needs root (apt-get install -y chromium)" >&2
  exit 1
fi
echo "chromium: installing Debian's chromium package" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq chromium >&2
command -v chromium >/dev/null 2>&1 || { echo "chromium: install failed" >&2; exit 1; }
