"""A small Language Server Protocol client over stdio: enough to drive a real language server
(yaml-language-server) from tests the way an editor does.

Messages are JSON-RPC 2.0 framed with a `Content-Length` header. A reader thread routes each
message from the server: responses to the request waiting for them, `publishDiagnostics`
notifications into a per-document store, and requests the server makes of the client
(`workspace/configuration` and friends) are recorded and answered at once so the server never
stalls. A client that calls `route_remote_schemas_through_editor()` is asked for every http(s)
schema the server wants, as VS Code is, and refuses: the tests run offline and can prove it.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

JsonObject = dict[str, Any]
# yaml-language-server's request for the text of an http(s) schema, made of the editor once the
# editor has sent `yaml/registerContentRequest` (VS Code does, so that proxies apply).
REMOTE_CONTENT_REQUEST = "vscode/content"


def remote_uri(request: JsonObject) -> str:
    """The URL a `vscode/content` request asks for (its one parameter, sent in a list)."""
    params = request["params"]
    uri: str = params[0] if isinstance(params, list) else params
    return uri


class LanguageServerError(RuntimeError):
    """The server answered with an error, stopped, or did not answer in time."""


def _framed(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _write_message(stream: IO[bytes], message: JsonObject) -> None:
    stream.write(_framed(json.dumps(message).encode("utf-8")))
    stream.flush()


def _read_message(stream: IO[bytes]) -> JsonObject | None:
    """The next message, or None at end of stream."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length is None:
        raise LanguageServerError("a message from the server had no Content-Length header")
    message: JsonObject = json.loads(stream.read(length).decode("utf-8"))
    return message


class LanguageServerClient:
    """One server process and the editor side of its conversation."""

    def __init__(
        self,
        command: Sequence[str],
        settings: Mapping[str, Any],
        cwd: Path,
        timeout: float = 20.0,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.timeout = timeout
        self._settings = dict(settings)  # answers `workspace/configuration`, by section
        self._process = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=None if env is None else dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._next_id = 0
        self._write_lock = threading.Lock()
        self._responses: dict[int, queue.Queue[JsonObject]] = {}
        self._diagnostics: dict[str, list[JsonObject]] = {}  # by document URI
        self._diagnostics_changed = threading.Condition()
        self._stderr: list[bytes] = []
        self._opened: set[str] = set()
        self._server_requests: list[JsonObject] = []
        self.notifications: list[JsonObject] = []  # every notification from the server
        # http(s) schemas this editor serves (URL -> text), as if published; others are refused.
        self.remote_content: dict[str, str] = {}
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # -- wire ----------------------------------------------------------------------------------
    def _send(self, message: JsonObject) -> None:
        assert self._process.stdin is not None
        with self._write_lock:
            _write_message(self._process.stdin, {"jsonrpc": "2.0", **message})

    def _read_stderr(self) -> None:
        assert self._process.stderr is not None
        for line in self._process.stderr:
            self._stderr.append(line)

    def _read_stdout(self) -> None:
        assert self._process.stdout is not None
        while (message := _read_message(self._process.stdout)) is not None:
            if "method" in message and "id" in message:
                self._answer_server_request(message)
            elif "method" in message:
                self._on_notification(message)
            elif message.get("id") in self._responses:
                self._responses[message["id"]].put(message)
        with self._diagnostics_changed:  # wake anyone waiting: the server is gone
            self._diagnostics_changed.notify_all()

    def _answer_server_request(self, request: JsonObject) -> None:
        self._server_requests.append(request)
        if (
            request["method"] == REMOTE_CONTENT_REQUEST
            and remote_uri(request) in self.remote_content
        ):
            self._send({"id": request["id"], "result": self.remote_content[remote_uri(request)]})
            return
        if request["method"] == REMOTE_CONTENT_REQUEST:
            refusal = {"code": -32603, "message": "this editor is offline: nothing is fetched"}
            self._send({"id": request["id"], "error": refusal})
            return
        result: Any = None
        if request["method"] == "workspace/configuration":
            items = request["params"]["items"]
            result = [self._settings.get(item.get("section", ""), None) for item in items]
        self._send({"id": request["id"], "result": result})

    def server_requests(self, method: str) -> list[JsonObject]:
        """The requests for `method` the server has made of this client so far."""
        return [request for request in self._server_requests if request["method"] == method]

    def _on_notification(self, message: JsonObject) -> None:
        self.notifications.append(message)
        if message["method"] == "textDocument/publishDiagnostics":
            params = message["params"]
            with self._diagnostics_changed:
                self._diagnostics[params["uri"]] = params["diagnostics"]
                self._diagnostics_changed.notify_all()

    def stderr_text(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    # -- JSON-RPC ------------------------------------------------------------------------------
    def request(self, method: str, params: Any) -> Any:
        response = self.request_framed(_framed, method, params)
        if "error" in response:
            raise LanguageServerError(f"{method} failed: {response['error']}")
        return response.get("result")

    def request_framed(
        self, frame: Callable[[bytes], bytes], method: str, params: Any
    ) -> JsonObject:
        """Send a request whose bytes on the wire are `frame(body)` (a broken client's header,
        perhaps) and return the whole response, an error included."""
        self._next_id += 1
        request_id = self._next_id
        answer: queue.Queue[JsonObject] = queue.Queue()
        self._responses[request_id] = answer
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        self.send_raw(frame(body.encode("utf-8")))
        try:
            return answer.get(timeout=self.timeout)
        except queue.Empty:
            raise LanguageServerError(
                f"no answer to {method} within {self.timeout} s; server stderr:\n"
                + self.stderr_text()
            ) from None
        finally:
            del self._responses[request_id]

    def send_raw(self, data: bytes) -> None:
        """Write bytes as they are, framed or not: what a broken client might send."""
        assert self._process.stdin is not None
        with self._write_lock:
            self._process.stdin.write(data)
            self._process.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    # -- the editor's side of a session --------------------------------------------------------
    def initialize(self, root: Path) -> JsonObject:
        capabilities = {
            "textDocument": {
                "completion": {
                    "completionItem": {
                        "snippetSupport": True,
                        "documentationFormat": ["markdown", "plaintext"],
                    }
                },
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "publishDiagnostics": {"relatedInformation": True},
            },
            "workspace": {"configuration": True, "didChangeConfiguration": {}},
        }
        result: JsonObject = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": capabilities,
            },
        )
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": self._settings})
        return result

    def route_remote_schemas_through_editor(self) -> None:
        """From now on the server asks this client for every http(s) schema (and is refused)."""
        self.notify("yaml/registerContentRequest", None)

    def open_document(self, uri: str, text: str) -> None:
        """Open a document. Each URI is opened once, so every diagnostic published for it is
        about this text (the server's notifications carry no document version)."""
        if uri in self._opened:
            raise ValueError(f"{uri} is already open; use a new URI for new text")
        self._opened.add(uri)
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )

    def diagnostics(self, uri: str) -> list[JsonObject]:
        """The diagnostics the server publishes for an open document, waiting for the first set."""
        with self._diagnostics_changed:
            self._diagnostics_changed.wait_for(
                lambda: uri in self._diagnostics or self._process.poll() is not None,
                timeout=self.timeout,
            )
            published = self._diagnostics.get(uri)
        if published is None:
            raise LanguageServerError(
                f"no diagnostics for {uri} within {self.timeout} s; server stderr:\n"
                + self.stderr_text()
            )
        return published

    def completion(self, uri: str, line: int, character: int) -> list[JsonObject]:
        result = self.request(
            "textDocument/completion",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )
        if result is None:
            return []
        items: list[JsonObject] = result["items"] if isinstance(result, dict) else result
        return items

    def hover(self, uri: str, line: int, character: int) -> str:
        """The hover text (markdown or plain), empty when the server has none."""
        result = self.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )
        if not result:
            return ""
        contents = result["contents"]
        if isinstance(contents, dict):
            return str(contents["value"])
        if isinstance(contents, list):
            return "\n".join(str(part.get("value", part)) for part in contents)
        return str(contents)

    def close(self) -> None:
        """Shut the server down politely, then make sure it is gone."""
        try:
            if self._process.poll() is None:
                self.request("shutdown", None)
                self.notify("exit", None)
                self._process.wait(timeout=self.timeout)
        except (LanguageServerError, OSError, subprocess.TimeoutExpired):
            self._process.kill()
            self._process.wait()
        finally:
            for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
                if stream is not None:
                    stream.close()
