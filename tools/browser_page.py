"""What the phone page's two browser drivers share (:mod:`chromium`, :mod:`webkit`):
their error, starting and closing as an ``async with`` block, and waiting for a
condition in the page by asking it again and again."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, TypeVar

P = TypeVar("P", bound="Page")


class BrowserError(RuntimeError):
    pass


class Page:
    """A driven browser page; a driver supplies :meth:`start`, :meth:`close`,
    :meth:`eval` and ``timeout``. ``close`` must take back whatever a ``start`` that
    failed half-way had started (a browser, a display, a folder)."""

    timeout: float

    async def __aenter__(self: P) -> P:
        try:
            await self.start()
        except BaseException:
            await self.close()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        raise NotImplementedError

    async def wait_for(self, expression: str, timeout: float | None = None) -> Any:
        """Wait until ``expression`` is truthy in the page; its value."""
        return await asyncio.wait_for(self._poll(expression), timeout or self.timeout)

    async def _poll(self, expression: str) -> Any:
        while True:
            with contextlib.suppress(BrowserError):
                value = await self.eval(expression)
                if value:
                    return value
            await asyncio.sleep(0.05)
