#!/usr/bin/env bash
# Sets up a fresh machine for bletrace (libpcap, zlib and SQLite headers, pkg-config; libsbc1, the SBC codec that
# `bletrace audio` loads at run time) and builds the release binary.
# Usage: bash scripts/setup.sh            (add --with-tshark to also install tshark for the comparison tests,
#        --with-chromium to install Debian's chromium for the HTML report's browser test and screenshots, and
#        --with-audio-tools to install sbc-tools, whose sbcenc the audio tests' capture generators use, ffmpeg, whose
#        native AAC encoder scripts/gen-a2dp-aac.py uses (never linked), and Bumble)
set -euo pipefail
cd "$(dirname "$0")/.."

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

missing=()
dpkg -s libpcap-dev >/dev/null 2>&1 || missing+=(libpcap-dev)
dpkg -s zlib1g-dev >/dev/null 2>&1 || missing+=(zlib1g-dev)
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
# Optional at build time: without it bletrace builds and runs, and says audio decoding is unavailable.
dpkg -s libsbc1 >/dev/null 2>&1 || missing+=(libsbc1)
for arg in "$@"; do
  case "$arg" in
    --with-tshark) command -v tshark >/dev/null 2>&1 || missing+=(tshark) ;;
    --with-chromium) command -v chromium >/dev/null 2>&1 || missing+=(chromium) ;;
    --with-audio-tools)
      command -v sbcenc >/dev/null 2>&1 || missing+=(sbc-tools)
      command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg) ;;
    *) echo "setup: ignoring unknown option $arg (known: --with-tshark, --with-chromium, --with-audio-tools)" >&2 ;;
  esac
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --with-audio-tools: Bumble (PyPI) too, for the test that records a real A2DP stream between two Bumble hosts.
for arg in "$@"; do
  if [ "$arg" = --with-audio-tools ] && ! python3 -c "import bumble" >/dev/null 2>&1; then
    echo "setup: installing bumble (pip)" >&2
    python3 -m pip install --quiet bumble
  fi
done

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH; fi
swift build -c release --product bletrace >&2
echo "setup: built .build/release/bletrace" >&2
