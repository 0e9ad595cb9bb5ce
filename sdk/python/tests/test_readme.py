"""The README's quick start runs as written (like the service's DocsToursIT runs the docs' tours): its first
`python` block under "## Quick start", with only http://localhost:8080 replaced by TENDER_BASE_URL."""
import os
import re
import subprocess
import sys

from conftest import API_KEY, BASE_URL, require_service

README = os.path.join(os.path.dirname(__file__), "..", "README.md")


def quick_start() -> str:
    with open(README, encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"```python\n(.*?)```", text[text.index("## Quick start"):], re.S)
    assert block, "the README's quick start has a python block"
    return block.group(1)


def test_the_readmes_quick_start_runs_as_written_and_redeems_a_voucher():
    require_service()
    run = subprocess.run([sys.executable, "-c", quick_start().replace("http://localhost:8080", BASE_URL)],
                         env={**os.environ, "TENDER_API_KEY": API_KEY}, capture_output=True, text=True, timeout=120,
                         cwd=os.path.dirname(README))
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"^rdm_[0-9a-f]{24} confirmed$", run.stdout, re.M), run.stdout
    assert re.search(r"^listed rdm_", run.stdout, re.M), run.stdout
