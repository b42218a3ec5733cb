#!/usr/bin/env bash
# Regenerates docs/man/bletrace.1 from the command-line definitions (swift-argument-parser's generate-manual plugin).
set -euo pipefail
cd "$(dirname "$0")/.."
swift package --allow-writing-to-package-directory generate-manual --output-directory docs/man \
  --date "$(date -u +%Y-%m-%d)" --authors "bletrace developers"
