#!/usr/bin/env bash
# Regenerates docs/man/bletrace.1 from the command-line definitions (swift-argument-parser's generate-manual plugin),
# then makes the plugin's output clean mdoc: a blank line of a discussion becomes a paragraph break (.Pp), and the
# indented example lines after "Examples:" a literal display, so that `man -l` warns about nothing and no example
# is filled into a paragraph.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package --allow-writing-to-package-directory generate-manual --output-directory docs/man \
  --date "$(date -u +%Y-%m-%d)" --authors "bletrace developers"
awk '
  function close_display() { if (display) { print ".Ed"; display = 0 } }
  /^  / && (display || examples) {
      if (!display) { print ".Bd -literal -offset indent"; display = 1 }
      line = substr($0, 3); print line; examples = 0; next
  }
  { close_display(); examples = 0 }
  /^$/ { print ".Pp"; next }
  /^Examples:$/ { examples = 1 }
  { print }
  END { close_display() }
' docs/man/bletrace.1 > docs/man/bletrace.1.tmp
mv docs/man/bletrace.1.tmp docs/man/bletrace.1
