"""The web application: pages, the JSON API and the live streams.

Why every route goes through ``_resolve``: a page, its state, its socket and its
answers are reached by an unguessable token alone, and a wrong or missing token must
get nothing at all (404), while the full view, which holds every secret, answers 403
until the game has ended unless the host's token is used. The pages themselves are
static files; they learn everything from the API, so what a browser may know is
decided here, per request, per connection.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any, Callable

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from arena.gamefile import GameFileError
from arena.preflight import check_spec, refusal
from arena.web.guard import KEY_COOKIE, KEY_HEADER, Policy, RequestGuard, is_loopback
from arena.web.lens import FULL_LENS, PUBLIC_LENS, Lens
from arena.web.missing import missing_page
from arena.web.session import GameSession, SessionStore
from arena.web.table_form import MAX_RUNNING, setup_choices, table_spec
from arena.web.web_agent import AnswerRefused
import engine.words as words
import transcripts.bounded as bounded

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("werewolf.web")

# Tokens travel in the path, so no page may leak its address (Referrer-Policy), run a
# script from elsewhere or be framed; and nothing a game sends is worth caching.
SECURITY_HEADERS = [
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
]


class SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` (and no-store outside /static) to every HTTP response."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope.get("path", "").startswith("/static/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + SECURITY_HEADERS
                if not static:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def _store(request: Request | WebSocket) -> SessionStore:
    return request.app.state.store


def _resolve(store: SessionStore, view: str, token: str) -> tuple[GameSession, Lens]:
    """The game and the lens a token opens; 404 for an unknown token, 403 for the
    full view of a game still being played (unless the token is the host's)."""
    if view == "play":
        found = store.by_seat(token)
        if found is None:
            raise HTTPException(404)
        session, seat = found
        return session, Lens(seat=seat)
    if view == "host":
        hosted = store.by_host(token)
        if hosted is None:
            raise HTTPException(404)
        return hosted, FULL_LENS
    watched = store.by_watch(token)
    if watched is None:
        raise HTTPException(404)
    session = watched
    if view == "full":
        if not session.over:
            raise HTTPException(403, "the full view opens when the game ends")
        return session, FULL_LENS
    return session, PUBLIC_LENS


# ---------------------------------------------------------------------- pages
def _policy(request: Request) -> Policy:
    return request.app.state.policy


def _with_key_cookie(response: Response, policy: Policy) -> Response:
    response.set_cookie(KEY_COOKIE, policy.key, httponly=True, samesite="strict", path="/")
    return response


async def start_page(request: Request) -> Response:
    """The start page; it hands the host key to the browser as a same-site cookie when
    opened with ``?key=`` (then drops the key from the address bar), or when the server
    and the browser are both on this machine's loopback."""
    policy = _policy(request)
    if "key" in request.query_params:
        if policy.key_matches(request.query_params["key"]):
            return _with_key_cookie(RedirectResponse("/", status_code=303), policy)
        return PlainTextResponse("403: this is not the key this server printed when it started", status_code=403)
    page = FileResponse(STATIC / "start.html")
    client = request.client.host if request.client else ""
    if policy.loopback and is_loopback(client):
        return _with_key_cookie(page, policy)
    return page


def _table_page(view: str):
    async def page(request: Request) -> Response:
        _resolve(_store(request), view, request.path_params["token"])
        return FileResponse(STATIC / "table.html")

    return page


# ---------------------------------------------------------------------- API
async def api_setup(request: Request) -> Response:
    return JSONResponse(setup_choices())


MAX_BODY = bounded.REQUEST_BODY.size  # a table, or one answer with its speech: far less than this


class _BodyError(Exception):
    def __init__(self, status: int, message: str):
        self.status, self.message = status, message


async def _json_body(request: Request) -> Any:
    """The request's JSON, read up to ``MAX_BODY`` bytes and within the bounds of any
    input (``transcripts.bounded``: nesting, a number's digits); ``_BodyError`` naming
    the line and column otherwise. JSON may write an unpaired surrogate
    (``"\\ud800"``), which no transcript and no response can store: a body holding one
    is refused, naming where, before any of it reaches a game (a table's names, an
    answer's words)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise _BodyError(413, f"the request body is larger than {MAX_BODY // 1024} KiB")
        chunks.append(chunk)
    try:
        data = bounded.loads_json(b"".join(chunks), strict=True)
    except bounded.InputError as e:
        raise _BodyError(400, f"the request body must be JSON: {e}" if e.syntax or not e.line else f"the request body, {e}") from None
    bad = words.unencodable(data)
    if bad is not None:
        where, why = bad
        raise _BodyError(400, f"the request's {'.'.join(map(str, where)) or 'body'} {why}")
    return data


def _has_key(request: Request) -> bool:
    policy = _policy(request)
    return policy.key_matches(request.headers.get(KEY_HEADER)) or policy.key_matches(request.cookies.get(KEY_COOKIE))


async def api_create(request: Request) -> Response:
    if not _has_key(request):
        return JSONResponse(
            {
                "error": "starting a game needs this server's host key: open the address werewolf serve printed "
                "(it ends in ?key=...), or send the key in the X-Werewolf-Key header"
            },
            status_code=403,
        )
    try:
        raw = await _json_body(request)
    except _BodyError as e:
        return JSONResponse({"error": e.message}, status_code=e.status)
    try:
        spec, pace = table_spec(raw)
        # Before the game exists: a model or remote agent that does not answer starts nothing (arena.preflight).
        failures = await check_spec(spec)
        if failures:
            return JSONResponse({"error": refusal(failures, flag=None)}, status_code=400)
        session = _store(request).create(spec, pace)
    except GameFileError as e:
        return JSONResponse({"error": str(e)}, status_code=400)
    except RuntimeError as e:
        return JSONResponse({"error": str(e)}, status_code=429)
    return JSONResponse(session.summary(), status_code=201)


def _state(view: str):
    async def state(request: Request) -> Response:
        session, lens = _resolve(_store(request), view, request.path_params["token"])
        return JSONResponse(session.snapshot(lens))

    return state


async def api_answer(request: Request) -> Response:
    session, lens = _resolve(_store(request), "play", request.path_params["token"])
    try:
        body = await _json_body(request)
    except _BodyError as e:
        return JSONResponse({"error": e.message}, status_code=e.status)
    if not isinstance(body, dict) or not isinstance(body.get("decision"), int) or "answer" not in body:
        return JSONResponse({"error": 'send {"decision": <id>, "answer": <value>}'}, status_code=400)
    assert lens.seat is not None
    try:
        value = session.answer(lens.seat, body["decision"], body["answer"])
    except AnswerRefused as e:
        return JSONResponse({"error": str(e)}, status_code=e.status)
    return JSONResponse({"ok": True, "answer": value})


async def api_stop(request: Request) -> Response:
    session, _ = _resolve(_store(request), "host", request.path_params["token"])
    return JSONResponse({"stopped": session.stop()})


def _transcript(view: str):
    async def transcript(request: Request) -> Response:
        session, lens = _resolve(_store(request), view, request.path_params["token"])
        if not lens.full:
            raise HTTPException(403, "the transcript holds every secret: it opens when the game ends")
        return FileResponse(session.transcript, media_type="application/x-ndjson", filename=session.transcript.name)

    return transcript


# ---------------------------------------------------------------------- live stream
def _stream(view: str):
    async def stream(websocket: WebSocket) -> None:
        try:
            session, lens = _resolve(_store(websocket), view, websocket.path_params["token"])
        except HTTPException as e:
            await websocket.close(code=4000 + e.status_code)  # before accept: the handshake is refused
            return
        await websocket.accept()
        channel = session.subscribe(lens)
        try:
            async with anyio.create_task_group() as tg:

                async def until_closed() -> None:
                    with contextlib.suppress(WebSocketDisconnect):
                        while True:
                            await websocket.receive_text()  # pages send nothing; this notices the close
                    tg.cancel_scope.cancel()

                tg.start_soon(until_closed)
                while True:
                    message = await channel.next()
                    try:
                        await websocket.send_json(message)
                    except (WebSocketDisconnect, RuntimeError, OSError):  # the page went away mid-send
                        tg.cancel_scope.cancel()
                        break
                    channel.delivered(message)
                    del message  # not held while the next is awaited: a snapshot is the size of the game so far
        finally:
            session.unsubscribe(channel)

    return stream


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    detail = getattr(exc, "detail", "") or ("not found" if status == 404 else "error")
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": detail}, status_code=status)
    if status == 404 and not request.url.path.startswith("/static/"):  # a link to no game: say what may be wrong
        return missing_page(request.headers.get("accept-language", ""))
    return PlainTextResponse(f"{status}: {detail}", status_code=status)


# The four ways into a game: (view, the page's path after its token's segment).
PATHS = {"play": "/play/{token}", "watch": "/watch/{token}", "full": "/watch/{token}/full", "host": "/host/{token}"}


def create_app(
    transcripts_dir: str | Path = "out/web",
    *,
    restore: bool = True,
    say: Callable[[str], None] | None = None,
    policy: Policy | None = None,
    max_running: int = MAX_RUNNING,
    audit: bool = False,
    people_db: str | Path | None = None,
) -> Starlette:
    """The application; ``transcripts_dir`` receives one transcript per game (and its
    small ``.session.json``). On start the games found there are taken up again
    (``SessionStore.restore``) unless ``restore`` is false; ``say`` is told of each.
    ``policy`` (``arena.web.guard``): the bound address, the extra host names and the
    host key; by default loopback, no extra name and a fresh key (``app.state.policy``).
    ``max_running``: games played at once; one more is refused with 429. ``audit``:
    keep every connection and what it was sent (``GameSession.history``; the tests'
    check of what a browser received), which a served app never does: a closed
    connection then leaves nothing behind. ``people_db``: the tournament database
    people's games are recorded in (``arena.people_games``)."""
    store = SessionStore(Path(transcripts_dir), max_running=max_running, audit=audit, people_db=Path(people_db) if people_db else None)
    policy = policy or Policy()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        if restore:
            for line in store.restore():
                (say or log.info)(line)
        yield
        await store.shutdown()

    routes: list[Any] = [
        Route("/", start_page),
        Route("/api/setup", api_setup),
        Route("/api/games", api_create, methods=["POST"]),
    ]
    for view, path in PATHS.items():
        routes += [
            Route(path, _table_page(view)),
            Route("/api" + path + "/state", _state(view)),
            WebSocketRoute("/ws" + path, _stream(view)),
        ]
    routes += [
        Route("/api/play/{token}/answer", api_answer, methods=["POST"]),
        Route("/api/host/{token}/stop", api_stop, methods=["POST"]),
        Route("/api/watch/{token}/transcript", _transcript("full")),
        Route("/api/host/{token}/transcript", _transcript("host")),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: not_found})
    app.state.store = store
    app.state.policy = policy
    app.add_middleware(RequestGuard, policy=policy)
    app.add_middleware(SecurityHeaders)  # outermost: refusals carry the headers too
    return app
