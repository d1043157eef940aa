#!/usr/bin/env bash
# PySpark needs a Java runtime, 17 or later. A machine without one gets Debian's.
set -euo pipefail
major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1; }
if command -v java >/dev/null 2>&1 && [ "$(major)" -ge 17 ]; then
  exit 0
fi
sudo=
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
  openjdk-17-jre-headless
