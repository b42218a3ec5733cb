#!/usr/bin/env python3
"""Generate the Bluetooth SIG assigned-number tables used by bletrace.

Usage (from the repository root):

    pip install bluetooth-sig        # ships the SIG's assigned-numbers YAML files
    python3 scripts/gen-assigned-numbers.py            # rewrite the Swift tables
    python3 scripts/gen-assigned-numbers.py --check    # exit 1 if they are stale

Only the YAML data files inside the PyPI package `bluetooth-sig` are read (the
package's Python code is never imported); PyYAML, one of its dependencies, parses
them. `--sig-dir DIR` reads the same YAML tree from somewhere else instead, e.g. a
checkout of the SIG's public assigned-numbers repository (the folder that holds
`uuids/`, `core/` and `company_identifiers/`).

Output: one Swift file per table in Sources/BLETrace/AssignedNumbers/. Each table
is a single multi-line string literal, one `HEX<TAB>Name` entry per line, that
AssignedNumbers.swift (hand-written, not generated) parses lazily into a
dictionary. A string literal keeps compile times low; a 4000-entry dictionary
literal would not.

Names keep the SIG spelling, with two deliberate exceptions (see OVERRIDES and
clean_name): 0x1800/0x1801 use the long service names, and the LaTeX
`\\textsubscript{..}` markup in two names becomes plain text.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import re
import sys
from pathlib import Path

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("PyYAML is missing: pip install bluetooth-sig (or pip install pyyaml)")

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = REPO_ROOT / "Sources" / "BLETrace" / "AssignedNumbers"

# The SIG's YAML calls these two services "GAP" and "GATT"; traces read better with
# the names the Core Specification gives the services themselves.
OVERRIDES: dict[str, dict[int, str]] = {
    "services": {0x1800: "Generic Access", 0x1801: "Generic Attribute"},
}


def find_sig_dir() -> tuple[Path, str]:
    spec = importlib.util.find_spec("bluetooth_sig")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("bluetooth-sig is not installed: pip install bluetooth-sig")
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "bluetooth_sig" / "assigned_numbers"
        if (candidate / "uuids").is_dir():
            version = importlib.metadata.version("bluetooth-sig")
            return candidate, f"PyPI bluetooth-sig {version}"
    sys.exit("bluetooth-sig is installed but has no bluetooth_sig/assigned_numbers data")


def load(sig_dir: Path, relpath: str, key: str) -> list[dict]:
    with open(sig_dir / relpath, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    entries = doc[key]
    if not isinstance(entries, list) or not entries:
        sys.exit(f"{relpath}: no '{key}' list")
    return entries


def as_int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        sys.exit(f"{where}: bad number {value!r}")
    return value if isinstance(value, int) else int(str(value), 0)


def clean_name(name: object, where: str) -> str:
    if not isinstance(name, str):
        sys.exit(f"{where}: bad name {name!r}")
    # "CO\textsubscript{2} Concentration" -> "CO2 Concentration"
    name = re.sub(r"\\text(?:subscript|superscript)\{([^}]*)\}", r"\1", name)
    name = name.strip()
    if not name or any(c in name for c in "\t\r\n"):
        sys.exit(f"{where}: unusable name {name!r}")
    return name


def simple_table(sig_dir: Path, relpath: str, key: str, value_key: str,
                 name_key: str = "name") -> dict[int, str]:
    table: dict[int, str] = {}
    for i, entry in enumerate(load(sig_dir, relpath, key)):
        where = f"{relpath}[{i}]"
        value = as_int(entry[value_key], where)
        if not 0 <= value <= 0xFFFF:
            sys.exit(f"{where}: {value:#x} out of range")
        if value in table:
            sys.exit(f"{where}: duplicate {value:#06x}")
        table[value] = clean_name(entry[name_key], where)
    return table


def appearance_tables(sig_dir: Path) -> tuple[dict[int, str], dict[int, str]]:
    relpath = "core/appearance_values.yaml"
    categories: dict[int, str] = {}
    subcategories: dict[int, str] = {}
    for i, entry in enumerate(load(sig_dir, relpath, "appearance_values")):
        where = f"{relpath}[{i}]"
        category = as_int(entry["category"], where)
        if not 0 <= category <= 0x3FF or category in categories:
            sys.exit(f"{where}: bad or duplicate category {category:#x}")
        categories[category] = clean_name(entry["name"], where)
        for j, sub in enumerate(entry.get("subcategory") or []):
            sub_where = f"{where}.subcategory[{j}]"
            sub_value = as_int(sub["value"], sub_where)
            if not 0 <= sub_value <= 0x3F:
                sys.exit(f"{sub_where}: bad subcategory {sub_value:#x}")
            full = category << 6 | sub_value
            if full in subcategories:
                sys.exit(f"{sub_where}: duplicate {full:#06x}")
            subcategories[full] = clean_name(sub["name"], sub_where)
    return categories, subcategories


def swift_escape(name: str) -> str:
    return name.replace("\\", "\\\\").replace('"', '\\"')


# Service class names in the SIG's list are often identifiers ("SerialPort", "LANAccessUsingPPP"); these read
# badly when split mechanically.
SERVICE_CLASS_NAMES: dict[str, str] = {
    "IrMCSync": "IrMC Sync",
    "IrMCSyncCommand": "IrMC Sync Command",
    "HCR_Print": "HCR Print",
    "HCR_Scan": "HCR Scan",
    "UPNP_IP_Service": "UPnP IP Service",
    "UPNP_Service": "UPnP Service",
    "PnPInformation": "PnP Information",
    "WAP_CLIENT": "WAP Client",
}


def humanize(name: str) -> str:
    """A service class identifier as words: "LANAccessUsingPPP" -> "LAN Access Using PPP"."""
    if name in SERVICE_CLASS_NAMES:
        return SERVICE_CLASS_NAMES[name]
    n = name.removesuffix("ServiceClassID").replace("_", " ")
    n = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", n)
    n = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", " ", n)
    return re.sub(r"\s+", " ", n).strip()


def render(source: str, doc: str, decls: list[tuple[str, str, dict[int, str], int]]) -> str:
    """decls: (property name, doc comment, table, hex digits)."""
    out = [
        f"// {doc}",
        "// Generated by scripts/gen-assigned-numbers.py -- do not edit by hand.",
        f"// Data: Bluetooth SIG Assigned Numbers, as shipped in {source}.",
        "",
        "extension AssignedNumbers {",
    ]
    for name, comment, table, digits in decls:
        out += [
            f"    /// {comment}",
            f"    static let {name}: NameTable = parseTable({name}Text)",
            "",
            f"    /// Number of entries in `{name}Text`; the tests compare it with the parsed count.",
            f"    static let {name}EntryCount = {len(table)}",
            "",
            "    // One entry a line: hexadecimal value, a tab, the name.",
            f"    private static let {name}Text = \"\"\"",
        ]
        for value in sorted(table):
            out.append(f"{value:0{digits}X}\t{swift_escape(table[value])}")
        out += ['"""', ""]
    out[-1:] = ["}", ""]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sig-dir", type=Path, help="SIG assigned_numbers folder to read instead")
    parser.add_argument("--check", action="store_true", help="only report whether the files are current")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    args = parser.parse_args()

    if args.sig_dir:
        sig_dir, source = args.sig_dir, f"the YAML tree at {args.sig_dir.name}"
    else:
        sig_dir, source = find_sig_dir()

    def table(relpath: str, key: str = "uuids", value_key: str = "uuid", name_key: str = "name",
              override: str | None = None) -> dict[int, str]:
        t = simple_table(sig_dir, relpath, key, value_key, name_key)
        for value, name in OVERRIDES.get(override or "", {}).items():
            if value not in t:
                sys.exit(f"override for {value:#06x} has no SIG entry to replace")
            t[value] = name
        return t

    declarations = table("uuids/declarations.yaml")
    services = table("uuids/service_uuids.yaml", override="services")
    members = table("uuids/member_uuids.yaml")
    characteristics = table("uuids/characteristic_uuids.yaml")
    descriptors = table("uuids/descriptors.yaml")
    units = table("uuids/units.yaml")
    companies = table("company_identifiers/company_identifiers.yaml", "company_identifiers", "value")
    formats = table("core/formattypes.yaml", "formattypes", "value", "short_name")
    categories, subcategories = appearance_tables(sig_dir)
    service_classes = {k: humanize(v) for k, v in table("uuids/service_class.yaml").items()}
    protocols = table("uuids/protocol_identifiers.yaml")

    if any(v > 0xFF for v in formats):
        sys.exit("format type above 0xFF")

    files = {
        "Declarations.swift": render(source, "GATT attribute types (declarations), 0x2800...", [
            ("declarationTable", "GATT declaration UUIDs (Primary Service, Characteristic, ...).", declarations, 4)]),
        "Services.swift": render(source, "GATT service UUIDs assigned by the SIG.", [
            ("serviceTable", "16-bit GATT service UUIDs.", services, 4)]),
        "MemberServices.swift": render(source, "16-bit UUIDs the SIG assigned to member companies.", [
            ("memberServiceTable", "Member service UUIDs, named after the member as the SIG lists them.", members, 4)]),
        "Characteristics.swift": render(source, "GATT characteristic UUIDs.", [
            ("characteristicTable", "16-bit GATT characteristic UUIDs.", characteristics, 4)]),
        "Descriptors.swift": render(source, "GATT descriptor UUIDs.", [
            ("descriptorTable", "16-bit GATT descriptor UUIDs.", descriptors, 4)]),
        "Units.swift": render(source, "GATT unit UUIDs (Characteristic Presentation Format unit field).", [
            ("unitTable", "16-bit unit UUIDs, 0x2700...", units, 4)]),
        "Companies.swift": render(source, "Company identifiers (manufacturer data, LMP version, DIS PnP ID).", [
            ("companyTable", "Company identifiers.", companies, 4)]),
        "Formats.swift": render(source, "Characteristic Presentation Format 'Format' field values.", [
            ("formatTable", "Format types, keyed by the 8-bit value.", formats, 2)]),
        "ServiceClasses.swift": render(source, "Service class and protocol UUIDs of the classic side (SDP records, EIR).", [
            ("serviceClassTable", "16-bit service class UUIDs, 0x1000...", service_classes, 4),
            ("protocolTable", "16-bit protocol UUIDs (SDP protocol descriptor lists).", protocols, 4)]),
        "Appearance.swift": render(source, "GAP Appearance values: category (bits 15-6) and subcategory (bits 5-0).", [
            ("appearanceCategoryTable", "Appearance categories, keyed by the 10-bit category number.", categories, 3),
            ("appearanceSubcategoryTable", "Appearance subcategories, keyed by the full 16-bit appearance value.",
             subcategories, 4)]),
    }

    stale = []
    for filename, text in files.items():
        path = args.out / filename
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(filename)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

    sizes = {
        "declarations": len(declarations), "services": len(services), "member services": len(members),
        "characteristics": len(characteristics), "descriptors": len(descriptors), "units": len(units),
        "companies": len(companies), "formats": len(formats), "appearance categories": len(categories),
        "appearance subcategories": len(subcategories), "service classes": len(service_classes),
        "protocols": len(protocols),
    }
    print(f"source: {source}")
    print(", ".join(f"{k} {v}" for k, v in sizes.items()))
    if args.check:
        if stale:
            print("stale: " + ", ".join(stale))
            sys.exit(1)
        print("up to date")
    else:
        print("wrote: " + (", ".join(stale) if stale else "nothing (already current)"))


if __name__ == "__main__":
    main()
