"""Headless Chromium driven through its DevTools protocol (for the phone page's
browser test and screenshots). Debian's ``chromium`` package; no driver needed: the
protocol is JSON over a WebSocket, spoken here with aiohttp's client.

    async with Chromium(width=390, height=844) as browser:
        await browser.goto("http://127.0.0.1:8765/p/TOKEN")
        await browser.wait_for("document.querySelector('#hand img') !== null")
        await browser.tap("#moves button")
        await browser.screenshot("out/phone.png")

The browser gets a fresh profile folder, no sandbox (it runs as root in CI), no GPU
and none of its background network traffic.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import aiohttp
from browser_page import BrowserError, Page

BINARIES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-default-apps", "--disable-extensions", "--mute-audio",
         "--remote-debugging-port=0", "--remote-allow-origins=*")


def find_browser() -> str | None:
    """The path of a Chromium binary, or ``None``."""
    env = os.environ.get("STAMMTISCH_CHROMIUM")
    if env:
        return env
    for name in BINARIES:
        found = shutil.which(name)
        if found:
            return found
    return None


class Chromium(Page):
    """One headless browser with one page at a phone-sized viewport."""

    def __init__(self, width: int = 390, height: int = 844, scale: float = 2.0,
                 mobile: bool = True, timeout: float = 30.0) -> None:
        self.width, self.height, self.scale, self.mobile = width, height, scale, mobile
        self.timeout = timeout
        self._proc: asyncio.subprocess.Process | None = None
        self._profile: str | None = None
        self._http: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._session: str | None = None
        self.console: list[str] = []

    async def start(self) -> None:
        binary = find_browser()
        if binary is None:
            raise BrowserError("no Chromium found (apt-get install chromium)")
        self._profile = tempfile.mkdtemp(prefix="stammtisch-chromium-")
        self._proc = await asyncio.create_subprocess_exec(
            binary, *FLAGS, f"--user-data-dir={self._profile}",
            f"--window-size={self.width},{self.height}", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        assert self._proc.stderr is not None
        url = await asyncio.wait_for(self._listening(), self.timeout)
        asyncio.ensure_future(self._drain_stderr())
        self._http = aiohttp.ClientSession()
        self._ws = await self._http.ws_connect(url, max_msg_size=0)
        self._reader = asyncio.ensure_future(self._read())
        target = await self.send("Target.createTarget", {"url": "about:blank"}, browser=True)
        attached = await self.send("Target.attachToTarget",
                                   {"targetId": target["targetId"], "flatten": True},
                                   browser=True)
        self._session = attached["sessionId"]
        await self.send("Page.enable")
        await self.send("Runtime.enable")
        await self.send("Emulation.setDeviceMetricsOverride", {
            "width": self.width, "height": self.height, "deviceScaleFactor": self.scale,
            "mobile": self.mobile})
        await self.send("Emulation.setTouchEmulationEnabled",
                        {"enabled": True, "maxTouchPoints": 5})

    async def _listening(self) -> str:
        assert self._proc is not None and self._proc.stderr is not None
        while True:
            line = await self._proc.stderr.readline()
            if not line:
                raise BrowserError("Chromium exited before it listened")
            m = re.search(rb"DevTools listening on (ws://\S+)", line)
            if m:
                return m.group(1).decode()

    async def _drain_stderr(self) -> None:
        proc = self._proc
        if proc is None or proc.stderr is None:
            return
        with contextlib.suppress(Exception):
            while await proc.stderr.readline():
                pass

    async def _read(self) -> None:
        assert self._ws is not None
        async for msg in self._ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            fut = self._waiting.pop(data.get("id", -1), None)
            if fut is not None and not fut.done():
                fut.set_result(data)
            elif data.get("method") == "Runtime.consoleAPICalled":
                args = data["params"].get("args", [])
                self.console.append(" ".join(str(a.get("value", a.get("description", "")))
                                             for a in args))
            elif data.get("method") == "Runtime.exceptionThrown":
                d = data["params"]["exceptionDetails"]
                self.console.append("exception: " + str(d.get("exception", {}).get(
                    "description", d.get("text"))))

    async def send(self, method: str, params: dict[str, Any] | None = None, *,
                   browser: bool = False) -> dict[str, Any]:
        """One protocol command; its ``result`` (raises :class:`BrowserError`)."""
        assert self._ws is not None
        i = next(self._ids)
        msg: dict[str, Any] = {"id": i, "method": method, "params": params or {}}
        if not browser and self._session is not None:
            msg["sessionId"] = self._session
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[i] = fut
        await self._ws.send_str(json.dumps(msg))
        data = await asyncio.wait_for(fut, self.timeout)
        if "error" in data:
            raise BrowserError(f"{method}: {data['error']}")
        result: dict[str, Any] = data.get("result", {})
        return result

    async def goto(self, url: str) -> None:
        await self.send("Page.navigate", {"url": url})

    async def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        r = await self.send("Runtime.evaluate", {"expression": expression,
                                                 "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise BrowserError(f"{expression}: {r['exceptionDetails'].get('text')}")
        return r.get("result", {}).get("value")

    async def tap(self, selector: str) -> None:
        """A finger's tap in the middle of the first element ``selector`` matches."""
        box = await self.wait_for(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
            "if (!e || e.disabled) return null; e.scrollIntoView({block: 'center'}); "
            "const r = e.getBoundingClientRect(); "
            "return r.width ? {x: r.x + r.width / 2, y: r.y + r.height / 2} : null; })()")
        point = {"x": box["x"], "y": box["y"]}
        await self.send("Input.dispatchTouchEvent",
                        {"type": "touchStart", "touchPoints": [point]})
        await self.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    async def problems(self) -> list[str]:
        """What the page wrote to the console and the exceptions it threw."""
        return list(self.console)

    async def screenshot(self, path: str | os.PathLike[str]) -> Path:
        r = await self.send("Page.captureScreenshot", {"format": "png"})
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(base64.b64decode(r["data"]))
        return out

    async def close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self.send("Browser.close", browser=True)
            with contextlib.suppress(Exception):
                await self._ws.close()
            self._ws = None
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        if self._http is not None:
            await self._http.close()
            self._http = None
        if self._proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._proc.wait(), 10)
            self._proc = None
        if self._profile is not None:
            shutil.rmtree(self._profile, ignore_errors=True)
            self._profile = None
