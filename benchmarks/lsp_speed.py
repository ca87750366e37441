"""How fast `safety-profile lsp` answers an editor: time from `didChange` to the
`publishDiagnostics` that follows it, on every example file and on a 2,000-line profile, and
from starting the server to the first diagnostics; a completion inside
`allowed_skill_categories` in a workspace of 2,000 profiles, each in a folder of its own in one
repository, with 20 other YAML buffers of 680 KB open (the categories are the workspace's
files' and the checked buffers'); the server's memory at the end.

Run from the repository root, in the project's virtual environment (with the lsp extra):

    .venv/bin/python benchmarks/lsp_speed.py
    .venv/bin/python benchmarks/lsp_speed.py --changes 20 --starts 5

The server runs as editors run it (the `safety-profile lsp` console script over stdio). Each
change replaces the whole text with the file's text and a comment line alternately, so every
check is real work; changes are sent one at a time, each after the previous publication, with
`debounce_ms: 0` (the default 50 ms debounce only delays changes typed closer together than
that). Targets from the issue (19): median under 20 ms after a change on the examples; first
diagnostics under 1.5 s after start.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
SERVER = [str(Path(sys.executable).with_name("safety-profile")), "lsp"]


def _send(stream: IO[bytes], message: dict[str, Any]) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    stream.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    stream.flush()


def _receive(stream: IO[bytes]) -> dict[str, Any]:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    message: dict[str, Any] = json.loads(stream.read(length))
    return message


class Session:
    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.input, self.output = self.process.stdin, self.process.stdout
        _send(
            self.input,
            {
                "id": 1,
                "method": "initialize",
                "params": {
                    "processId": None,
                    "rootUri": root.as_uri(),
                    "capabilities": {},
                    "initializationOptions": {"debounce_ms": 0},
                },
            },
        )
        self.until(lambda message: message.get("id") == 1)
        _send(self.input, {"method": "initialized", "params": {}})

    def until(self, wanted: Any) -> dict[str, Any]:
        while not wanted(message := _receive(self.output)):
            pass
        return message

    def published(self, uri: str) -> dict[str, Any]:
        return self.until(
            lambda message: (
                message.get("method") == "textDocument/publishDiagnostics"
                and message["params"]["uri"] == uri
            )
        )

    def open(self, uri: str, text: str) -> None:
        document = {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
        _send(self.input, {"method": "textDocument/didOpen", "params": {"textDocument": document}})
        self.published(uri)

    def change(self, uri: str, text: str, version: int) -> float:
        """Seconds from sending the change to the publication that follows it."""
        start = time.perf_counter()
        _send(
            self.input,
            {
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": text}],
                },
            },
        )
        self.published(uri)
        return time.perf_counter() - start

    def complete(self, uri: str, line: int, character: int, request: int) -> float:
        """Seconds from asking for completion to the answer."""
        start = time.perf_counter()
        position = {"line": line, "character": character}
        params = {"textDocument": {"uri": uri}, "position": position}
        _send(self.input, {"id": request, "method": "textDocument/completion", "params": params})
        self.until(lambda message: message.get("id") == request)
        return time.perf_counter() - start

    def memory(self) -> tuple[int, int]:
        """Resident and peak resident memory, in KiB (Linux)."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])

    def close(self) -> None:
        _send(self.input, {"id": 2, "method": "shutdown", "params": None})
        self.until(lambda message: message.get("id") == 2)
        _send(self.input, {"method": "exit", "params": None})
        self.process.wait(timeout=10)


def long_profile() -> str:
    """A valid profile of 2,000 lines: 1,993 categories, then the other fields."""
    categories = "".join(f"  - category-{number}\n" for number in range(1993))
    return (
        "allowed_skill_categories:\n" + categories + "require_sandbox: true\n"
        "require_checkpoints: true\nrequire_human_approval: false\nallow_unsafe_tools: false\n"
        "max_cost_per_plan: 10.0\nmax_total_cost: 100.0\n"
    )


def category_completions(count: int) -> list[float]:
    """Completions in a list of categories, each after the workspace's are read again (they
    are kept for 10 s), in the workspace `category_completions` describes."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        subprocess.run(["git", "init", "-q", folder], check=True)
        for number in range(2000):
            (root / f"team{number}").mkdir()
            profile = f"allowed_skill_categories: [c{number}]\n"
            (root / f"team{number}" / "safety_profile.yaml").write_text(profile)
        session = Session(root)
        other = "".join(f"key{n}:\n  - item {n}\n  - {{a: b, c: [d, e]}}\n" for n in range(15000))
        for number in range(20):
            document = {"uri": (root / f"k8s{number}.yaml").as_uri(), "languageId": "yaml"}
            params = {"textDocument": {**document, "version": 1, "text": other}}
            _send(session.input, {"method": "textDocument/didOpen", "params": params})
        uri = (root / "new.safety_profile.yaml").as_uri()
        session.open(uri, "allowed_skill_categories: [\n")
        seconds = []
        for request in range(count):
            seconds.append(session.complete(uri, 0, 27, 100 + request))
            time.sleep(10.5)  # the workspace's categories are read again
        session.close()
    return seconds


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def report(label: str, seconds: list[float]) -> None:
    median, p95 = statistics.median(seconds), percentile(seconds, 0.95)
    print(
        f"{label:<34} n={len(seconds):<5} median {median * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms"
    )


def change_latencies(session: Session, uri: str, text: str, changes: int) -> list[float]:
    session.open(uri, text)
    texts = [text + "# edited\n", text]
    return [session.change(uri, texts[n % 2], n + 2) for n in range(changes)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=10, help="changes per file (default: 10)")
    parser.add_argument("--starts", type=int, default=5, help="server starts (default: 5)")
    parser.add_argument(
        "--completions", type=int, default=3, help="category completions (default: 3)"
    )
    options = parser.parse_args()
    examples = sorted((ROOT / "examples").rglob("*.yaml"))
    first = ROOT / "examples" / "valid" / "minimal.safety_profile.yaml"
    if not first.exists():
        first = next(path for path in examples if "safety_profile" in path.name)

    starts = []
    for _ in range(options.starts):
        begin = time.perf_counter()
        session = Session(ROOT)
        session.open(first.as_uri(), first.read_text(encoding="utf-8", errors="replace"))
        starts.append(time.perf_counter() - begin)
        session.close()
    report("start to first diagnostics", starts)

    session = Session(ROOT)
    latencies = []
    for path in examples:
        text = path.read_bytes().decode("utf-8", "replace")
        latencies += change_latencies(session, path.as_uri(), text, options.changes)
    report(f"didChange, {len(examples)} examples", latencies)
    with tempfile.TemporaryDirectory() as folder:
        long = Path(folder) / "long.safety_profile.yaml"
        report(
            "didChange, 2,000-line profile",
            change_latencies(session, long.as_uri(), long_profile(), options.changes * 5),
        )
    report("completion of categories", category_completions(options.completions))
    resident, peak = session.memory()
    print(f"server memory: {resident / 1024:.1f} MiB resident, {peak / 1024:.1f} MiB peak")
    session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
