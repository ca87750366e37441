"""How fast a VS Code user sees the hook's verdict: in a real VS Code (code-server with the
extension's .vsix, in headless chromium, as tests/editors/test_editor_vscode.py runs it), the time
from opening a profile to its squiggles, and from a keystroke to the squiggles it makes or clears.

Run from the repository root, in the project's virtual environment, after .ci/install-vscode-tools
and `npm ci` in editors/vscode:

    .venv/bin/python benchmarks/vscode_speed.py
    .venv/bin/python benchmarks/vscode_speed.py --files 8 --keystrokes 40

Times are measured from the browser's side, as a user would: Playwright sends the key or the
Quick Open Enter (the file's name typed first), then polls the editor's DOM every 20 ms for the
squiggles (so each figure can be up to ~20 ms late). The first file opened also starts the
server: it is reported on its own. A keystroke alternates between `truex` (a string where a
boolean belongs: one error) and `true` (no error), at the end of `require_sandbox: true`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lsp_speed import report  # noqa: E402  (beside this script: the same figures' layout)
from vscode_session import MissingTool, build_vsix, chromium, running_vscode, tools  # noqa: E402

INVALID = "require_sandbox: yes\nmax_retries_per_step: 101\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=6, help="profiles opened one after another")
    parser.add_argument("--keystrokes", type=int, default=20, help="keystrokes timed")
    args = parser.parse_args(argv)
    try:
        found = tools()
    except MissingTool as missing:
        print(f"vscode_speed: {missing}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        folder = scratch / "workspace"
        folder.mkdir()
        for number in range(args.files):
            (folder / f"p{number}.safety_profile.yaml").write_text(INVALID)
        (folder / "typed.safety_profile.yaml").write_text("require_sandbox: true\n")
        vsix = build_vsix(found, scratch / "vsix")
        settings = {"safetyProfile.interpreter": sys.executable}
        started = time.monotonic()
        with (
            chromium() as browser,
            running_vscode(
                found, vsix, folder, scratch / "code-server", scratch / "shots", settings, browser
            ) as vscode,
        ):
            workbench = vscode.workbench
            print(f"workbench ready after {time.monotonic() - started:.1f} s")
            opened = []
            for number in range(args.files):
                workbench.open(f"p{number}.safety_profile.yaml")
                workbench.wait_until(lambda: workbench.squiggles() == 2)
                opened.append(time.monotonic() - workbench.opened_at)
            report("open -> diagnostics, server starting", opened[:1])
            report("open -> diagnostics, server running", opened[1:])
            workbench.open("typed.safety_profile.yaml")
            workbench.go_to(1, 22)
            typed = []
            for stroke in range(args.keystrokes):
                key, errors = ("x", 1) if stroke % 2 == 0 else ("Backspace", 0)
                start = time.monotonic()
                workbench.page.keyboard.press(key)
                workbench.wait_until(lambda errors=errors: workbench.squiggles() == errors)
                typed.append(time.monotonic() - start)
            report("keystroke -> diagnostics", typed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
