#!/usr/bin/env bash
# Sets up a fresh machine for bletrace (libpcap headers, pkg-config) and builds the release binary.
# Usage: bash scripts/setup.sh            (add --with-tshark to also install tshark for the comparison tests)
set -euo pipefail
cd "$(dirname "$0")/.."

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

missing=()
dpkg -s libpcap-dev >/dev/null 2>&1 || missing+=(libpcap-dev)
dpkg -s zlib1g-dev >/dev/null 2>&1 || missing+=(zlib1g-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if [ "${1:-}" = "--with-tshark" ]; then command -v tshark >/dev/null 2>&1 || missing+=(tshark); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build -c release --product bletrace >&2
echo "setup: built .build/release/bletrace" >&2
