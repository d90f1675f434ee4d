"""What the phone page's two browser drivers share (:mod:`chromium`, :mod:`webkit`):
their error, and waiting for a condition in the page by asking it again and again."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


class BrowserError(RuntimeError):
    pass


class Page:
    """A driven browser page; a driver supplies :meth:`eval` and ``timeout``."""

    timeout: float

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
