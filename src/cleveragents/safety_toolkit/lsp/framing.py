"""The language server's input, framed: whatever bytes the editor writes, pygls reads one
well-formed message at a time (`Content-Length: N`, an empty line, N bytes), and the server
keeps serving.

The base protocol's headers are HTTP's (RFC 9110 field syntax: `Name: value`, spaces or tabs
around the value, names in any case); lines end in CRLF, or in LF from a sloppy client. A
header block without exactly one valid `Content-Length` is one bad message: its body (a JSON
value read whole, or the bytes up to the next `Content-Length:`/`Content-Type:` header) is
dropped, a request in it is answered with an error, and reading goes on at the next header.
Bytes that are no header before a header are dropped likewise. A `Content-Length` above
MAX_MESSAGE_BYTES is refused before its body is read (nothing that size is ever held): the
bytes are skipped up to the next header. pygls 2.1 reads its input through `readline()` and
`read(n)` (`StdinAsyncReader`), which `FramedInput` gives it; no pygls here."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["MAX_HEADER_BYTES", "MAX_MESSAGE_BYTES", "FramedInput", "LockedOutput", "Refusal"]

# A document is refused above 1 MiB (`yaml.too-large`, reported from its first bytes); JSON may
# spell each byte in up to 6 (`\u0001`): a message this large can still bring any document the
# checker reports on, with room to spare.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
MAX_HEADER_BYTES = 8 * 1024
_CHUNK = 64 * 1024
# A bad message's body is read whole (to answer a request in it) up to this size; a larger one
# is skipped to the next header, unanswered (reading it whole again at each chunk would cost
# the square of its size).
_MAX_DROPPED_JSON = 1024 * 1024

_HEADER_LINE = re.compile(
    rb"([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?[ \t]*"
)
_DIGITS = re.compile(rb"[0-9]{1,20}")
_NEXT_HEADER = re.compile(rb"(?i)content-(?:length|type)[ \t]*:")
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_LINE_END = re.compile(rb"\r?\n")
_WHITESPACE = b" \t\r\n"


class Refusal(Protocol):
    """Told of each message that is not handed on: the id of the request in it (None: none,
    or unknown) and why, in words for the editor's log."""

    def __call__(self, request_id: int | str | None, reason: str) -> None: ...


class _Readable(Protocol):
    def read1(self, size: int = ..., /) -> bytes: ...


class FramedInput:
    """`stream` (the editor's bytes) as pygls reads it: each message re-framed, bad ones told to
    `refused` and dropped. Read by one thread at a time (pygls reads in turn)."""

    def __init__(self, stream: _Readable, refused: Refusal, limit: int = MAX_MESSAGE_BYTES) -> None:
        self._stream = stream
        self._refused = refused
        self._limit = limit
        self._buffer = bytearray()
        self._ended = False
        self._out = bytearray()  # what pygls reads next: a message as pygls expects it

    # -- what pygls calls ------------------------------------------------------------------------
    def readline(self) -> bytes:
        while b"\n" not in self._out and self._next():
            pass
        end = self._out.find(b"\n") + 1 or len(self._out)
        line = bytes(self._out[:end])
        del self._out[:end]
        return line

    def read(self, size: int = -1) -> bytes:
        while (size < 0 or len(self._out) < size) and self._next():
            pass
        size = len(self._out) if size < 0 else size
        data = bytes(self._out[:size])
        del self._out[:size]
        return data

    # -- framing ---------------------------------------------------------------------------------
    def _next(self) -> bool:
        """Put the next good message in `_out`; False at the end of the input."""
        body = self._message()
        if body is None:
            return False
        self._out += b"Content-Length: %d\r\n\r\n" % len(body) + body
        return True

    def _fill(self) -> bool:
        """Read what the editor has written so far (waiting for something); False at its end."""
        if self._ended:
            return False
        chunk = self._stream.read1(_CHUNK)
        if not chunk:
            self._ended = True
            return False
        self._buffer += chunk
        return True

    def _message(self) -> bytes | None:
        """The body of the next well-framed message, or None at the end of the input."""
        while True:
            found = _HEADER_END.search(self._buffer)
            while found is None and len(self._buffer) <= MAX_HEADER_BYTES and self._fill():
                found = _HEADER_END.search(self._buffer)
            if found is None:
                if not self._buffer:
                    return None
                if self._ended:
                    self._drop(len(self._buffer), "the input ended inside a message")
                    return None
                self._skip_to_header(1, "no header ends within 8 KiB")
                continue
            end, body_start = found.span()
            length = self._content_length(bytes(self._buffer[:end]))
            if isinstance(length, int) and length == 0:
                length = "its Content-Length is 0 (an empty message)"
            if isinstance(length, str):
                del self._buffer[:body_start]
                self._drop_unknown_body(f"a malformed header: {length}")
                continue
            if length is None:  # bytes that are no header came first: dropped, read on
                continue
            del self._buffer[:body_start]
            if length > self._limit:
                self._refused(
                    None,
                    f"a message of {length} bytes is larger than the limit of {self._limit} "
                    "bytes: it was skipped unread",
                )
                self._skip_to_header(0, None)
                continue
            while len(self._buffer) < length and self._fill():
                pass
            if len(self._buffer) < length:
                self._buffer.clear()
                return None  # the editor stopped in the middle of a message
            body = bytes(self._buffer[:length])
            del self._buffer[:length]
            return body

    def _content_length(self, header: bytes) -> int | str | None:
        """The header block's Content-Length; a str saying what is wrong with the block; None
        when bytes that are no header came before a header (they were dropped)."""
        lengths = set()
        offset = 0
        for line, line_end in _lines(header):
            found = _HEADER_LINE.fullmatch(line)
            valid = found is not None and (
                found.group(1).lower() != b"content-length"
                or _DIGITS.fullmatch(found.group(2) or b"") is not None
            )
            if not valid:
                later = _NEXT_HEADER.search(header, offset + 1)
                if later is not None:  # stray bytes, then a header
                    self._drop(later.start(), "bytes that are no message came before a header")
                    return None
                shown = line[:60].decode("ascii", "backslashreplace")
                return f"{shown!r} is not a valid header"
            assert found is not None
            if found.group(1).lower() == b"content-length":
                lengths.add(int(found.group(2)))
            offset = line_end
        if len(lengths) != 1:
            return "no Content-Length" if not lengths else "two different Content-Lengths"
        return lengths.pop()

    def _drop_unknown_body(self, reason: str) -> None:
        """After a bad header: drop the body that follows, whose length is unknown: a JSON
        value read whole (a request in it is answered), else the bytes up to the next header."""
        decoder = json.JSONDecoder()
        while True:
            start = len(self._buffer) - len(self._buffer.lstrip(_WHITESPACE))
            json_start = bytes(self._buffer[start : start + 1]) in (b"{", b"[")
            if json_start and len(self._buffer) <= _MAX_DROPPED_JSON:
                text = bytes(self._buffer[start:]).decode("utf-8", "surrogateescape")
                try:
                    value, end = decoder.raw_decode(text)
                except (ValueError, RecursionError):  # not JSON yet; nested too deep to read
                    pass
                else:
                    used = start + len(text[:end].encode("utf-8", "surrogateescape"))
                    del self._buffer[:used]
                    self._refused(_request_id(value), f"{reason}; the message was dropped")
                    return
            later = _NEXT_HEADER.search(self._buffer)
            if later is not None or len(self._buffer) > _MAX_DROPPED_JSON or not self._fill():
                self._refused(None, f"{reason}; the message was dropped")
                self._skip_to_header(0, None)
                return

    def _skip_to_header(self, start: int, reason: str | None) -> None:
        """Drop bytes, reading on as needed, up to the next header from `start` (telling why,
        when `reason` is given), keeping only what may be the start of a header's name."""
        dropped = 0
        while True:
            found = _NEXT_HEADER.search(self._buffer, start)
            if found is not None:
                dropped += found.start()
                del self._buffer[: found.start()]
                break
            keep = max(len(self._buffer) - 32, start)
            dropped += keep
            del self._buffer[:keep]
            start = 0
            if not self._fill():
                dropped += len(self._buffer)
                self._buffer.clear()
                break
        if reason is not None:
            self._refused(None, f"{reason}: {dropped} bytes dropped")

    def _drop(self, count: int, reason: str) -> None:
        dropped = bytes(self._buffer[:count])
        del self._buffer[:count]
        value: Any = None
        with contextlib.suppress(ValueError, RecursionError):
            value = json.loads(dropped)
        self._refused(_request_id(value), f"{reason}: {len(dropped)} bytes dropped")


def _lines(header: bytes) -> list[tuple[bytes, int]]:
    """The header block's lines, each with where the next one starts."""
    lines, start = [], 0
    for end in _LINE_END.finditer(header):
        lines.append((header[start : end.start()], end.end()))
        start = end.end()
    lines.append((header[start:], len(header)))
    return lines


def _request_id(message: Any) -> int | str | None:
    """The id of a JSON-RPC request (it has a method), which the editor waits an answer for."""
    if isinstance(message, dict) and "method" in message:
        request_id = message.get("id")
        if isinstance(request_id, int | str) and not isinstance(request_id, bool):
            return request_id
    return None


class LockedOutput:
    """The server's standard output, written one whole message at a time by pygls (on the event
    loop) and by the framing (on the reading thread), so their messages never interleave."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        with self._lock:
            self._stream.write(data)
            self._stream.flush()

    def flush(self) -> None:  # each write is flushed
        pass

    def close(self) -> None:
        self._stream.close()

    def send(self, message: dict[str, Any]) -> None:
        """A JSON-RPC message, framed."""
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def answer_refusals(output: LockedOutput, log: Callable[[str], None]) -> Refusal:
    """What the server does with a message it cannot read: an error answer to a request the
    editor waits on, and a line in the editor's log."""

    def refused(request_id: int | str | None, reason: str) -> None:
        log(reason)
        output.send({"method": "window/logMessage", "params": {"type": 2, "message": reason}})
        if request_id is not None:
            error = {"code": -32600, "message": f"invalid request: {reason}"}
            output.send({"id": request_id, "error": error})

    return refused
