"""CI's dependency audit: pip-audit on what requirements.txt installs, against PyPI's vulnerability data.

Audited: the pins of requirements.txt and every package they pull in, at the versions installed in this
virtualenv (read from the installed metadata, so nothing is downloaded or installed for the audit).

Exit 1 on a known vulnerability. Exit 0 with a WARNING when the vulnerability data cannot be reached (this
machine may not reach it: every package then comes back unaudited) or when pip-audit is not installed.
Run by .ci/run with the virtualenv's Python: ``.venv/bin/python .ci/audit.py``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120


def runtime_pins(requirements: Path) -> dict[str, str]:
    """name -> installed version for the requirements and everything they need (their extras included)."""
    wanted: list[Requirement] = []
    for line in requirements.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            wanted.append(Requirement(line))
    pins: dict[str, str] = {}
    while wanted:
        req = wanted.pop()
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # e.g. a package for another platform
        extras = {"", *req.extras}
        for raw in dist.requires or []:
            sub = Requirement(raw)
            if sub.marker is None or any(sub.marker.evaluate({"extra": extra}) for extra in extras):
                wanted.append(sub)
        pins.setdefault(name, dist.version)
    return pins


def verdict(report: dict[str, Any] | None, stderr: str = "") -> tuple[int, str]:
    """The exit code and what to print, from pip-audit's JSON report (None: it gave none)."""
    if report is None:
        tail = "\n".join(stderr.strip().splitlines()[-3:])
        return (
            0,
            f"WARNING: dependency audit skipped: pip-audit gave no report (service unreachable?)\n{tail}",
        )
    deps = report.get("dependencies", [])
    vulnerable = [dep for dep in deps if dep.get("vulns")]
    if vulnerable:
        lines = [
            f"  {dep['name']} {dep.get('version', '')}: {vuln['id']}"
            + (f" (fixed in {', '.join(vuln['fix_versions'])})" if vuln.get("fix_versions") else "")
            for dep in vulnerable
            for vuln in dep["vulns"]
        ]
        return 1, "Known vulnerabilities in the dependencies:\n" + "\n".join(lines)
    skipped = [dep for dep in deps if dep.get("skip_reason")]
    if deps and len(skipped) == len(deps):
        return 0, (
            f"WARNING: dependency audit skipped: the vulnerability data could not be reached for any of the "
            f"{len(deps)} packages ({skipped[0]['skip_reason']})"
        )
    note = f"; WARNING: not audited: {', '.join(dep['name'] for dep in skipped)}" if skipped else ""
    audited = len(deps) - len(skipped)
    return 0, f"dependency audit: no known vulnerability in {audited} package{'s' * (audited != 1)}{note}"


def main() -> int:
    tool = shutil.which("pip-audit", path=str(Path(sys.executable).parent)) or shutil.which("pip-audit")
    if tool is None:
        print("WARNING: dependency audit skipped: pip-audit is not installed (requirements-dev.txt)")
        return 0
    pins = runtime_pins(ROOT / "requirements.txt")
    with tempfile.TemporaryDirectory() as tmp:
        req = Path(tmp) / "requirements.txt"
        req.write_text("".join(f"{name}=={version}\n" for name, version in sorted(pins.items())))
        out = Path(tmp) / "audit.json"
        args = [tool, "-r", str(req), "--no-deps", "--disable-pip", "--progress-spinner", "off"]
        try:
            done = subprocess.run(
                [*args, "--format", "json", "--output", str(out)],
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
            )
            stderr = done.stderr
        except subprocess.TimeoutExpired:
            stderr = f"no answer in {TIMEOUT} s"
        try:
            report = json.loads(out.read_text())
        except (OSError, ValueError):
            report = None
    code, message = verdict(report, stderr)
    print(message)
    return code


if __name__ == "__main__":
    sys.exit(main())
