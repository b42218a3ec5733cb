#!/usr/bin/env bash
# Renders the Mermaid diagrams of a Markdown report the way GitHub shows them, offline, and screenshots them:
# headless Chromium (Debian's `chromium`) runs Mermaid from the streamlit-mermaid wheel on PyPI (the only
# bundled copy of Mermaid this machine can fetch; it is downloaded to a temporary folder, never committed).
# The page talks to that bundle as Streamlit would: it answers the component's "ready" message with the
# diagram's text.
#   bash scripts/mermaid-screenshots.sh REPORT.md OUT-PREFIX [HEIGHT]
# writes OUT-PREFIX-1.png, OUT-PREFIX-2.png, … one per ```mermaid block.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: mermaid-screenshots.sh REPORT.md OUT-PREFIX [HEIGHT]" >&2; exit 2; }
report=$1 prefix=$2 height=${3:-1800}
command -v chromium >/dev/null 2>&1 || { echo "mermaid-screenshots: chromium is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --no-deps --dest "$work" streamlit-mermaid==0.3.0 >/dev/null
python3 - "$work" <<'EOF'
import sys, zipfile, glob
work = sys.argv[1]
zipfile.ZipFile(glob.glob(work + "/streamlit_mermaid-*.whl")[0]).extractall(work + "/wheel")
EOF
build="$work/wheel/streamlit_mermaid/frontend/build"
python3 - "$report" "$build" <<'EOF'
import json, re, sys
report, build = sys.argv[1], sys.argv[2]
blocks = re.findall(r"```mermaid\n(.*?)```", open(report, encoding="utf-8").read(), re.S)
for i, code in enumerate(blocks, 1):
    page = """<!doctype html><html><body style="margin:0;background:#fff">
<iframe id="f" src="./index.html" style="width:100%%;height:100vh;border:0"></iframe>
<script>
const code = %s;
window.addEventListener("message", (e) => {
  if ((e.data || {}).type !== "streamlit:componentReady") return;
  document.getElementById("f").contentWindow.postMessage({isStreamlitMessage: true, type: "streamlit:render",
    args: {code: code, width: "auto", height: "auto", pan: false, zoom: false, show_controls: false, key: null},
    dfs: [], disabled: false, theme: null}, "*");
});
</script></body></html>""" % json.dumps(code)
    open("%s/diagram-%d.html" % (build, i), "w", encoding="utf-8").write(page)
print(len(blocks))
EOF
n=$(ls "$build"/diagram-*.html 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || { echo "mermaid-screenshots: $report has no mermaid block" >&2; exit 1; }
for i in $(seq 1 "$n"); do
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
    --allow-file-access-from-files --virtual-time-budget=15000 --window-size=1000,"$height" \
    --screenshot="$prefix-$i.png" "file://$build/diagram-$i.html" >/dev/null 2>&1
  echo "mermaid-screenshots: wrote $prefix-$i.png" >&2
done
