"""A bot program's process: lines of JSON to its standard input, lines from
its standard output, and every wait with a time limit.

The program's output is read by a thread of its own into a bounded queue (a
program that writes more than is read waits on its pipe), so that
:meth:`BotProcess.receive` waits at most the time it is given; a line longer
than the limit, or the end of the output, ends the conversation
(:class:`ProgramGone`).  :func:`stop_process` says ``quit``, closes the
program's input and kills it when it does not exit in time.

One job: one running program's pipes.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
from typing import IO, Any

from backalley.io.bot_protocol import encode, quit_message

__all__ = ["BotProcess", "ProgramGone", "stop_process"]


class ProgramGone(Exception):
    """The program cannot go on (it would not start, exited, or broke the protocol's stream)."""


_TOO_LONG = object()
_CLOSED = object()
_WAITING_LINES = 64


class BotProcess:
    """The running program: lines to its input, lines from its output (read
    by a thread of its own, so that every wait has a time limit)."""

    def __init__(
        self,
        command: tuple[str, ...],
        *,
        max_line: int,
        stderr: str | None = None,
        cwd: str | None = None,
    ) -> None:
        """Start ``command`` (its words; never through a shell); its standard
        error is appended to the file ``stderr`` (``None``: discarded)."""
        self.max_line = max_line
        err: IO[bytes] | int = subprocess.DEVNULL
        if stderr is not None:
            err = open(stderr, "ab")  # noqa: SIM115 - closed in stop()
        self._err = err
        try:
            self.popen = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                cwd=cwd,
                close_fds=True,
            )
        except OSError as exc:
            self._close_err()
            raise ProgramGone(f"could not start {shlex.join(command)}: {exc}") from None
        # a few lines at most wait to be read: a program writing more waits on its pipe
        self.lines: queue.Queue[object] = queue.Queue(maxsize=_WAITING_LINES)
        self._stopping = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True, name="backalley-bot")
        self.reader.start()

    def _read(self) -> None:
        out = self.popen.stdout
        assert out is not None
        try:
            while True:
                line = out.readline(self.max_line + 1)
                if not line:
                    break
                if len(line) > self.max_line:
                    self._put(_TOO_LONG)
                    return
                if not self._put(line):
                    return
        except (OSError, ValueError):
            pass
        self._put(_CLOSED)

    def _put(self, item: object) -> bool:
        """Queue ``item`` for :meth:`receive`, waiting while the queue is full
        (``False``: the program is being stopped, nobody will read it)."""
        while not self._stopping.is_set():
            try:
                self.lines.put(item, timeout=0.1)
            except queue.Full:
                continue
            return True
        return False

    def drain(self) -> None:
        """Set aside the lines already come (none answers a turn not yet sent);
        an end of the program's output stays to be found."""
        for _ in range(self.lines.qsize()):  # those come already, no more: a flood has its end
            try:
                item = self.lines.get_nowait()
            except queue.Empty:
                return
            if item is _CLOSED or item is _TOO_LONG:
                self.lines.put(item)
                return

    def send(self, message: dict[str, Any]) -> None:
        stdin = self.popen.stdin
        assert stdin is not None
        try:
            stdin.write(encode(message))
            stdin.flush()
        except (OSError, ValueError):
            raise ProgramGone(f"the program exited ({self._exit_words()})") from None

    def receive(self, timeout: float) -> bytes | None:
        """The next line, or ``None`` when none came within ``timeout`` seconds."""
        try:
            item = self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if item is _TOO_LONG:
            raise ProgramGone(f"the program wrote a line longer than {self.max_line} bytes")
        if item is _CLOSED:
            self.lines.put(_CLOSED)  # found again by every later wait
            raise ProgramGone(f"the program exited ({self._exit_words()})")
        assert isinstance(item, bytes)
        return item

    def _exit_words(self) -> str:
        try:
            code = self.popen.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "its output closed"
        return f"exit status {code}" if code >= 0 else f"signal {-code}"

    def _close_err(self) -> None:
        if not isinstance(self._err, int):
            self._err.close()

    def stop(self, grace: float) -> None:
        """Say ``quit``, then end the program: after ``grace`` seconds it is killed."""
        self._stopping.set()
        stop_process(self.popen, grace, quit_line=encode(quit_message()))
        self.reader.join(timeout=1.0)
        self._close_err()


def stop_process(popen: subprocess.Popen[bytes], grace: float, quit_line: bytes = b"") -> None:
    """End a bot program: ``quit_line`` on its input, its input closed, then
    killed unless it exits within ``grace`` seconds."""
    if popen.poll() is None:
        try:
            assert popen.stdin is not None
            if quit_line:
                popen.stdin.write(quit_line)
            popen.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            popen.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait()
    for stream in (popen.stdin, popen.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
