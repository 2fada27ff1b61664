"""What ``verify`` proves: the forgeries of issue 12 fail, the honest files pass.

A model game (OpenAI stand-in: refused replies, a seat disabled by a 401 and played
by its fallback, beliefs) is the honest file. The attacks: its digests deleted, the
chain stripped or recomputed over a different game whose bots' answers are
relabelled as the model's with no calls, its calls dropped or transplanted, a call
edited, and for a signed file a line appended, the signature cut, a line removed
under a recomputed chain, a file re-signed by another key. The happy paths: play,
resume, fork, tournament and a web game, signed and verified with ``--key``.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
import yaml
from llm_standins import FAST, NAMES, OpenAIStandIn, Reply, Status, reset_llm_state, set_fake_keys, standin_router
from transcript_tools import index_of, lines, write_lines

from arena.cli import main
from transcripts.schema import read_transcript
from transcripts.signing import ENV_VAR, load_public_key, load_signer
from transcripts.verify import Status as Verdict
from transcripts.verify import verify_file

MODEL = "openai:gpt-5.4-mini"
MODEL_SEATS = ("Alice", "Bob", "Chloe")


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    set_fake_keys(monkeypatch)
    monkeypatch.delenv(ENV_VAR, raising=False)
    reset_llm_state()
    yield
    reset_llm_state()


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("keys")
    for name in ("mine", "other"):
        assert main(["keygen", str(folder / name)]) == 0
    return {"mine": folder / "mine", "mine.pub": folder / "mine.pub", "other": folder / "other", "other.pub": folder / "other.pub"}


def table(tmp_path: Path, seed: int, agents: dict[str, str], *, beliefs: bool = True) -> Path:
    seats = [{"name": n, "agent": agents.get(n, "heuristic")} for n in NAMES]
    for s in seats:
        if s["agent"] == MODEL:
            s["options"] = dict(FAST)
    data = {"seed": seed, "options": {"sheriff": False}, "seats": seats, "beliefs": beliefs}
    p = tmp_path / f"table{seed}.yaml"
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    return p


def play_model_game(tmp_path: Path, out: Path, *flags: str, seed: int = 4) -> Path:
    gf = table(tmp_path, seed, {n: MODEL for n in MODEL_SEATS})
    with standin_router() as router:
        api = OpenAIStandIn(router, seed=seed)
        api.push(Reply('{"action": "Nobody-Here"}'), when=lambda b: "You are Alice " in b["messages"][0]["content"])
        api.push(Status(401, message="bad key"), when=lambda b: "You are Bob " in b["messages"][0]["content"])
        assert main(["play", str(gf), "--quiet", "--transcript", str(out), "--model-option", "retry_initial=0.001", *flags]) == 0
    return out


@pytest.fixture(scope="module")
def model_game(tmp_path_factory, keys) -> Path:
    """The honest file: a signed game with three model seats."""
    with pytest.MonkeyPatch.context() as mp:
        set_fake_keys(mp)
        mp.delenv(ENV_VAR, raising=False)
        reset_llm_state()
        folder = tmp_path_factory.mktemp("model")
        path = play_model_game(folder, folder / "game.jsonl", "--sign-key", str(keys["mine"]))
        reset_llm_state()
    t = read_transcript(path)
    assert any(c.violation for c in t.calls) and any(c.fallback for c in t.calls) and t.beliefs
    return path


@pytest.fixture(scope="module")
def unsigned_model_game(model_game, tmp_path_factory) -> Path:
    """The same game without its signature (as ``play`` without a key writes it)."""
    rows = [r for r in lines(model_game) if r["type"] != "signature"]
    rows[0].pop("signer")
    return write_lines(tmp_path_factory.mktemp("plain") / "game.jsonl", rows, rechain=True)


def bots_game(tmp_path: Path, winner_not: str) -> Path:
    """The same table played by bots, with another winner."""
    for seed in range(1, 40):
        out = tmp_path / f"bots{seed}.jsonl"
        assert main(["play", str(table(tmp_path, seed, {}, beliefs=False)), "--quiet", "--transcript", str(out)]) == 0
        if read_transcript(out).result.winner != winner_not:
            return out
    raise AssertionError("no seed gave another winner")


def verdict(path: Path, *flags: str) -> dict:
    return json.loads(run_cli(["verify", str(path), "--json", *flags])[1])


def run_cli(argv: list[str]) -> tuple[int, str]:
    import contextlib
    import io

    buf, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, buf.getvalue() or err.getvalue()


def mismatch(path: Path, *, key: Path | None = None, allow_unchained: bool = False):
    v = verify_file(path, allow_unchained=allow_unchained, trusted_key=load_public_key(str(key)) if key else None)
    assert v.status is Verdict.MISMATCH, v.summary()
    return v


# ---------------------------------------------------------------------- the honest file
def test_the_honest_signed_model_game_verifies_with_every_guarantee(model_game, keys):
    code, out = run_cli(["verify", str(model_game), "--key", str(keys["mine.pub"])])
    assert code == 0 and "every model answer backed by its call" in out and "(the trusted key)" in out
    j = verdict(model_game, "--key", str(keys["mine.pub"]))
    g = j["guarantees"]
    assert j["status"] == "ok" and all(g[k]["holds"] for k in ("chain", "replay", "model_calls", "signed", "trusted_signer"))
    fp = load_signer(str(keys["mine"])).fingerprint
    assert j["signer"] == fp and g["signed"]["signer"] == fp
    assert "model answers" in g["model_calls"]["detail"] and "model beliefs" in g["model_calls"]["detail"]
    t = read_transcript(model_game)
    assert t.header.signer.fingerprint == fp and t.records[-1].type == "signature"


def test_the_private_key_is_written_nowhere(model_game, keys):
    assert stat.S_IMODE(os.stat(keys["mine"]).st_mode) == 0o600
    private = keys["mine"].read_text()
    body = "".join(private.strip().splitlines()[1:-1])
    text = model_game.read_text()
    assert body not in text and body[:24] not in text
    assert main(["keygen", str(keys["mine"])]) == 2  # never overwritten


def test_without_a_key_the_verdict_says_who_signed_and_that_nothing_is_trusted(model_game):
    j = verdict(model_game)
    assert j["status"] == "ok" and j["guarantees"]["signed"]["holds"] is True
    assert j["guarantees"]["trusted_signer"]["holds"] is None


# ---------------------------------------------------------------------- the forgeries
def test_digests_deleted_fail_unless_allowed(unsigned_model_game, tmp_path):
    rows = [{k: v for k, v in r.items() if k != "digest"} for r in lines(unsigned_model_game)]
    p = write_lines(tmp_path / "nodigest.jsonl", rows)
    j = verdict(p)
    assert j["status"] == "mismatch" and j["difference"]["line"] == 1 and "no digest chain" in j["difference"]["message"]
    assert j["guarantees"]["chain"]["holds"] is False and j["guarantees"]["replay"]["holds"] is True
    assert run_cli(["verify", str(p)])[0] == 1
    code, out = run_cli(["verify", str(p), "--allow-unchained"])
    assert code == 0 and "no digest chain" in out


def relabelled(bots: Path, model: Path, dst: Path, *, rechain: bool) -> Path:
    """The forger's file: the bots' game, credited to the model game's agents, no calls."""
    agents = {s["name"]: s for s in lines(model)[0]["seats"]}
    rows = lines(bots)
    for s in rows[0]["seats"]:
        s.update(agent=agents[s["name"]]["agent"])
        if "options" in agents[s["name"]]:
            s["options"] = agents[s["name"]]["options"]
    for r in rows[1:]:
        if r["type"] == "answer":
            r["agent"] = agents[r["seat"]]["agent"]
    if not rechain:
        rows = [{k: v for k, v in r.items() if k != "digest"} for r in rows]
    return write_lines(dst, rows, rechain=rechain)


@pytest.mark.parametrize("rechain", [False, True], ids=["chain-stripped", "chain-recomputed"])
def test_another_game_relabelled_as_the_models_fails(tmp_path, unsigned_model_game, rechain):
    winner = read_transcript(unsigned_model_game).result.winner
    forged = relabelled(bots_game(tmp_path, winner), unsigned_model_game, tmp_path / "forged.jsonl", rechain=rechain)
    assert read_transcript(forged).result.winner != winner
    v = mismatch(forged, allow_unchained=True)  # even with the chain excused
    assert "no call record produced it" in v.difference.message and "openai:gpt-5.4-mini" in v.difference.message
    j = verdict(forged, "--allow-unchained")
    assert j["guarantees"]["replay"]["holds"] is True and j["guarantees"]["model_calls"]["holds"] is False
    if not rechain:
        assert verdict(forged)["guarantees"]["chain"]["holds"] is False


def test_the_model_games_calls_dropped_fail(tmp_path, unsigned_model_game):
    rows = [r for r in lines(unsigned_model_game) if r["type"] != "call"]
    v = mismatch(write_lines(tmp_path / "nocalls.jsonl", rows, rechain=True))
    assert "no call record produced it" in v.difference.message


def test_calls_transplanted_onto_another_game_fail(tmp_path, unsigned_model_game):
    winner = read_transcript(unsigned_model_game).result.winner
    forged = relabelled(bots_game(tmp_path, winner), unsigned_model_game, tmp_path / "f.jsonl", rechain=True)
    rows, calls = lines(forged), [r for r in lines(unsigned_model_game) if r["type"] == "call"]
    out: list[dict] = [rows[0]]
    for r in rows[1:]:  # each call before the answer with its decision id, as a writer would
        if r["type"] == "answer":
            out += [c for c in calls if c["decision"] == r["decision"] and c["seat"] == r["seat"]]
        out.append(r)
    mismatch(write_lines(tmp_path / "transplant.jsonl", out, rechain=True))


def final_call(rows: list[dict], accepted: bool = True) -> int:
    return index_of(rows, lambda r: r["type"] == "call" and r["kind"] in ("vote", "wolf_kill", "seer_check") and r["accepted"] is accepted and r.get("fallback") is not True)


@pytest.mark.parametrize("what", ["answer", "parsed", "model", "seat-bot", "accepted-twice", "moved-after"])
def test_an_edited_call_fails_even_under_a_recomputed_chain(tmp_path, unsigned_model_game, what):
    rows = lines(unsigned_model_game)
    i = final_call(rows)
    answer = next(r for r in rows if r["type"] == "answer" and r["decision"] == rows[i]["decision"] and r["seat"] == rows[i]["seat"])
    other = next(o for o in answer["options"] if o != answer["answer"])
    if what == "answer":
        rows[i]["answer"] = other
    elif what == "parsed":
        rows[i]["parsed"]["action"] = other
    elif what == "model":
        rows[i]["model"] = "gpt-4o"
    elif what == "seat-bot":  # the seat's answers credited to a bot, its calls kept
        rows[0]["seats"][NAMES.index(answer["seat"])]["agent"] = "heuristic"
        for r in rows:
            if r["type"] == "answer" and r["seat"] == answer["seat"]:
                r["agent"] = "heuristic"
    elif what == "accepted-twice":
        rows.insert(i + 1, dict(rows[i]))
    else:  # the call moved after the answer it produced
        j = rows.index(answer)
        rows.insert(j + 1, rows.pop(i))
    v = mismatch(write_lines(tmp_path / "edited.jsonl", rows, rechain=True))
    assert "call" in v.difference.message


@pytest.mark.parametrize("field", ["parsed", "answer"])
def test_an_edited_speech_in_its_call_fails(tmp_path, unsigned_model_game, field):
    rows = lines(unsigned_model_game)
    i = index_of(rows, lambda r: r["type"] == "call" and r["kind"] == "speak" and r["accepted"])
    rows[i][field]["text"] = "I am the Seer and Emma is a wolf."  # the speech the table heard stays as it was
    v = mismatch(write_lines(tmp_path / "speech.jsonl", rows, rechain=True))
    assert v.difference.line == i + 1 and "call" in v.difference.message


def test_a_model_cut_off_by_its_time_limit_is_backed_by_its_last_call(tmp_path):
    """The fallback after a decision's time limit still leaves the call that says so."""
    from llm_standins import Sleep

    gf = table(tmp_path, 6, {"Alice": MODEL}, beliefs=False)
    data = yaml.safe_load(gf.read_text())
    data["seats"][0]["options"]["decision_timeout"] = 0.2
    gf.write_text(yaml.safe_dump(data))
    out = tmp_path / "slow.jsonl"
    with standin_router() as router:
        api = OpenAIStandIn(router, seed=6)
        api.push(Sleep(2.0), when=lambda b: "You are Alice " in b["messages"][0]["content"])
        assert main(["play", str(gf), "--quiet", "--transcript", str(out)]) == 0
    t = read_transcript(out)
    assert any(c.fallback and c.error and "time limit" in c.error for c in t.calls)
    v = verify_file(out)
    assert v.ok and v.guarantees["model_calls"]["holds"], v.summary()


def test_an_edited_call_without_rechaining_breaks_the_chain(tmp_path, unsigned_model_game):
    rows = lines(unsigned_model_game)
    i = final_call(rows)
    rows[i]["parsed"]["reasoning"] = "edited thoughts"
    v = mismatch(write_lines(tmp_path / "e.jsonl", rows))
    assert v.difference.line == i + 1 and "digest" in v.difference.message


def test_reasoning_and_cost_edits_under_a_recomputed_chain_need_a_signature(tmp_path, model_game, unsigned_model_game):
    """What only a signature shows: fields nothing else constrains."""

    def doctor(rows: list[dict]) -> None:
        i = final_call(rows)
        rows[i]["parsed"]["reasoning"] = "edited thoughts"
        rows[i]["cost_usd"] = 123.0

    rows = lines(unsigned_model_game)
    doctor(rows)
    assert verify_file(write_lines(tmp_path / "plain.jsonl", rows, rechain=True)).ok  # the documented limit
    rows = lines(model_game)
    doctor(rows)
    v = mismatch(write_lines(tmp_path / "signed.jsonl", rows, rechain=True))
    assert "signature does not cover" in v.difference.message


# ---------------------------------------------------------------------- signed files
def test_a_line_appended_after_signing_fails(tmp_path, model_game, keys):
    rows = lines(model_game)
    rows.append({"type": "error", "message": "appended"})
    v = mismatch(write_lines(tmp_path / "app.jsonl", rows, rechain=True))
    assert "after the result" in v.difference.message or "after the last signature" in v.difference.message
    with (tmp_path / "partial.jsonl").open("w") as f:  # a partial line after the signature
        f.write(model_game.read_text() + '{"type": "ev')
    mismatch(tmp_path / "partial.jsonl", key=keys["mine.pub"])


@pytest.mark.parametrize("cut", [1, 2, 40])
def test_a_file_truncated_after_signing_fails(tmp_path, model_game, keys, cut):
    rows = lines(model_game)[:-cut]
    p = write_lines(tmp_path / "cut.jsonl", rows)
    v = verify_file(p, trusted_key=load_public_key(str(keys["mine.pub"])))
    assert v.status is Verdict.MISMATCH and "without a signature" in v.difference.message, v.summary()
    j = verdict(p)
    assert j["status"] != "ok" and j["guarantees"]["signed"]["holds"] is False


def test_a_line_removed_under_a_recomputed_chain_breaks_the_signature(tmp_path, model_game):
    rows = lines(model_game)
    i = index_of(rows, lambda r: r["type"] == "call" and r.get("violation") and not r.get("accepted") and not r.get("fallback"))
    rows.pop(i)  # a refused attempt: the re-play and the calls still hold
    v = mismatch(write_lines(tmp_path / "rm.jsonl", rows, rechain=True))
    assert "signature" in v.difference.message


def test_a_file_re_signed_with_another_key_fails_against_the_trusted_key(tmp_path, model_game, keys):
    from transcripts.chain import head
    from transcripts.schema import parse_record

    other = load_signer(str(keys["other"]))
    rows = [r for r in lines(model_game) if r["type"] != "signature"]
    rows[0]["signer"] = other.header_record().model_dump()
    rows = lines(write_lines(tmp_path / "x.jsonl", rows, rechain=True))
    h = head(parse_record(json.dumps(r)) for r in rows)
    rows.append({"type": "signature", "lines": len(rows), "head": h, "fingerprint": other.fingerprint, "signature": other.sign(h, len(rows))})
    p = write_lines(tmp_path / "resigned.jsonl", rows, rechain=True)
    assert verify_file(p).ok and verify_file(p).signer == other.fingerprint  # says who signed: the other key
    v = mismatch(p, key=keys["mine.pub"])
    assert "not by the trusted key" in v.difference.message and v.difference.line == 1
    code, out = run_cli(["verify", str(p), "--key", str(keys["mine.pub"])])
    assert code == 1 and other.fingerprint in out


def test_a_forged_signature_fails(tmp_path, model_game):
    rows = lines(model_game)
    sig = rows[-1]["signature"]
    rows[-1]["signature"] = ("A" if sig[0] != "A" else "B") + sig[1:]
    v = mismatch(write_lines(tmp_path / "sig.jsonl", rows, rechain=True))
    assert "not a valid signature" in v.difference.message


def test_an_unsigned_file_fails_against_a_trusted_key(unsigned_model_game, keys):
    v = mismatch(unsigned_model_game, key=keys["mine.pub"])
    assert "not signed" in v.difference.message


@pytest.mark.parametrize("content, words", [("not a key\n", "not an Ed25519 public key"), (None, "cannot read")])
def test_a_bad_trusted_key_is_a_clear_error(tmp_path, model_game, content, words):
    key = tmp_path / "k.pub"
    if content is not None:
        key.write_text(content)
    code, err = run_cli(["verify", str(model_game), "--key", str(key)])
    assert code == 2 and words in err


def test_a_bad_signing_key_is_a_clear_error(tmp_path, monkeypatch):
    bad = tmp_path / "bad"
    bad.write_text("-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n")
    code, err = run_cli(["play", "--quiet", "--transcript", str(tmp_path / "t.jsonl"), "--sign-key", str(bad)])
    assert code == 2 and "not an Ed25519 private key" in err and "nope" not in err
    monkeypatch.setenv(ENV_VAR, "c2hvcnQ=")
    code, err = run_cli(["play", "--quiet", "--transcript", str(tmp_path / "t.jsonl")])
    assert code == 2 and ENV_VAR in err


# ---------------------------------------------------------------------- happy paths
def test_the_key_may_come_from_the_environment(tmp_path, keys, monkeypatch):
    monkeypatch.setenv(ENV_VAR, keys["mine"].read_text())
    out = tmp_path / "env.jsonl"
    assert main(["play", "--quiet", "--seed", "2", "--transcript", str(out)]) == 0
    assert run_cli(["verify", str(out), "--key", str(keys["mine.pub"])])[0] == 0
    assert keys["mine"].read_text().splitlines()[1] not in out.read_text()


def test_resume_continues_the_chain_and_signs_the_new_end(tmp_path, keys, capsys):
    full = play_model_game(tmp_path, tmp_path / "full.jsonl", "--sign-key", str(keys["mine"]))
    rows = [r for r in lines(full) if r["type"] != "signature"]
    k = [i for i, r in enumerate(rows) if r["type"] == "answer"][30]
    part = write_lines(tmp_path / "part.jsonl", rows[: k + 1])  # killed: no signature
    assert verify_file(part).status is Verdict.INCOMPLETE
    assert main(["play", "--resume", str(part), "--quiet"]) == 2  # a signed file goes on with its key only
    assert "--sign-key" in capsys.readouterr().err
    assert main(["play", "--resume", str(part), "--quiet", "--sign-key", str(keys["other"])]) == 2
    capsys.readouterr()
    with standin_router() as router:
        OpenAIStandIn(router, seed=4)
        assert main(["play", "--resume", str(part), "--quiet", "--sign-key", str(keys["mine"])]) == 0
    assert run_cli(["verify", str(part), "--key", str(keys["mine.pub"])])[0] == 0
    assert [r["type"] for r in lines(part)].count("signature") == 1
    # Resumed into a new file signed by another key: the new file names that key.
    with standin_router() as router:
        OpenAIStandIn(router, seed=4)
        new = tmp_path / "new.jsonl"
        assert main(["play", "--resume", str(write_lines(tmp_path / "p2.jsonl", rows[: k + 1])), "--quiet", "--transcript", str(new), "--sign-key", str(keys["other"])]) == 0
    assert run_cli(["verify", str(new), "--key", str(keys["other.pub"])])[0] == 0


def test_an_unsigned_file_is_not_signed_half_way(tmp_path, keys, capsys):
    from transcript_tools import play_to_file, varied_spec

    src = tmp_path / "src.jsonl"
    play_to_file(varied_spec(1, "heuristic"), src)
    rows = lines(src)
    part = write_lines(tmp_path / "part.jsonl", rows[: len(rows) // 2])
    before = part.read_text()
    assert main(["play", "--resume", str(part), "--quiet", "--sign-key", str(keys["mine"])]) == 2
    assert "not signed from its start" in capsys.readouterr().err and part.read_text() == before
    new = tmp_path / "new.jsonl"
    assert main(["play", "--resume", str(part), "--quiet", "--transcript", str(new), "--sign-key", str(keys["mine"])]) == 0
    assert run_cli(["verify", str(new), "--key", str(keys["mine.pub"])])[0] == 0


def test_a_signing_key_needs_a_transcript(keys, model_game):
    code, err = run_cli(["play", "--quiet", "--sign-key", str(keys["mine"])])
    assert code == 2 and "--transcript" in err
    code, err = run_cli(["fork", str(model_game), "--day", "1", "--quiet", "--sign-key", str(keys["mine"])])
    assert code == 2 and "--transcript" in err


def test_the_environment_must_hold_the_key_not_its_path(tmp_path, keys, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(keys["mine"]))
    code, err = run_cli(["play", "--quiet", "--transcript", str(tmp_path / "t.jsonl")])
    assert code == 2 and "names a file" in err


def test_an_interrupted_signed_game_keeps_its_checkpoint_when_resumed(tmp_path, keys):
    """A game stopped with Ctrl-C is signed as it stopped; resumed, that signature stays
    where it was and the new end is signed again."""
    from transcript_tools import play_to_file, varied_spec
    from transcripts.writer import TranscriptWriter

    src = tmp_path / "src.jsonl"
    play_to_file(varied_spec(2, "heuristic"), src)
    rows = lines(src)
    k = [i for i, r in enumerate(rows) if r["type"] == "answer"][20]
    signer = load_signer(str(keys["mine"]))
    t = read_transcript(write_lines(tmp_path / "tmp.jsonl", rows[: k + 1]))
    part = tmp_path / "part.jsonl"
    with TranscriptWriter(part, t.header, signer=signer) as w:
        for r in t.records:
            w._write(r)
        w.error(None, "interrupted")
    assert verify_file(part).status is Verdict.INCOMPLETE and verify_file(part).guarantees["signed"]["holds"]
    assert main(["play", "--resume", str(part), "--quiet", "--sign-key", str(keys["mine"])]) == 0
    assert [r["type"] for r in lines(part)].count("signature") == 2
    assert run_cli(["verify", str(part), "--key", str(keys["mine.pub"])])[0] == 0


def test_fork_of_a_model_game_keeps_the_calls_and_signs(tmp_path, model_game, keys):
    out = tmp_path / "fork.jsonl"
    argv = ["fork", str(model_game), "--day", "2", "--seat", "Alice=heuristic", "--transcript", str(out), "--quiet"]
    with standin_router() as router:
        OpenAIStandIn(router, seed=4)
        assert main([*argv, "--sign-key", str(keys["other"])]) == 0
    t = read_transcript(out)
    assert any(c.seat == "Alice" for c in t.calls)  # the replayed part's calls, credited to the model
    code, text = run_cli(["verify", str(out), "--key", str(keys["other.pub"])])
    assert code == 0 and "every model answer backed by its call" in text


def test_a_tournament_signs_every_game(tmp_path, keys):
    from arena.tournament.run import transcripts_dir

    cfg = tmp_path / "t.yaml"
    cfg.write_text(yaml.safe_dump({
        "name": "signed", "seed": 1, "games": 2, "tables": [{"players": 7}], "sign_key": os.path.relpath(keys["mine"], tmp_path),
        "participants": [{"name": "H", "agent": "heuristic"}, {"name": "R", "agent": "random"}],
    }))  # fmt: skip
    db = tmp_path / "t.sqlite"
    assert main(["tournament", str(cfg), "--db", str(db), "--quiet"]) == 0
    games = sorted(transcripts_dir(db).glob("*.jsonl"))
    assert len(games) == 2
    for g in games:
        assert run_cli(["verify", str(g), "--key", str(keys["mine.pub"])])[0] == 0
    cfg2 = tmp_path / "t2.yaml"
    cfg2.write_text(cfg.read_text().replace("name: signed", "name: flag").replace(f"sign_key: {os.path.relpath(keys['mine'], tmp_path)}", ""))
    db2 = tmp_path / "t2.sqlite"
    assert main(["tournament", str(cfg2), "--db", str(db2), "--quiet", "--sign-key", str(keys["other"])]) == 0
    for g in sorted(transcripts_dir(db2).glob("*.jsonl")):
        assert run_cli(["verify", str(g), "--key", str(keys["other.pub"])])[0] == 0
    code, err = run_cli(["tournament", str(cfg2), "--db", str(tmp_path / "t3.sqlite"), "--quiet", "--sign-key", str(tmp_path / "none")])
    assert code == 2 and "cannot read the signing key" in err


def test_every_record_type_is_chained(model_game):
    """Header, events, answers, calls, beliefs, the result and the signature: one chain."""
    rows = lines(model_game)
    assert {r["type"] for r in rows} >= {"header", "event", "answer", "call", "belief", "result", "signature"}
    assert all(r.get("digest") for r in rows)


def test_the_writer_chains_time_limits_errors_and_appended_lines(tmp_path, keys):
    """The record types a model game lacks, and a file appended to: one chain, one head."""
    from arena.gamefile import header_for, spec_from_data
    from transcripts.chain import first_break, head
    from transcripts.writer import TranscriptWriter

    spec = spec_from_data({"seats": [{"name": n, "agent": "human" if n == "Alice" else "heuristic"} for n in NAMES]})
    game, _ = spec.build()
    path = tmp_path / "t.jsonl"
    signer = load_signer(str(keys["mine"]))
    with TranscriptWriter(path, header_for(spec, game), signer=signer) as w:
        w.sync_events(game)
        w.time_limit("Alice", 5.0)
    t = read_transcript(path)
    with TranscriptWriter.appending(path, events_written=len(t.events), last_digest=t.records[-1].digest, signer=signer) as w:
        w.error(game, "interrupted")
    t = read_transcript(path)
    assert [r.type for r in t.records][-4:] == ["time_limit", "signature", "error", "signature"]
    assert first_break(t.header, t.records) is None and all(r.digest for r in t.records)
    assert t.records[-1].head == head([t.header, *t.records[:-1]]) and t.records[-1].lines == len(t.records)
    v = verify_file(path, trusted_key=load_public_key(str(keys["mine.pub"])))
    assert v.status is Verdict.INCOMPLETE and v.guarantees["signed"]["holds"] and v.guarantees["chain"]["holds"]
