"""What a load run's logs hold that needs a look: tracebacks (by the line that ends them and the
frame of ours nearest to it), ERROR and CRITICAL lines (the app's JSON lines and gunicorn's and
RQ's plain ones), WARNING lines (by logger and message, numbers and addresses folded) and 500
answers; `bench.chaos` and `bench.scale` print it."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

OURS = ("/api/", "/worker/", "/rules/")


def scan_log(path: Path) -> dict:
    tracebacks, errors, warnings, answered_500 = Counter(), Counter(), Counter(), 0
    lines = path.read_text(errors="replace").splitlines()
    for number, line in enumerate(lines):
        if line.startswith("Traceback"):
            end, ours = number + 1, ""
            while end < len(lines) and (lines[end].startswith((" ", "\t", "During", "The above"))
                                        or not lines[end].strip()
                                        or lines[end].startswith("Traceback")):
                if lines[end].lstrip().startswith("File") and any(
                        part in lines[end] for part in OURS) and "site-packages" not in lines[end]:
                    ours = lines[end].strip().split("/")[-1][:60]
                end += 1
            last = lines[end][:130] if end < len(lines) else "(cut)"
            tracebacks[f"{last}  [{ours or 'no frame of ours'}]"] += 1
        if line.startswith("{"):  # the app's JSON lines
            try:
                entry = json.loads(line)
            except ValueError:
                entry = {}
            if entry.get("level") in ("ERROR", "CRITICAL"):
                errors[f"{entry.get('logger')}: {entry.get('message', '')[:140]}"] += 1
            elif entry.get("level") == "WARNING":
                warnings[folded(f"{entry.get('logger')}: {entry.get('message', '')}")] += 1
            answered_500 += entry.get("status") == 500
        elif " ERROR" in line or "[ERROR]" in line or "CRITICAL" in line:
            errors[line[line.find("ERROR"):][:160]] += 1
        elif " WARNING" in line or "[WARNING]" in line:
            warnings[folded(line[line.find("WARNING"):])] += 1
    return {"tracebacks": tracebacks, "errors": errors, "warnings": warnings,
            "500": answered_500}


def folded(message: str) -> str:
    """One line a kind: ids, addresses and numbers replaced."""
    return re.sub(r"[0-9a-f]{16,}|[\w-]{16}|\d+(\.\d+)*", "#", message)[:110]


def merged(scans: list[dict]) -> dict:
    total = {"tracebacks": Counter(), "errors": Counter(), "warnings": Counter(), "500": 0}
    for scan in scans:
        total["tracebacks"] += scan["tracebacks"]
        total["errors"] += scan["errors"]
        total["warnings"] += scan["warnings"]
        total["500"] += scan["500"]
    return total


def print_scan(title: str, scan: dict, lines: int = 15) -> None:
    print(f"\n{title}: {sum(scan['tracebacks'].values())} tracebacks, "
          f"{sum(scan['errors'].values())} ERROR lines, {sum(scan['warnings'].values())} "
          f"WARNING lines, {scan['500']} answers 500")
    for line, count in scan["tracebacks"].most_common(lines):
        print(f"  {count:5d} traceback ending  {line}")
    for line, count in scan["errors"].most_common(lines):
        print(f"  {count:5d} {line}")
    for line, count in scan["warnings"].most_common(lines):
        print(f"  {count:5d} warning  {line}")
