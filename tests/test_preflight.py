"""The check before the first decision (``agents.llm.probe``, ``arena.preflight``): a
model seat that cannot play stops ``play``, ``fork``, ``tournament`` and a web game
at once, in one line naming the seat, the model and the address; ``--allow-fallbacks``
plays on; the counts of what the model did read the same everywhere.

Servers: the stand-ins of ``llm_standins`` (the vendors' model routes and completions,
through the real SDKs), and real sockets on 127.0.0.1 for what a stand-in cannot
fake: a port where nothing listens, and one that accepts connections and never answers.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest
import yaml

from agents.llm import make_llm_agent
from agents.llm.backends.base import PING
from agents.llm.probe import ONE_TOKEN, nothing_listens, probe
from arena.cli import main
from arena.preflight import check
from llm_standins import FAST, NAMES, AnthropicStandIn, OpenAIStandIn, Raise, SleepRecorder, Sleep, Status, schema_chat_model, standin_router
from transcripts.schema import read_transcript

LOCAL = "http://127.0.0.1:8080/v1"  # a server of one's own (llama.cpp's address), served by a stand-in


# ---------------------------------------------------------------------- servers that cannot play
def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def silent_server() -> Iterator[str]:
    """A base URL whose server accepts every connection and never answers: the
    kernel completes the handshake for a listening socket's backlog, and nobody
    ever reads."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(64)
        yield f"http://127.0.0.1:{s.getsockname()[1]}/v1"


def dead_url() -> str:
    return f"http://127.0.0.1:{closed_port()}/v1"


def seat(spec: str = "openai:gpt-5.4-mini", name: str = "Alice", sleep: Any = None, **options: Any) -> Any:
    return make_llm_agent(spec, name, sleep=sleep or SleepRecorder(), **{**FAST, **options})


def probed(agent: Any) -> Any:
    async def go() -> Any:
        try:
            return await probe(agent.backend)
        finally:
            await agent.aclose()

    return asyncio.run(go())


# ---------------------------------------------------------------------- one endpoint's probe
@pytest.mark.usefixtures("llm_env")
@pytest.mark.parametrize(
    "standin, spec, path",
    [(OpenAIStandIn, "openai:gpt-5.4-mini", "/v1/models/gpt-5.4-mini"), (AnthropicStandIn, "anthropic:claude-haiku-4-5", "/v1/models/claude-haiku-4-5")],
)
def test_a_vendors_model_is_found_by_its_lookup_without_a_completion(standin, spec, path):
    with standin_router() as router:
        api = standin(router)
        result = probed(seat(spec))
    assert result.ok and result.how == "model lookup"
    assert api.lookups == [path] and api.requests == []  # nothing billed


@pytest.mark.usefixtures("llm_env")
def test_a_server_without_the_lookup_is_asked_its_list_then_one_token():
    """llama.cpp and vLLM answer the single lookup with a plain 404: the list names
    the model, or else a one-token call settles it (llama.cpp serves any name)."""
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=LOCAL)
        api.lookup_route, api.listed = False, ["smollm2"]
        listed = probed(seat("openai:smollm2", base_url=LOCAL))
        assert listed.ok and listed.how == "model list" and api.requests == []
        other = probed(seat("openai:another-name", base_url=LOCAL))
    assert other.ok and other.how == ONE_TOKEN
    assert api.requests == [{"model": "another-name", "messages": [{"role": "user", "content": PING}], "max_tokens": 1}]
    assert api.lookups == ["/v1/models/smollm2", "/v1/models", "/v1/models/another-name", "/v1/models"]


@pytest.mark.usefixtures("llm_env")
@pytest.mark.parametrize(
    "standin, spec, words",
    [(OpenAIStandIn, "openai:gpt-5.4-typo", "HTTP 404: The model `gpt-5.4-typo` does not exist"), (AnthropicStandIn, "anthropic:claude-typo", "HTTP 404: model: claude-typo")],
)
def test_an_unknown_model_fails_in_the_servers_words(standin, spec, words):
    with standin_router() as router:
        api = standin(router)
        api.known = {"gpt-5.4-mini", "claude-haiku-4-5"}
        result = probed(seat(spec))
    assert not result.ok and result.error.startswith(words), result


@pytest.mark.usefixtures("llm_env")
@pytest.mark.parametrize("failure", [Status(501, message="Not Implemented"), Status(500, message="no route")])
def test_a_lookup_route_that_fails_is_passed_over_not_blamed(failure):
    """A proxy may answer a route it lacks with a 501, or a 500 that outlasts the
    retries: the server is up, so the list is asked (here it names the model)."""
    sleep = SleepRecorder()
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.listed = ["gpt-5.4-mini"]
        tries = 2 if failure.code == 500 else 1  # a 5xx is retried first (here once), a 501 is not
        api.push_lookup(*[failure] * tries)
        result = probed(seat(sleep=sleep, max_retries=1))
    assert result.ok and result.how == "model list" and api.requests == []
    assert api.lookups == ["/v1/models/gpt-5.4-mini"] * tries + ["/v1/models"] and len(sleep.waits) == tries - 1


@pytest.mark.usefixtures("llm_env")
def test_a_refused_key_fails_at_once():
    sleep = SleepRecorder()
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.push_lookup(Status(401, message="Incorrect API key provided"))
        result = probed(seat(sleep=sleep))
    assert not result.ok and result.error == "HTTP 401: Incorrect API key provided"
    assert sleep.waits == [] and api.requests == [] and len(api.lookups) == 1


@pytest.mark.usefixtures("llm_env")
def test_transient_failures_are_retried_under_the_seats_own_policy():
    sleep = SleepRecorder()
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.push_lookup(Status(503), Raise(httpx.ConnectError), Status(429, {"retry-after": "2"}))
        result = probed(seat(sleep=sleep, retry_max_wait=30))
    assert result.ok and result.how == "model lookup"
    assert len(sleep.waits) == 3 and sleep.waits[2] >= 2  # the server's Retry-After honoured
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.push_lookup(*[Raise(httpx.ReadTimeout)] * 3)
        result = probed(seat(sleep=(sleep := SleepRecorder()), max_retries=2))
    assert not result.ok and result.error.startswith("no answer within 5 s (3 attempts)"), result
    assert len(sleep.waits) == 2 and api.requests == []


def test_nothing_listening_is_said_at_once_and_not_retried(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    sleep = SleepRecorder()
    result = probed(seat("openai:foo", sleep=sleep, base_url=dead_url(), max_retries=4))
    assert not result.ok and result.error == "connection refused (nothing listens at that address)"
    assert sleep.waits == []


def test_a_server_that_never_answers_is_bounded_by_the_seats_time_limit(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    sleep = SleepRecorder()
    with silent_server() as url:
        result = probed(seat("openai:foo", sleep=sleep, base_url=url, timeout=0.3, max_retries=1))
    assert not result.ok and result.error == "no answer within 0.3 s (2 attempts)"
    assert len(sleep.waits) == 1


def test_a_missing_host_name_is_told_and_a_passing_resolver_failure_retried():
    refused = httpx.ConnectError("all attempts failed")
    refused.__cause__ = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert nothing_listens(RuntimeError("wrapped")) is None
    wrapped = RuntimeError("connection error")
    wrapped.__context__ = refused
    assert nothing_listens(wrapped) == "the host name does not exist"
    again = httpx.ConnectError("try later")
    again.__cause__ = socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
    assert nothing_listens(again) is None  # the resolver may answer next time: retried


@pytest.mark.usefixtures("llm_state")
def test_a_langchain_model_is_asked_one_short_call():
    from agents.llm import from_langchain

    model = schema_chat_model()
    result = probed(from_langchain(model, "Alice", **FAST))
    assert result.ok and result.how == ONE_TOKEN and model.prompts == [PING]

    from langchain_core.language_models import BaseChatModel

    class Gone(BaseChatModel):
        @property
        def _llm_type(self) -> str:
            return "gone"

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            raise PermissionError("no such deployment")

    result = probed(from_langchain(Gone(), "Alice", model="gone-1", **FAST))
    assert not result.ok and result.error == "PermissionError: no such deployment"


# ---------------------------------------------------------------------- a table's check
@pytest.mark.usefixtures("llm_env")
def test_seats_sharing_an_endpoint_are_checked_once_and_all_at_once():
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.known = {"gpt-5.4-mini", "gpt-5.4-nano"}
        api.push_lookup(Sleep(0.2), Sleep(0.2))  # the first two lookups wait: both are in flight together
        agents = {n: seat("openai:gpt-5.4-mini", n) for n in NAMES[:3]}
        agents |= {n: seat("openai:gpt-5.4-nano", n) for n in NAMES[3:5]}
        agents |= {n: seat("openai:gpt-5.4-typo", n) for n in NAMES[5:]}
        failures = asyncio.run(check(agents))
    # One lookup per model, the typo's list after its lookup, then its one-token call's 404.
    assert sorted(api.lookups) == ["/v1/models", "/v1/models/gpt-5.4-mini", "/v1/models/gpt-5.4-nano", "/v1/models/gpt-5.4-typo"]
    assert api.lookups_peak >= 2 and [r["model"] for r in api.requests] == ["gpt-5.4-typo"]
    assert [str(f) for f in failures] == [
        "seats Farah, Hugo, Iris (openai:gpt-5.4-typo at https://api.openai.com/v1): "
        "HTTP 404: The model `gpt-5.4-typo` does not exist or you do not have access to it."
    ]


@pytest.mark.usefixtures("llm_env")
def test_seats_with_their_own_key_are_checked_apart(monkeypatch):
    monkeypatch.setenv("SECOND_KEY", "sk-test-second-key-1234")
    with standin_router() as router:
        api = OpenAIStandIn(router)
        agents = {"Alice": seat(name="Alice"), "Bob": seat(name="Bob"), "Chloe": seat(name="Chloe", api_key_env="SECOND_KEY")}
        assert asyncio.run(check(agents)) == []
    assert len(api.lookups) == 2 and api.requests == []


# ---------------------------------------------------------------------- werewolf play
def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# Alice's table: heuristic bots named, not the table's default, since at seed 4 among
# them Alice lives to be asked, and the counts below need her asked.
TABLE = ("--seed", "4", "--agents", "heuristic")


def play_argv(url: str, model: str = "foo", *extra: str) -> list[str]:
    options = [a for k, v in (("base_url", url), ("retry_initial", 0.001), ("retry_max_wait", 0.01)) for a in ("--model-option", f"{k}={v}")]
    return ["play", *TABLE, "--seat", f"Alice=openai:{model}", *options, *extra]


def test_play_stops_before_the_game_when_nothing_listens(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    url = dead_url()
    transcript = tmp_path / "g.jsonl"
    code, out, err = run(capsys, *play_argv(url, "foo", "--transcript", str(transcript), "--json"))
    line = refused_line(err)
    assert code == 2 and out == ""
    assert f"seat Alice (openai:foo at {url}): connection refused" in line and "--allow-fallbacks" in line
    assert not transcript.exists()  # nothing started, nothing written


def test_play_stops_when_the_server_never_answers(capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    with silent_server() as url:
        code, _, err = run(capsys, *play_argv(url, "foo", "--model-option", "timeout=0.3", "--model-option", "max_retries=1"))
    assert code == 2 and f"seat Alice (openai:foo at {url}): no answer within 0.3 s (2 attempts)" in refused_line(err)


@pytest.mark.usefixtures("llm_env")
def test_play_stops_for_a_model_the_server_does_not_have(capsys):
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=LOCAL)
        api.known = {"smollm2"}
        code, _, err = run(capsys, *play_argv(LOCAL, "smolm2"))
    assert code == 2 and "seat Alice (openai:smolm2 at http://127.0.0.1:8080/v1): HTTP 404: The model `smolm2` does not exist" in refused_line(err)


def test_play_on_with_fallbacks_says_so_and_counts_the_same_everywhere(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    transcript = tmp_path / "g.jsonl"
    code, out, err = run(capsys, *play_argv(dead_url(), "foo", "--allow-fallbacks", "--json", "--transcript", str(transcript)))
    assert code == 0, err
    assert "warning: a model did not answer before the game; the fallback bot plays for it: seat Alice (openai:foo" in err
    result = json.loads(out)
    [alice] = result["model_seats"]
    assert alice["name"] == "Alice" and alice["agent"] == "openai:foo" and alice["calls"] == 0
    assert alice["fallbacks"] == alice["errors"] > 0
    calls = read_transcript(transcript).calls
    assert all(c.fallback and c.error and c.error.startswith("not asked: no answer before the game: connection refused") for c in calls)
    # The closing table, verify and the result say the same, in the same words.
    assert "fallbacks" in err and "errors" in err
    n = alice["fallbacks"]
    code, out, _ = run(capsys, "verify", str(transcript))
    assert code == 0 and f"model seats: 0 calls, {n} fallbacks, {n} errors ({len(calls)} call records checked)" in out
    code, out, _ = run(capsys, "verify", "--json", str(transcript))
    counts = json.loads(out)
    assert (counts["calls"], counts["fallbacks"], counts["errors"], counts["call_records"]) == (0, n, n, len(calls))


@pytest.mark.usefixtures("llm_env")
def test_play_with_a_healthy_model_passes_the_check_and_counts_its_calls(capsys):
    with standin_router() as router:
        api = OpenAIStandIn(router)
        code, out, err = run(capsys, "play", *TABLE, "--seat", "Alice=openai:gpt-5.4-mini", "--json", "--quiet")
    assert code == 0, err
    [alice] = json.loads(out)["model_seats"]
    assert alice == {"name": "Alice", "agent": "openai:gpt-5.4-mini", "calls": len(api.requests), "fallbacks": 0, "errors": 0}
    assert api.lookups == ["/v1/models/gpt-5.4-mini"] and alice["calls"] > 0


def test_a_bots_only_result_keeps_the_contracts_keys(capsys):
    code, out, _ = run(capsys, "play", "--seed", "4", "--json", "--quiet")
    assert code == 0 and set(json.loads(out)) == {"winner", "winners", "deaths", "players", "days"}


def test_fork_stops_before_playing_on_when_nothing_listens(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    source = tmp_path / "source.jsonl"
    assert run(capsys, "play", "--seed", "1", "--quiet", "--json", "--transcript", str(source))[0] == 0
    url = dead_url()
    argv = ["fork", str(source), "--day", "2", "--seat", "Alice=openai:foo", "--model-option", f"base_url={url}", "--quiet", "--json"]
    code, _, err = run(capsys, *argv)
    assert code == 2 and f"seat Alice (openai:foo at {url}): connection refused" in refused_line(err)
    code, out, err = run(capsys, *argv, "--allow-fallbacks")
    assert code == 0 and json.loads(out)["model_seats"][0]["calls"] == 0, err


# ---------------------------------------------------------------------- werewolf tournament
def tournament_file(tmp_path: Path, options: dict[str, Any], **extra: Any) -> Path:
    data = {
        "name": "t", "seed": 1, "games": 2, "tables": [{"players": 5, "options": {"sheriff": False}}],
        "participants": [{"name": "M", "agent": "openai:foo", "options": {"retry_initial": 0.001, "retry_max_wait": 0.01, **options}},
                         {"name": "Bot", "agent": "heuristic"}],
        **extra,
    }  # fmt: skip
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def stored_games(db: Path) -> int:
    import sqlite3

    if not db.exists():
        return 0
    return sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]


def test_tournament_stops_before_its_first_game(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    url = dead_url()
    db = tmp_path / "t.db"
    cfg = tournament_file(tmp_path, {"base_url": url})
    code, out, err = run(capsys, "tournament", str(cfg), "--db", str(db), "--trust-endpoints", "--quiet")
    line = refused_line(err)
    assert code == 2 and out == "" and stored_games(db) == 0
    assert f"before the tournament, so nothing was started: participant M (openai:foo at {url}): connection refused" in line
    assert "--allow-fallbacks (allow_fallbacks: true in the file)" in line
    with silent_server() as url:
        cfg = tournament_file(tmp_path, {"base_url": url, "timeout": 0.3, "max_retries": 0})
        code, _, err = run(capsys, "tournament", str(cfg), "--db", str(db), "--trust-endpoints", "--quiet")
    assert code == 2 and f"participant M (openai:foo at {url}): no answer within 0.3 s" in refused_line(err)


@pytest.mark.usefixtures("llm_env")
def test_tournament_stops_for_an_unknown_model_and_plays_a_known_one(tmp_path, capsys):
    db = tmp_path / "t.db"
    with standin_router() as router:
        api = OpenAIStandIn(router, base_url=LOCAL)
        api.known = {"smollm2"}
        code, _, err = run(capsys, "tournament", str(tournament_file(tmp_path, {"base_url": LOCAL})), "--db", str(db), "--trust-endpoints", "--quiet")
        assert code == 2 and "participant M (openai:foo at http://127.0.0.1:8080/v1): HTTP 404" in refused_line(err)
        assert stored_games(db) == 0
        api.known = {"foo"}
        code, _, err = run(capsys, "tournament", str(tournament_file(tmp_path, {"base_url": LOCAL})), "--db", str(db), "--trust-endpoints", "--quiet")
    assert code == 0 and stored_games(db) == 2, err


@pytest.mark.parametrize("how", ["file", "flag"])
def test_tournament_plays_on_with_fallbacks_when_told(tmp_path, capsys, monkeypatch, how):
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    db = tmp_path / "t.db"
    extra = {"allow_fallbacks": True} if how == "file" else {}
    cfg = tournament_file(tmp_path, {"base_url": dead_url(), "max_retries": 0}, **extra)
    flags = ["--allow-fallbacks"] if how == "flag" else []
    # The run starts; the trial then pauses the participant after its first game (exit 3),
    # since the leaderboard would leave out every game its fallback bot played...
    code, _, err = run(capsys, "tournament", str(cfg), "--db", str(db), "--trust-endpoints", "--quiet", *flags)
    assert code == 3 and stored_games(db) == 1, err
    assert "warning: a model did not answer before the tournament; the fallback bot plays for it: participant M" in err
    assert "paused M (openai:foo)" in err
    # ...and --min-decided 0 plays every game anyway.
    code, _, err = run(capsys, "tournament", str(cfg), "--db", str(db), "--trust-endpoints", "--quiet", "--min-decided", "0", *flags)
    assert code == 0 and stored_games(db) == 2, err


# ---------------------------------------------------------------------- a web game
from arena.web.index import NAME as WEB_INDEX  # noqa: E402

def web_table(agent: str = "openai:gpt-5.4-mini") -> dict[str, Any]:
    seats = [{"name": "Alice", "agent": "human"}, {"name": "Bob", "agent": agent}] + [{"name": n, "agent": "heuristic"} for n in NAMES[2:5]]
    return {"seed": 4, "seats": seats, "pace": 0, "options": {"sheriff": False}}


@pytest.fixture
def web(tmp_path):
    from arena.web.app import create_app
    from web_tools import web_client

    app = create_app(tmp_path / "games")
    with web_client(app) as client:
        yield client


def no_game_written(tmp_path: Path) -> bool:
    """No game file in the server's folder (its token index, ``web-index.sqlite3``, is
    the server's own and may be there from the start)."""
    folder = tmp_path / "games"
    return not folder.exists() or not any(f.name != WEB_INDEX and not f.name.startswith(WEB_INDEX) for f in folder.iterdir())


@pytest.mark.usefixtures("llm_env")
def test_a_web_game_is_refused_when_nothing_listens(web, tmp_path, monkeypatch):
    url = dead_url()
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    r = web.post("/api/games", json=web_table())
    assert r.status_code == 400
    assert f"seat Bob (openai:gpt-5.4-mini at {url}): connection refused (nothing listens at that address)" in r.json()["error"]
    assert "--allow-fallbacks" not in r.json()["error"] and no_game_written(tmp_path)


@pytest.mark.usefixtures("llm_env")
def test_a_web_game_is_refused_when_the_server_never_answers(web, tmp_path, monkeypatch):
    from agents.llm.backends import sdk
    from agents.llm.backends.base import Backend

    # The web's seats take the default settings: five tries, each lookup up to 10 s, with
    # backoff between. Shortened here, the same policy: 0.2 s a try, no wait between.
    monkeypatch.setattr(sdk, "LOOKUP_TIMEOUT", 0.2)
    monkeypatch.setattr(Backend, "_wait", lambda self, state: 0.0)
    with silent_server() as url:
        monkeypatch.setenv("OPENAI_BASE_URL", url)
        r = web.post("/api/games", json=web_table())
    assert r.status_code == 400 and f"seat Bob (openai:gpt-5.4-mini at {url}): no answer within 0.2 s (5 attempts)" in r.json()["error"]
    assert no_game_written(tmp_path)


@pytest.mark.usefixtures("llm_env")
def test_a_web_game_is_refused_for_an_unknown_model_and_starts_with_a_known_one(web, tmp_path):
    with standin_router() as router:
        api = OpenAIStandIn(router)
        api.known = {"gpt-5.4-mini"}
        r = web.post("/api/games", json=web_table("openai:gpt-5.4-typo"))
        assert r.status_code == 400 and "seat Bob (openai:gpt-5.4-typo at https://api.openai.com/v1): HTTP 404" in r.json()["error"]
        assert no_game_written(tmp_path)
        r = web.post("/api/games", json=web_table())
        assert r.status_code == 201, r.text
        # Taken before the stop: an ended game leaves the server's memory.
        session = web.app.state.store.sessions[r.json()["id"]]
        assert web.post("/api" + r.json()["host"] + "/stop", json={}).json() == {"stopped": True}
        for _ in range(500):  # the server's loop runs the stop in its own thread
            if session.task.done():
                break
            time.sleep(0.02)
    assert session.status == "stopped" and "/v1/models/gpt-5.4-mini" in api.lookups
