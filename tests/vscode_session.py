"""A real VS Code for tests and benchmarks: code-server (VS Code in a browser, from npm) with the
extension's .vsix installed, shown in Debian's chromium and driven by Playwright as a user
drives it (keys, mouse), reading what the user sees (squiggles, the status bar, the Problems
panel, menus, hovers, notifications).

The tools come from .ci/install-vscode-tools, which installs them into a cache outside the clone
($SAFETY_PROFILE_CI_CACHE, else ~/.cache/cleveragents-safety-profile-ci); `tools()` finds them
there or says what is missing (`MissingTool`). The .vsix is built from editors/vscode (its
`npm ci` done) with that cache's Node.js 24."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
INSTALLER = ROOT / ".ci" / "install-vscode-tools"
# Debian's chromium (the binary: /usr/bin/chromium is a wrapper), or another Chromium-based
# browser named by SAFETY_PROFILE_CHROMIUM (GitHub's Ubuntu runners have Google Chrome).
CHROMIUM = Path(os.environ.get("SAFETY_PROFILE_CHROMIUM", "/usr/lib/chromium/chromium"))
WAIT_MS = 60_000  # workbench, server start and first diagnostics on two busy cores


def _installer_setting(name: str) -> str:
    """A version pinned in .ci/install-vscode-tools (one place for both)."""
    found = re.search(rf"^{name}=(\S+)$", INSTALLER.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, name
    return found.group(1)


class MissingTool(Exception):
    """A tool the real VS Code needs is not installed; the message says how to install it."""


@dataclass(frozen=True)
class Tools:
    node_bin: Path  # Node.js 24's bin folder
    code_server: Path

    def environment(self, home: Path) -> dict[str, str]:
        """The environment code-server and npm run in: Node.js 24 first on PATH, and a scratch
        HOME (code-server, VS Code and chromium write into it)."""
        path = os.pathsep.join([str(self.node_bin), os.environ.get("PATH", "")])
        return {**os.environ, "PATH": path, "HOME": str(home)}


def cache_folder() -> Path:
    if "SAFETY_PROFILE_CI_CACHE" in os.environ:
        return Path(os.environ["SAFETY_PROFILE_CI_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cleveragents-safety-profile-ci"


def tools() -> Tools:
    """The installed tools; MissingTool names what is not there."""
    cache = cache_folder()
    node_bin = cache / f"node-{_installer_setting('NODE_VERSION')}" / "bin"
    code_server = (
        cache
        / f"code-server-{_installer_setting('CODE_SERVER_VERSION')}"
        / "node_modules"
        / ".bin"
        / "code-server"
    )
    install = "run .ci/install-vscode-tools (.ci/run does)"
    if not (node_bin / "node").exists() or not code_server.exists():
        raise MissingTool(f"code-server and Node.js 24 are not installed in {cache}: {install}")
    if not CHROMIUM.exists():
        raise MissingTool(f"no browser at {CHROMIUM} (Debian's chromium): {install}")
    try:
        import playwright  # noqa: F401
    except ImportError:
        raise MissingTool(
            "the playwright package is not installed: pip install '.[test]'"
        ) from None
    if not (EXTENSION / "node_modules" / ".bin" / "vsce").exists():
        raise MissingTool("the extension's build tools are not installed: npm ci in editors/vscode")
    return Tools(node_bin, code_server)


def build_vsix(found: Tools, out: Path) -> Path:
    """The extension packaged as a user gets it: `vsce package` (which compiles it first)."""
    version = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))["version"]
    out.mkdir(parents=True, exist_ok=True)
    vsix = out / f"cleveragents-safety-profile-{version}.vsix"
    with tempfile.TemporaryDirectory() as home:
        subprocess.run(
            [str(EXTENSION / "node_modules" / ".bin" / "vsce"), "package", "--out", str(vsix)],
            cwd=EXTENSION,
            env=found.environment(Path(home)),
            check=True,
            capture_output=True,
            text=True,
        )
    return vsix


# What a user of the test's VS Code does not want in the way: chat, tips, a welcome page, word
# suggestions mixed into the server's completion, and anything that goes on the network.
QUIET_SETTINGS = {
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "chat.disableAIFeatures": True,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "update.mode": "none",
    "editor.wordBasedSuggestions": "off",
    "editor.quickSuggestions": {"other": "off", "comments": "off", "strings": "off"},
    "editor.hover.delay": 100,
    "git.enabled": False,
    "files.autoSave": "off",
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Problem(NamedTuple):
    """A row of the Problems panel: 1-based line and column, the message, the rule id."""

    line: int
    column: int
    message: str
    code: str
    severity: str  # "error", "info", ...


_ROW_PLACE = re.compile(r"\[Ln (\d+), Col (\d+)\]")


class Workbench:
    """One browser tab of VS Code, driven through its user interface."""

    def __init__(self, page: Any, screenshots: Path) -> None:
        self.page = page
        self.screenshots = screenshots
        self.opened_at = 0.0  # time.monotonic() when the last Quick Open was confirmed
        self._shots = len(list(screenshots.glob("*.png")))  # numbered on from earlier sessions

    def screenshot(self, step: str) -> Path:
        self._shots += 1
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", step).strip("-")  # a test id holds `/`, `[`
        path = self.screenshots / f"{self._shots:02}-{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def command(self, name: str) -> None:
        """Run a command from the command palette, as a user does (F1, its title, Enter)."""
        self.page.keyboard.press("F1")
        self.page.wait_for_selector(".quick-input-widget input", timeout=WAIT_MS)
        self.page.keyboard.type(name)
        row = self.page.locator(".quick-input-list .monaco-list-row", has_text=name).first
        row.wait_for(timeout=WAIT_MS)
        self.page.keyboard.press("Enter")
        self._quick_input_closed()

    def open(self, relative: str) -> None:
        """Open a workspace file by Quick Open (Ctrl+P, its path, Enter)."""
        self.page.keyboard.press("Control+P")
        self.page.wait_for_selector(".quick-input-widget input", timeout=WAIT_MS)
        self.page.keyboard.type(relative)
        name = relative.rsplit("/", 1)[-1]
        self.page.locator(".quick-input-list .monaco-list-row", has_text=name).first.wait_for(
            timeout=WAIT_MS
        )
        self.page.keyboard.press("Enter")
        self.opened_at = time.monotonic()
        self._quick_input_closed()
        self.page.locator(".tab.active", has_text=name).wait_for(timeout=WAIT_MS)
        self.page.locator(".monaco-editor .view-line").first.wait_for(timeout=WAIT_MS)
        self.focus_editor()

    def focus_editor(self) -> None:
        self.page.locator(".editor-instance .monaco-editor .view-lines").first.click()

    def go_to(self, line: int, column: int) -> None:
        """Put the cursor at a 1-based line and column (Ctrl+G)."""
        self.page.keyboard.press("Control+G")
        self.page.wait_for_selector(".quick-input-widget input", timeout=WAIT_MS)
        self.page.keyboard.type(f"{line}:{column}")
        self.page.keyboard.press("Enter")
        self._quick_input_closed()

    def quick_fix_menu(self) -> Any:
        """Open the code action menu at the cursor (Ctrl+.) and return it. Pressed again, as a
        user would, when no menu came: on a loaded machine the first press can reach the editor
        before its code actions for the new diagnostics are ready ("No code actions available")."""
        menu = self.page.locator(".action-widget", has_text="Quick Fix").first
        deadline = time.monotonic() + WAIT_MS / 1000
        while True:
            self.page.keyboard.press("Control+.")
            try:
                menu.wait_for(timeout=5_000)
                return menu
            except Exception:  # playwright's TimeoutError: press again until the deadline
                if time.monotonic() > deadline:
                    raise
                self.page.keyboard.press("Escape")

    def _quick_input_closed(self) -> None:
        """Wait for the quick input to close: keys typed before then would go to it."""
        self.page.locator(".quick-input-widget").wait_for(state="hidden", timeout=WAIT_MS)

    def squiggles(self) -> int:
        return self.page.locator(".editor-instance .monaco-editor .squiggly-error").count()

    def wait_until(self, condition: Any, timeout_ms: int = WAIT_MS) -> float:
        """Poll `condition()` (every 20 ms) until true; the seconds it took."""
        start = time.monotonic()
        while not condition():
            if (time.monotonic() - start) * 1000 > timeout_ms:
                raise TimeoutError(f"not reached within {timeout_ms / 1000} s")
            self.page.wait_for_timeout(20)
        return time.monotonic() - start

    def status_problems(self) -> str:
        """The status bar's problems item as read aloud, e.g. `Errors: 2, Warnings: 0`."""
        return self.page.locator("[id='status.problems']").get_attribute("aria-label") or ""

    def status_errors(self) -> int:
        """The error count the status bar shows."""
        found = re.search(r"Errors: (\d+)", self.status_problems())
        return int(found.group(1)) if found else 0

    def show_problems(self) -> list[Problem]:
        """Open the Problems panel (Ctrl+Shift+M) and read its rows for the open files."""
        if not self.page.locator(".markers-panel").is_visible():
            self.page.keyboard.press("Control+Shift+M")
        self.page.wait_for_selector(".markers-panel", timeout=WAIT_MS)
        self.page.wait_for_timeout(300)  # the panel renders its rows after it opens
        return self.problems()

    def problems(self) -> list[Problem]:
        rows = []
        for row in self.page.locator(".markers-panel .monaco-list-row").all():
            label = row.get_attribute("aria-label") or ""
            place = _ROW_PLACE.search(row.inner_text())
            if place is None:
                continue  # a file's row
            severity = label.split(":", 1)[0].lower()
            text = row.inner_text().split("\n")
            message, code = text[0], text[2] if len(text) > 2 else ""
            rows.append(Problem(int(place.group(1)), int(place.group(2)), message, code, severity))
        return rows

    def close_panel(self) -> None:
        if self.page.locator(".markers-panel").is_visible():
            self.page.keyboard.press("Control+Shift+M")
            self.page.wait_for_timeout(200)
        self.focus_editor()

    def notifications(self) -> list[str]:
        return [
            toast.inner_text()
            for toast in self.page.locator(".notifications-toasts .notification-toast").all()
        ]


class VSCode(NamedTuple):
    workbench: Workbench
    url: str
    folder: Path
    user_data: Path


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright (its own browser download is not used)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage"],
        )
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def running_vscode(
    found: Tools,
    vsix: Path,
    folder: Path,
    scratch: Path,
    screenshots: Path,
    settings: Mapping[str, Any],
    browser: Any,
    *,
    workspace_trust: bool = False,
) -> Iterator[VSCode]:
    """code-server with `vsix` installed and `settings` as the user's settings, showing
    `folder` in a new tab (a fresh browser context) of `browser` (`chromium()`).
    `workspace_trust`: leave VS Code's workspace trust on (a folder not trusted yet opens in
    Restricted Mode); off, every folder is trusted."""
    home, user_data, extensions = scratch / "home", scratch / "user-data", scratch / "extensions"
    for made in (home, user_data, extensions, screenshots):
        made.mkdir(parents=True, exist_ok=True)
    environment = found.environment(home)
    dirs = ["--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    subprocess.run(
        [str(found.code_server), *dirs, "--install-extension", str(vsix)],
        env=environment,
        check=True,
        capture_output=True,
    )
    # code-server is VS Code's remote server: settings of `machine` scope (the extension's path
    # and interpreter) apply from the remote machine's settings, the others from the user's.
    for scope in ("User", "Machine"):
        (user_data / scope).mkdir(exist_ok=True)
        (user_data / scope / "settings.json").write_text(
            json.dumps({**QUIET_SETTINGS, **settings}, indent=2), encoding="utf-8"
        )
    port = _free_port()
    options = ["--auth", "none", "--bind-addr", f"127.0.0.1:{port}", *dirs]
    options += ["--disable-telemetry", "--disable-update-check"]
    if not workspace_trust:
        options.append("--disable-workspace-trust")
    log = (scratch / "code-server.log").open("wb")
    server = subprocess.Popen(
        [str(found.code_server), *options, str(folder)],
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/?folder={folder}"
    try:
        _wait_for_health(port, server)
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector(".monaco-workbench", timeout=WAIT_MS)
            page.wait_for_selector("[id='status.problems']", timeout=WAIT_MS)
            yield VSCode(Workbench(page, screenshots), url, folder, user_data)
        finally:
            context.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def _wait_for_health(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"code-server stopped with status {server.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError("code-server did not answer /healthz")


def server_log(user_data: Path) -> str:
    """The extension's output channel ("Safety Profile"), as VS Code wrote it to its logs."""
    logs = sorted(user_data.glob("logs/*/exthost*/cleveragents.safety-profile/*.log"))
    return "\n".join(path.read_text(encoding="utf-8", errors="replace") for path in logs)


def copy_tree(files: Mapping[str, str], folder: Path) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
