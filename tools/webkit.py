"""WebKit (the engine of Safari on iPhones and iPads) driven through WebDriver, for the
phone page's browser test. Debian's ``webkit2gtk-driver`` package: its
``WebKitWebDriver`` opens WebKitGTK's MiniBrowser; the W3C WebDriver protocol is JSON
over HTTP, spoken here with aiohttp's client. WebKitGTK needs a display: without one
(``DISPLAY`` unset) a private ``Xvfb`` is started and stopped with the browser.

    async with WebKit(width=390, height=844) as browser:
        await browser.goto("http://127.0.0.1:8765/p/TOKEN")
        await browser.wait_for("document.querySelector('#hand img') !== null")
        await browser.tap("#moves button")
        await browser.screenshot("out/phone-webkit.png")

The same methods as :class:`chromium.Chromium`. Differences: a tap is WebDriver's
element click (a mouse click; the page answers clicks and taps alike), and
:meth:`problems` sees the page's errors and console warnings only from the moment a
page has loaded (WebDriver has no console of its own; a script broken at load shows as
a page that never gets going instead).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import socket
from pathlib import Path
from typing import Any

import aiohttp
from browser_page import BrowserError, Page

DRIVER = "WebKitWebDriver"
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
#: collects the page's errors, rejected promises and console errors/warnings
WATCH = """
if (!window.__problems) {
  window.__problems = [];
  addEventListener('error', e => __problems.push('exception: ' + e.message));
  addEventListener('unhandledrejection', e => __problems.push('rejected: ' + e.reason));
  for (const k of ['error', 'warn']) {
    const f = console[k].bind(console);
    console[k] = (...a) => { __problems.push(a.map(String).join(' ')); f(...a); };
  }
}
"""

FRAMES = ("const done = arguments[arguments.length - 1];"
          " requestAnimationFrame(() => requestAnimationFrame(() => done(true)));")


def find_driver() -> str | None:
    """The path of ``WebKitWebDriver``, or ``None``."""
    return os.environ.get("STAMMTISCH_WEBKITDRIVER") or shutil.which(DRIVER)


def _line(fd: int) -> bytes:
    """Read ``fd`` up to its first newline: Xvfb writes its display number and the
    newline apart, and stops if the pipe is closed between the two."""
    got = b""
    while not got.endswith(b"\n"):
        more = os.read(fd, 16)
        if not more:
            break
        got += more
    return got


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class WebKit(Page):
    """One WebKitGTK browser window whose page has a phone-sized viewport: the size
    asked for, or as near as the window goes (MiniBrowser's window is at least about
    450 pixels wide, so a portrait phone's page comes out a little wider)."""

    def __init__(self, width: int = 390, height: int = 844, timeout: float = 30.0) -> None:
        self.width, self.height = width, height
        self.timeout = timeout
        self._xvfb: asyncio.subprocess.Process | None = None
        self._driver: asyncio.subprocess.Process | None = None
        self._http: aiohttp.ClientSession | None = None
        self._base = ""

    async def start(self) -> None:
        driver = find_driver()
        if driver is None:
            raise BrowserError("no WebKitWebDriver found (apt-get install webkit2gtk-driver)")
        env = dict(os.environ)
        if not env.get("DISPLAY"):
            env["DISPLAY"] = await self._start_xvfb()
        port = _free_port()
        self._driver = await asyncio.create_subprocess_exec(
            driver, f"--port={port}", env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        self._base = f"http://127.0.0.1:{port}"
        self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))
        await asyncio.wait_for(self._ready(), self.timeout)
        got = await self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "webkitgtk:browserOptions": {"args": ["--automation"]}}}})
        self._base += f"/session/{got['sessionId']}"
        await self._viewport()

    async def _start_xvfb(self) -> str:
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise BrowserError("no display and no Xvfb (apt-get install xvfb)")
        r, w = os.pipe()
        try:
            self._xvfb = await asyncio.create_subprocess_exec(
                xvfb, "-displayfd", str(w), "-screen", "0", "1280x1024x24", "-nolisten",
                "tcp", pass_fds=(w,), stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL)
        finally:
            os.close(w)
        loop = asyncio.get_running_loop()
        try:
            number = await asyncio.wait_for(loop.run_in_executor(None, _line, r),
                                            self.timeout)
        finally:
            os.close(r)
        if not number.strip():
            raise BrowserError("Xvfb did not start")
        return ":" + number.decode().strip()

    async def _ready(self) -> None:
        assert self._http is not None
        while True:
            with contextlib.suppress(aiohttp.ClientError):
                async with self._http.get(self._base + "/status") as resp:
                    if resp.status == 200:
                        return
            await asyncio.sleep(0.05)

    async def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One WebDriver command; its ``value`` (raises :class:`BrowserError`)."""
        assert self._http is not None
        async with self._http.request(method, self._base + path,
                                      json={} if body is None and method == "POST"
                                      else body) as resp:
            data = await resp.json(content_type=None)
        value = data.get("value") if isinstance(data, dict) else None
        if resp.status != 200:
            what = value.get("message", value) if isinstance(value, dict) else data
            raise BrowserError(f"{method} {path}: {resp.status} {what}")
        return value

    async def _viewport(self) -> None:
        """Size the window so that the page itself is ``width`` × ``height``."""
        w, h = self.width, self.height
        for _ in range(3):
            await self._call("POST", "/window/rect", {"width": w, "height": h})
            inner = await self.eval("[innerWidth, innerHeight]")
            if inner == [self.width, self.height]:
                return
            w += self.width - inner[0]
            h += self.height - inner[1]

    async def goto(self, url: str) -> None:
        await self._call("POST", "/url", {"url": url})
        await self._call("POST", "/execute/sync", {"script": WATCH, "args": []})

    async def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        return await self._call("POST", "/execute/sync",
                                {"script": f"return ({expression});", "args": []})

    async def tap(self, selector: str) -> None:
        """A click on the first element ``selector`` matches, once it is enabled."""
        await self.wait_for(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                            " return !!e && !e.disabled; })()")
        found = await self._call("POST", "/element", {"using": "css selector",
                                                      "value": selector})
        await self._call("POST", f"/element/{found[ELEMENT]}/click")

    async def screenshot(self, path: str | os.PathLike[str]) -> Path:
        # two frames first: WebKitGTK hands WebDriver the last frame it painted
        await self._call("POST", "/execute/async", {"script": FRAMES, "args": []})
        data = await self._call("GET", "/screenshot")
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(base64.b64decode(data))
        return out

    async def problems(self) -> list[str]:
        """The page's errors and console errors/warnings since it loaded."""
        got = await self.eval("window.__problems || []")
        return list(got or [])

    async def close(self) -> None:
        if self._http is not None:
            if self._base.count("/session/"):
                with contextlib.suppress(Exception):
                    await self._call("DELETE", "")
            await self._http.close()
            self._http = None
        for proc in (self._driver, self._xvfb):
            if proc is None:
                continue
            with contextlib.suppress(ProcessLookupError):
                # Xvfb clears its lock and socket only when asked to stop
                proc.terminate()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 10)
        self._driver = self._xvfb = None
