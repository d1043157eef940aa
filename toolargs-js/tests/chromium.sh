#!/usr/bin/env bash
# The browser test runs the package in headless Chromium. A machine without one gets Debian's
# (about 125 MB to download; 20 to 30 s).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
sudo=
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium
