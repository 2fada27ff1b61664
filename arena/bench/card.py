"""The result card: what a bench measured, in one JSON file and one HTML page.

The card names its protocol (name, version, digest), the model and its options, the
rating with its anytime-valid interval, the same per side (as the pack: deceiver; as
the village: detector), rule-following, cost, the games and the software, and lists
every transcript with its SHA-256. The transcripts are signed with the user's key
(its public half is in the card), so ``verify_card`` can re-check everything the
number rests on from the files alone: each transcript's signature and re-play, its
outcome for the model's seats (from the protocol's plan, not from the card), the
rating recomputed from those outcomes, and that the games are the plan's first ones
in order, stopped where the protocol's rule says (no chosen subset of games).
"""

from __future__ import annotations

import hashlib
import html
import json
import platform
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.bench.confseq import rating_interval
from arena.bench.plan import bench_config, bench_plans, opponent_of
from arena.bench.protocol import MODEL, Protocol, ProtocolError, load_protocol, shipped
from arena.bench.run import DB_NAME, BenchState
from arena.tournament.schedule import side_of
from arena.tournament.store import Store
from importlib.metadata import PackageNotFoundError, version
from transcripts.signing import SigningKeyError, decode_public
from transcripts.verify import verify_file

CARD_VERSION = 1
SIDE_NAMES = {"werewolves": "deceiver", "village": "detector"}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def software() -> dict[str, str]:

    try:
        arena = version("werewolf-arena")
    except PackageNotFoundError:
        arena = "unknown"
    return {"werewolf_arena": arena, "python": sys.version.split()[0], "platform": platform.platform(terse=True)}


def build_card(
    protocol: Protocol, spec: str, options: dict[str, Any] | None, state: BenchState, out: Path, *,
    signer: str | None, estimate: dict[str, Any] | None,
) -> dict[str, Any]:  # fmt: skip
    store = Store.open_existing(out / DB_NAME)
    try:
        games = {g["id"]: g for g in store.games()}
        seats = [s for s in store.seats() if s["participant"] == MODEL and s["game_id"] in {o.game_id for o in state.outcomes}]
    finally:
        store.close()
    chosen = [games[o.game_id] for o in state.outcomes]
    metrics = [json.loads(s["metrics"] or "{}") for s in seats]
    tin = sum(g["input_tokens"] for g in chosen)
    cached = sum(g["cached_tokens"] or 0 for g in chosen)
    cost = sum(g["cost_usd"] or 0.0 for g in chosen)
    sides = {SIDE_NAMES[s]: state.interval(protocol, s).to_json() for s in SIDE_NAMES}
    return {
        "card_version": CARD_VERSION,
        "protocol": {
            "name": protocol.name,
            "version": protocol.version,
            "digest": protocol.digest,
            "comparable": protocol.comparable,
            "definition": protocol.model_dump(mode="json"),
        },
        "model": {"spec": spec, "options": options or {}},
        "rating": state.interval(protocol).to_json(),
        "scale": "Elo above the reference player against the protocol's field (95% confidence sequence)",
        "target": protocol.target,
        "stopped": state.stopped,
        "sides": sides,
        "rule_following": {
            "decisions": sum(int(m.get("decisions_asked") or 0) for m in metrics),
            "violations": sum(s["violations"] or 0 for s in seats),
            "fallbacks": sum(s["fallbacks"] or 0 for s in seats),
        },
        "cost": {
            "calls": sum(g["calls"] for g in chosen),
            "input_tokens": tin,
            "output_tokens": sum(g["output_tokens"] for g in chosen),
            "cached_tokens": cached,
            "cached_share": round(cached / tin, 4) if tin else 0.0,
            "usd": round(cost, 6),
            "unpriced_games": sum(1 for g in chosen if g["cost_usd"] is None),
        },  # fmt: skip
        "estimate": estimate,
        "games": len(state.outcomes),
        "software": software(),
        "signer": signer,
        "transcripts": [
            {
                "id": o.game_id,
                "path": str(Path(games[o.game_id]["transcript"]).as_posix()),
                "sha256": sha256(out / games[o.game_id]["transcript"]),
                "table": o.table,
                "opponent": o.opponent,
                "side": o.side,
                "won": o.won,
                "par": o.par,
            }
            for o in state.outcomes
        ],  # fmt: skip
    }


def write_card(card: dict[str, Any], out: Path) -> Path:
    path = out / "card.json"
    path.write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "card.html").write_text(card_html(card), encoding="utf-8")
    return path


def _iv(r: dict[str, float]) -> str:
    return f"{r['value']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]"


def card_html(card: dict[str, Any]) -> str:
    e = html.escape
    p, c, rf = card["protocol"], card["cost"], card["rule_following"]
    rows = "".join(
        f"<tr><td>{e(t['id'])}</td><td>{t['table']}</td><td>{e(t['opponent'])}</td><td>{e(t['side'])}</td>"
        f'<td>{"won" if t["won"] else "lost"}</td><td>{t["par"]:+.0f}</td><td><a href="{e(t["path"])}">transcript</a></td></tr>'
        for t in card["transcripts"]
    )
    note = "" if p["comparable"] else "<p><strong>This protocol is for tests: its numbers are not for boards.</strong></p>"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bench card: {e(card["model"]["spec"])}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}}td,th{{padding:.2rem .6rem;text-align:left}}
.big{{font-size:2.2rem;font-weight:700}}</style></head><body>
<h1>{e(card["model"]["spec"])}</h1>
<p>Protocol <code>{e(p["name"])}</code> version {p["version"]} (digest <code>{e(p["digest"])}</code>)</p>{note}
<p class="big">{_iv(card["rating"])}</p>
<p>{e(card["scale"])}. {card["games"]} games; stopped: {e(card["stopped"])} (target ±{card["target"]:.0f}).</p>
<table><tr><th>as the pack (deceiver)</th><td>{_iv(card["sides"]["deceiver"])}</td></tr>
<tr><th>as the village (detector)</th><td>{_iv(card["sides"]["detector"])}</td></tr>
<tr><th>rule-following</th><td>{rf["decisions"]} decisions, {rf["violations"]} violations, {rf["fallbacks"]} fallbacks</td></tr>
<tr><th>cost</th><td>{c["calls"]} calls, {c["input_tokens"]} input tokens ({c["cached_share"]:.0%} cached), {c["output_tokens"]} output, ${c["usd"]:.4f}</td></tr>
<tr><th>options</th><td><code>{e(json.dumps(card["model"]["options"]))}</code></td></tr>
<tr><th>software</th><td>{e(", ".join(f"{k} {v}" for k, v in card["software"].items()))}</td></tr>
<tr><th>signer</th><td><code>{e(str(card["signer"]))}</code></td></tr></table>
<h2>Games</h2><table><tr><th>game</th><th>table</th><th>opponent</th><th>model's side</th><th>result</th><th>par</th><th></th></tr>{rows}</table>
</body></html>
"""


@dataclass
class CardCheck:
    problems: list[str] = field(default_factory=list)
    games: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def load_card(path: Path) -> dict[str, Any]:
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ValueError(f"not a readable card ({e.strerror if isinstance(e, OSError) else e})") from None
    if not isinstance(card, dict) or card.get("card_version") != CARD_VERSION:
        raise ValueError(f"not a bench card of version {CARD_VERSION}")
    return card


def verify_card(path: Path) -> CardCheck:
    """Every check of the module docstring; the problems found, in words (none: the card holds)."""

    check = CardCheck()
    try:
        card = load_card(path)
        name = card["protocol"]["name"]
        # a shipped protocol is read from this software, never from the card; another
        # one from the card's own copy, whose digest must then match
        protocol = load_protocol(name) if name in shipped() else Protocol.model_validate(card["protocol"]["definition"])
    except (ValueError, ProtocolError, KeyError) as e:
        check.problems.append(str(e))
        return check
    if protocol.digest != card["protocol"]["digest"] or protocol.version != card["protocol"]["version"]:
        check.problems.append(f"the card was made with protocol {card['protocol']}, this software ships {protocol.label} ({protocol.digest})")
        return check
    try:
        key = decode_public(card["signer"]) if card.get("signer") else None
    except SigningKeyError as e:
        key = None
        check.problems.append(f"signer: {e}")
    if key is None:
        check.problems.append("the card names no signing key: its transcripts cannot be attributed")
    cfg = bench_config(protocol, card["model"]["spec"], card["model"]["options"] or None, sign_key=None, prices=None)
    listed = card["transcripts"]
    deals = (len(listed) + 1) // 2
    plans = bench_plans(cfg, protocol, deals)
    if [t["id"] for t in listed] != [g.id for g in plans[: len(listed)]]:
        check.problems.append("the games are not the protocol's first games in order")
        return check
    wins: list[float] = []
    pars: list[float] = []
    for t, plan in zip(listed, plans):
        f = path.parent / t["path"]
        if not f.exists():
            check.problems.append(f"{t['id']}: transcript {f} is missing")
            continue
        if sha256(f) != t["sha256"]:
            check.problems.append(f"{t['id']}: transcript {f} differs from the card's SHA-256")
        v = verify_file(f, trusted_key=key)
        if not v.ok or v.game is None:
            check.problems.append(f"{t['id']}: {v.summary()}")
            continue
        if key is not None and v.signer is None:
            check.problems.append(f"{t['id']}: transcript is not signed")
        mine = [s for s in plan.seats if s.participant == MODEL]
        won = 1.0 if set(v.game.winners) & {s.name for s in mine} else 0.0
        side = side_of(mine[0].role)
        par = protocol.par(plan.table, opponent_of(plan), side)
        if (won, side, par) != (t["won"], t["side"], t["par"]):
            check.problems.append(f"{t['id']}: the card says {t['side']} {t['won']} par {t['par']}, the transcript {side} {won} par {par}")
        wins.append(won)
        pars.append(par)
        check.games += 1
    if check.problems:
        return check
    per_batch = 2 * protocol.batch
    for end in range(per_batch, len(wins), per_batch):  # an earlier look that should have stopped the run
        if rating_interval(wins[:end], pars[:end], protocol.alpha).half_width < protocol.target:
            check.problems.append(f"the protocol's rule stops after {end} games; the card goes on to {len(wins)}")
            break
    mine_iv = rating_interval(wins, pars, protocol.alpha).to_json()
    if mine_iv != card["rating"]:
        check.problems.append(f"the rating recomputed from the transcripts is {mine_iv}, the card says {card['rating']}")
    if card["games"] != len(wins):
        check.problems.append(f"the card counts {card['games']} games, it lists {len(wins)}")
    return check
