"""A TestClient that reaches the web server as its own pages and a trusted program do:
by an allowed host name (``127.0.0.1``), with the host key that ``werewolf serve``
prints (``arena.web.guard``)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from arena.web.guard import KEY_HEADER

BASE = "http://127.0.0.1:8000"


class WebClient(TestClient):
    """Starlette's client always opens sockets on ``ws://testserver``: this one on ``BASE``."""

    def websocket_connect(self, url: str, *args: Any, **kwargs: Any) -> Any:
        if url.startswith("/"):
            url = "ws" + BASE.removeprefix("http") + url
        return super().websocket_connect(url, *args, **kwargs)


def web_client(app: Any, *, key: bool = True, **kw: Any) -> WebClient:
    headers = {KEY_HEADER: app.state.policy.key} if key else {}
    return WebClient(app, base_url=BASE, headers={**headers, **kw.pop("headers", {})}, **kw)
