"""A minimal asyncio SSE client over a raw HTTP/1.1 connection (chunked
bodies), so tests control exactly when a stream opens and closes."""

from __future__ import annotations

import asyncio


class Stream:
    def __init__(self, reader, writer, status: int, headers: dict[str, str]):
        self.reader, self.writer, self.status, self.headers = reader, writer, status, headers
        self.buf = ""
        self.frames: list[str] = []
        self.body = b""

    @classmethod
    async def open(cls, port: int, path: str, token: str, last_id: int | None = None) -> Stream:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        lines = [
            f"GET /api/v1{path} HTTP/1.1",
            "Host: 127.0.0.1",
            f"Authorization: Bearer {token}",
            "Accept: text/event-stream",
        ]
        if last_id is not None:
            lines.append(f"Last-Event-ID: {last_id}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        first, *rest = head.decode("latin1").split("\r\n")
        headers = {}
        for line in rest:
            if ": " in line:
                k, v = line.split(": ", 1)
                headers[k.lower()] = v
        s = cls(reader, writer, int(first.split()[1]), headers)
        if s.status != 200 and "content-length" in headers:
            s.body = await reader.readexactly(int(headers["content-length"]))
        elif s.status != 200 and headers.get("transfer-encoding", "").strip().lower() == "chunked":
            while True:  # an error body sent in chunks (no Content-Length)
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                s.body += (await reader.readexactly(size + 2))[:-2]
        return s

    async def _chunk(self) -> bool:
        size_line = await self.reader.readline()
        if not size_line:
            return False
        size = int(size_line.strip() or b"0", 16)
        if size == 0:
            return False
        data = await self.reader.readexactly(size + 2)
        self.buf += data[:-2].decode()
        while "\n\n" in self.buf:
            frame, self.buf = self.buf.split("\n\n", 1)
            self.frames.append(frame)
        return True

    async def until(self, pred, timeout: float) -> str:
        """The first frame (new or already read) for which pred(frame) holds."""

        async def scan():
            seen = 0
            while True:
                while seen < len(self.frames):
                    seen += 1
                    if pred(self.frames[seen - 1]):
                        return self.frames[seen - 1]
                if not await self._chunk():
                    raise EOFError("stream ended")

        return await asyncio.wait_for(scan(), timeout)

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except OSError:
            pass


def ids(frames: list[str]) -> list[int]:
    return [int(line[4:]) for f in frames for line in f.splitlines() if line.startswith("id: ")]
