"""``werewolf a2a serve``: the arena as an A2A assessor, driven by the official SDK's
client over 127.0.0.1, with the example agent as a participant (each server a
process of its own: nothing of A2A is mocked)."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from a2a_standins import running

pytest.importorskip("a2a")

import httpx  # noqa: E402
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory  # noqa: E402
from a2a.helpers import new_data_part, new_text_part  # noqa: E402
from a2a.types import GetTaskRequest, InvalidParamsError, InvalidRequestError, Message, Role, SendMessageConfiguration, SendMessageRequest, TaskState  # noqa: E402
from google.protobuf.json_format import MessageToDict  # noqa: E402

from arena.a2a.request import RequestError, parse_request  # noqa: E402
from arena.cli import main  # noqa: E402


@pytest.fixture(scope="module")
def servers(tmp_path_factory) -> Any:
    out = tmp_path_factory.mktemp("assessor")
    commands = [
        ["-m", "arena.cli", "a2a", "serve", "--port", "{port}", "--local-agents", "--max-tasks", "1", "--out", str(out)],
        ["-m", "examples.remote_agent", "--port", "{port}"],
    ]
    with running(commands) as (assessor, example):
        yield assessor, example


async def client_for(url: str, http: httpx.AsyncClient, *, streaming: bool) -> Any:
    card = await A2ACardResolver(http, url).get_agent_card()
    return ClientFactory(ClientConfig(streaming=streaming, httpx_client=http)).create(card)


def request(example: str, **over: Any) -> dict[str, Any]:
    return {
        "participants": [
            {"name": "Example", "agent": f"a2a:{example}"},
            {"name": "Example-B", "agent": f"a2a:{example}", "options": {"decision_timeout": 20}},
            {"name": "Bot", "agent": "heuristic"},
        ],
        "players": 5,
        "games": 2,
        "seed": 6,
        **over,
    }


def message(*parts: Any) -> SendMessageRequest:
    return SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=uuid.uuid4().hex, parts=list(parts)))


def test_a_task_streams_progress_and_returns_result_leaderboard_and_transcripts(servers, tmp_path, capsys):
    assessor, example = servers

    async def go() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(timeout=300) as http:
            client = await client_for(assessor, http, streaming=True)
            return [MessageToDict(e) async for e in client.send_message(message(new_data_part(request(example))))]

    events = asyncio.run(go())
    said = [p["text"] for e in events if "statusUpdate" in e for p in e["statusUpdate"]["status"].get("message", {}).get("parts", []) if "text" in p]
    assert any("finished (1/2)" in s for s in said) and any("finished (2/2)" in s for s in said), said
    assert events[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"
    artifacts = {e["artifactUpdate"]["artifact"]["name"]: e["artifactUpdate"]["artifact"]["parts"] for e in events if "artifactUpdate" in e}
    assert set(artifacts) == {"result", "leaderboard", "transcripts"}
    result = artifacts["result"][0]["data"]
    assert result["protocol"] == "werewolf-arena/assessment@1" and len(result["games"]) == 2
    assert "db" not in result["report"] and "transcripts" not in result["report"]  # no path of the assessor's machine
    seats = [s for g in result["games"] for s in g["seats"]]
    assert {s["participant"] for s in seats} == {"Example", "Example-B", "Bot"}
    assert all(s["fallbacks"] == 0 for s in seats)
    board = artifacts["leaderboard"][0]["data"]
    assert {p["participant"] for p in board["participants"]} == {"Example", "Example-B", "Bot"}
    transcripts = artifacts["transcripts"]
    assert sorted(p["filename"] for p in transcripts) == sorted(g["transcript"] for g in result["games"])
    for p in transcripts:  # each one a whole game that re-plays
        path = tmp_path / p["filename"]
        path.write_text(p["text"], encoding="utf-8")
        assert main(["verify", str(path)]) == 0
    capsys.readouterr()


def test_bad_requests_are_a2a_errors_and_tasks_are_bounded(servers):
    assessor, example = servers

    async def go() -> None:
        async with httpx.AsyncClient(timeout=120) as http:
            client = await client_for(assessor, http, streaming=False)
            for parts, words in (
                ([new_data_part({"participants": []})], "participants"),
                ([new_data_part({"participants": [{"name": "M", "agent": "openai:gpt-5.4-mini"}]})], "cannot be seated from a request"),
                ([new_data_part(request(example, players=99))], "players"),
                ([new_data_part(request(example, preset="nope"))], "unknown preset 'nope'"),
                ([new_data_part({"participants": [{"name": "X", "agent": "a2a:http://127.0.0.1:9"}]})], "no agent card could be read"),
                ([new_text_part("play something")], "send the request as a data part"),
                ([new_data_part(request(example, surprise=1))], "unknown key 'surprise'"),
            ):
                with pytest.raises(InvalidParamsError, match=words):
                    async for _ in client.send_message(message(*parts)):
                        pass
            # One task at a time (--max-tasks 1): the second is refused while the first plays;
            # the first, asked to return at once, is then followed by polling.
            first = message(new_text_part(json.dumps(request(example, games=1))))
            first.configuration.CopyFrom(SendMessageConfiguration(return_immediately=True))
            task = [e async for e in client.send_message(first)][-1].task
            with pytest.raises(InvalidRequestError, match="limit of 1"):
                async for _ in client.send_message(message(new_data_part(request(example, games=1)))):
                    pass
            for _ in range(600):
                task = await client.get_task(GetTaskRequest(id=task.id))
                if task.status.state in (TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED):
                    break
                await asyncio.sleep(0.1)
            assert task.status.state == TaskState.TASK_STATE_COMPLETED
            assert [a.name for a in task.artifacts] == ["result", "leaderboard", "transcripts"]

    asyncio.run(go())


@pytest.mark.parametrize(
    "participant,words",
    [
        ({"name": "L", "agent": "a2a:http://127.0.0.1:9100"}, "on the assessor's machine or network"),
        ({"name": "L", "agent": "a2a:http://10.1.2.3:9100"}, "on the assessor's machine or network"),
        ({"name": "L", "agent": "a2a:https://agent.example.org", "options": {"token_env": "HOME"}}, "token_env"),
        ({"name": "P", "agent": "py:examples.agents.cautious:CautiousAgent"}, "cannot be seated from a request"),
        ({"name": "H", "agent": "human"}, "cannot be seated from a request"),
    ],
)
def test_a_request_reaches_no_further_than_the_operator_allows(participant, words):
    with pytest.raises(RequestError, match=words):
        parse_request({"participants": [participant, {"name": "B", "agent": "heuristic"}]})
    if "assessor's machine" in words:
        parse_request({"participants": [participant, {"name": "B", "agent": "heuristic"}]}, local_agents=True)


def test_the_command_says_what_it_needs(capsys):
    assert main(["a2a", "serve", "--host", "0.0.0.0"]) == 2
    assert "--url" in capsys.readouterr().err
    assert main(["a2a", "serve", "--port", "0"]) == 2
    assert "out of range" in capsys.readouterr().err

