"""``werewolf metrics TRANSCRIPT|DIR [--json]``: measure games from their transcripts."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence


from arena.command import CliError, Command, console_for
from arena.report_table import report_table
from arena.gc_tuning import many_games
from arena.metrics.bias import GameBias, bias_report
from arena.progress import Bar, wanted
from arena.metrics.game import Aggregate, aggregate, game_metrics, measures
from arena.metrics.load import MetricsError, load_transcript
from arena.metrics.self_incrimination import WolfSeat, self_incrimination, wolf_seats
from arena.persuasion.paths import sidecar_for
from arena.persuasion.report import recorded_outcomes, summary
from arena.persuasion.tables import print_summary


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="TRANSCRIPT|DIR", help="one transcript, or a folder of them (searched recursively for *.jsonl)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def transcripts(path: Path) -> list[Path]:
    """The files ``collect`` reads: ``path``, or the ``*.jsonl`` under the folder ``path``."""
    return sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]


def collect(path: Path, skipped: list[str], done: Callable[[], None] | None = None, files: list[Path] | None = None) -> Iterator[Any]:
    """Finished games under ``path``, read one at a time (a folder of thousands of
    transcripts is measured in the memory of one); unfinished or unreadable files are
    appended to ``skipped``. ``done()`` is told of every file read (a progress bar)."""
    for f in transcripts(path) if files is None else files:
        g = _finished(f, skipped)
        if done is not None:
            done()
        if g is not None:
            yield g


def _finished(f: Path, skipped: list[str]) -> Any:
    """The measured game of transcript ``f``, or None (and why, in ``skipped``)."""
    try:
        g = load_transcript(f)
    except MetricsError as e:
        skipped.append(f"{f}: {e}")
        return None
    if not g.complete:
        skipped.append(f"{f}: the game has no end (no game_end record)")
        return None
    problem = malformed(g)
    if problem:
        skipped.append(f"{f}: {problem}")
        return None
    return g


# What a record of the wrong shape raises inside a measure (a role that is null, a day
# that is text): the tolerant reader leaves the judging of each record to the measures.
SHAPE_ERRORS = (TypeError, KeyError, ValueError, AttributeError, IndexError)


def malformed(g) -> str | None:
    """Why the measures cannot read ``g`` (a record of the wrong shape), or None; the
    game's own measures are kept on it (``g.measured``, ``g.parts``) so they are computed once."""
    try:
        g.parts = measures(g)  # aggregate() reuses them rather than measure again
        g.measured = game_metrics(g, g.parts)
        g.contribution = Aggregate.contribution(g, g.parts)  # what the sums will read of it
    except SHAPE_ERRORS as e:
        return f"a record is malformed, so the game cannot be measured ({type(e).__name__}: {' '.join(str(e).split())[:120]})"
    return None


def run(args: argparse.Namespace) -> int:
    # Thousands of records built and freed by their counts: the collector's passes
    # would find nothing and cost a tenth of the command (``arena.gc_tuning``).
    with many_games():
        return measure(args)


def measure(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if not path.exists():
        raise CliError(f"no such file or folder: {path}")
    skipped: list[str] = []
    heard: list[Any] = []  # the measured speeches of games with a persuasion record (``werewolf persuasion``)
    if not path.is_dir():  # a file, or what a file's name may point at (a device, a pipe): one transcript
        games = list(with_persuasion(collect(path, skipped), path, heard))
        if not games:
            raise CliError(skipped[0] if skipped else f"{path}: nothing to measure")
        m = games[0].measured
        if heard:
            m = {**m, "persuasion": persuasion_summary(heard)}
        if args.json:
            print(json.dumps(m, ensure_ascii=False))
        else:
            print_game(m)
            print_persuasion(m.get("persuasion"), seats=True)
        return 0
    # Each game is serialised as it is measured (a short string instead of its nested
    # dicts kept until the end): the output is the same bytes as one json.dumps of the
    # whole object, whose list items are joined by ", ".
    per_game: list[str] = []

    def keep(g: Any, parts: dict[str, Any]) -> None:
        m = g.measured
        game = {k: m[k] for k in ("transcript", "seed", "winner", "days", "votes", "powers", "key_roles", "cost")} | {"seats": m["seats"]}
        per_game.append(json.dumps(game, ensure_ascii=False))

    seen: list[GameBias] = []  # each game's speaking-position and name sums (``arena.metrics.bias``)
    wolves: list[list[WolfSeat]] = []  # each game's wolf seats and what their claims gave away
    files = transcripts(path)
    with Bar("transcripts", len(files), enabled=wanted(json=args.json)) as bar:
        read = collect(path, skipped, bar.advance if bar.enabled else None, files)
        agg = aggregate(with_bias(with_persuasion(read, path, heard), seen, wolves), keep if args.json else None)
    if not agg["games"]:
        raise CliError(f"{path}: no finished transcript found" + (f" ({len(skipped)} skipped)" if skipped else ""))
    if heard:
        agg["persuasion"] = persuasion_summary(heard)
    agg["bias"] = bias_report(seen)
    agg["self_incrimination"] = self_incrimination(wolves)
    if args.json:
        head = json.dumps({"aggregate": agg}, ensure_ascii=False)[:-1]
        print(f'{head}, "games": [{", ".join(per_game)}], "skipped": {json.dumps(skipped, ensure_ascii=False)}}}')
    else:
        print_aggregate(agg, skipped)
        print_persuasion(agg.get("persuasion"), seats=False)
        print_bias(agg.get("bias"))
        print_self_incrimination(agg.get("self_incrimination"))
    return 0


def with_bias(games: Iterable[Any], seen: list[GameBias], wolves: list[list[WolfSeat]]) -> Iterator[Any]:
    """``games``, each game's bias sums appended to ``seen`` and its wolf seats'
    self-incrimination to ``wolves`` (a few numbers per game: the games themselves are
    not kept)."""
    for g in games:
        seen.append(GameBias.of(g))
        wolves.append(wolf_seats(g))
        yield g


def print_self_incrimination(s: dict[str, Any] | None) -> None:
    if not s:
        return
    console_for(False).print(report_table(
        "Self-incrimination: werewolf seats whose own claims revealed (95% Wilson intervals)",
        ("who", "wolf seats", "their card", "a packmate", "either"),
        ((r["agent"], f"{r['wolf_seats']:,}", *(_wilson(r[k]) for k in ("card", "pack", "either"))) for r in s["by_agent"]),
    ))  # fmt: skip


def print_bias(b: dict[str, Any] | None) -> None:
    """The bias tables: by speaking position, then by seat name."""
    if not b:
        return
    console = console_for(False)
    console.print(report_table(
        f"Votes by speaking position over {b['seat_days']:,} seat-days (95% bootstrap over {b['games']:,} games; "
        "excess: minus the same day's average speaker, 0 without a bias)",
        ("position", "seat-days", "vote share", "share excess", "out excess"),
        ((r["position"], f"{r['seat_days']:,}", _share(r["vote_share"]), _excess(r["vote_share_excess"]), _excess(r["voted_out_excess"]))
         for r in b["by_position"]),
    ))  # fmt: skip
    sl = b["slope"]
    console.print(f"From the first speaker to the last: vote share {_excess(sl['vote_share'])} points, "
                  f"voted out {_excess(sl['voted_out'])} points (least squares over positions)")  # fmt: skip
    console.print(report_table(
        "Votes and survival by seat name (95% bootstrap over games; excess: minus the same day's, or game's, other seats)",
        ("name", "seats", "share excess", "out excess", "survival excess"),
        ((r["name"], f"{r['seats']:,}", _excess(r["vote_share_excess"]), _excess(r["voted_out_excess"]), _excess(r["survived_excess"]))
         for r in b["by_name"]),
    ))  # fmt: skip
    ne = b["name_effect"]
    console.print(f"Do names matter at all ({ne['test']}, {ne['permutations']:,} shuffles): p = "
                  f"{ne['vote_share_excess']['p_value']:.3f} for vote share, {ne['voted_out_excess']['p_value']:.3f} for voted out, "
                  f"{ne['survived_excess']['p_value']:.3f} for survival (per-name intervals are not corrected for the many names)")  # fmt: skip


def _wilson(r: dict[str, Any]) -> str:
    """A Wilson rate, narrow (the count is in the table's seats column)."""
    return "—" if r.get("rate") is None else f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f},{100 * r['high']:.1f}]"


def _share(e: dict[str, Any]) -> str:
    return "—" if e.get("value") is None else f"{100 * e['value']:.1f}%"


def _excess(e: dict[str, Any]) -> str:
    """Percentage points with the interval: ``+3.2 [+1.0,+5.1]`` (narrow: three fit 80 columns)."""
    if e.get("value") is None:
        return "—"
    if e.get("low") is None:
        return f"{100 * e['value']:+.1f}"
    return f"{100 * e['value']:+.1f} [{100 * e['low']:+.1f},{100 * e['high']:+.1f}]"


def with_persuasion(games: Iterable[Any], root: Path, heard: list[Any]) -> Iterator[Any]:
    """``games``, each game's measured speeches (its persuasion record, when it has one:
    ``werewolf persuasion``; nothing is asked here) appended to ``heard``."""
    for g in games:
        if g.path is not None and sidecar_for(g.path).exists():
            label = Path(g.path).relative_to(root).as_posix() if root.is_dir() else Path(g.path).name
            heard.extend(recorded_outcomes(g.path, label))
        yield g


def persuasion_summary(heard: list[Any]) -> dict[str, Any]:
    return summary(heard, per_speech=False)


def print_persuasion(s: dict[str, Any] | None, *, seats: bool) -> None:
    """The persuasion tables (``seats``: one game's, per seat too)."""
    if s:
        console = console_for(False)
        console.print(f"[bold]Persuasion[/bold]: {s['speeches']} speeches measured (werewolf persuasion; the records beside the transcripts)")
        print_summary(console, s, seats=seats)


def _pct(r: dict[str, Any] | None) -> str:
    if not r or r.get("rate") is None:
        return "—"
    return f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}] n={r['n']}"


def _x(r: dict[str, Any] | None) -> str:
    if not r or r.get("value") is None:
        return "—"
    return f"{r['value']:.2f}× [{r['low']:.2f}, {r['high']:.2f}]"


def _f(v: Any, digits: int = 3) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


def print_aggregate(agg: dict[str, Any], skipped: list[str]) -> None:
    console = console_for(False)
    winners = ", ".join(f"{k} {v}" for k, v in agg["winners"].items())
    console.print(f"[bold]{agg['games']} games[/bold] · winners: {winners}" + (f" · {len(skipped)} skipped" if skipped else ""))
    groups = (("agent", "by_label"), ("agent and side", "by_label_side"), ("role dealt", "by_role"))
    for title, key in groups:
        console.print(report_table(
            f"Votes and survival by {title} (95% Wilson intervals)",
            ("who", "seats", "votes on wolves vs chance", "voted with majority", "survived"),
            ((who, str(b["seats"]), _x(b["ratio_to_chance"]), _pct(b["majority_agreement"]), _pct(b["survival"])) for who, b in agg[key].items()),
        ))  # fmt: skip
    for title, key in groups[:2]:
        console.print(report_table(
            f"Claims by {title} (95% Wilson intervals)",
            ("who", "lie rate", "false claims", "liar survived day", "innocent voted out"),
            ((who, _pct(b["lie_rate"]), _pct(b["false_claim_rate"]), _pct(b["lies_survived"]), _pct(b["innocents_voted_out_after_lie"]))
             for who, b in agg[key].items()),
        ))  # fmt: skip
    for title, key, first in (("agent", "powers_by_label", ("who",)), ("agent and side", "powers_by_label_side", ("who", "side")),
                              ("kind and side", "powers_by_kind", ("power", "side"))):  # fmt: skip
        if agg.get(key):
            console.print(_power_table(f"Targeted powers by {title} (95% Wilson intervals; side: the user's when used)", first, agg[key]))
    models = {who: b for who, b in agg["by_label"].items() if b.get("calls") or b.get("belief_ratings")}
    if models:
        reasoning = any(b.get("reasoning_tokens") for b in models.values())  # a column only where a model reasoned
        console.print(report_table(
            "Model seats: beliefs, rule-following, cost",
            ("who", "Brier", "AUC", "violations / decision", "fallbacks / decision", "calls", *(("reasoning tokens",) if reasoning else ()),
             "cost (USD)"),
            ((who, _f(b.get("brier")), _f(b.get("auc")), _pct(b["violation_rate"]), _pct(b["fallback_rate"]), f"{b['calls']:,}",
              *((f"{b.get('reasoning_tokens') or 0:,}",) if reasoning else ()), _usd(b.get("cost_usd"))) for who, b in models.items()),
        ))  # fmt: skip
    for s in skipped[:5]:
        console.print(f"[yellow]skipped[/yellow] {s}")


def _power_table(title: str, first: Sequence[str], groups: dict[str, Any]) -> Any:
    """One row per group; a key "a / b" fills the ``first`` columns (the label, the side);
    the first column is never cut (a power's id must stay readable)."""
    t = report_table(
        title,
        (*first, "uses", "good uses", "chance", "good vs chance", "target a wolf"),
        ((*key.rsplit(" / ", len(first) - 1), str(b["uses"]), _pct(b["good_rate"]), _pct1(b["chance_rate"]), _x(b["ratio_to_chance"]),
          _pct(b["wolf_target_rate"])) for key, b in groups.items()),
        left=len(first),
    )  # fmt: skip
    t.columns[0].no_wrap = True
    return t


def _target(use: dict[str, Any]) -> str:
    if use["kind"] == "castellan_pardon":  # a yes/no about the condemned
        return f"{use['target']}: {'spared' if use['answer'] else 'refused'}"
    return str(use["target"])


def _claim(c: dict[str, Any]) -> str:
    """A claim in a few words: ``role: seer``, ``check: werewolf``, ``accuses``."""
    return "accuses" if c["kind"] == "accusation" else f"{c['kind']}: {c['claim']}"


def _pct1(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:.1f}%"


def _usd(cost: float | None) -> str:
    return "unknown" if cost is None else f"{cost:.4f}"


def print_game(m: dict[str, Any]) -> None:
    console = console_for(False)
    console.print(f"[bold]{m['transcript']}[/bold] · {m['preset']} · seed {m['seed']} · {m['winner']} won after day {m['days']}")
    console.print(report_table(
        "Seats: votes and claims",
        ("seat", "agent", "role", "alive", "on wolves", "chance", "with majority", "lies", "lies survived"),
        ((name, s["label"], s["role"] or "?", "yes" if s["survived"] else "no",
          f"{s['wolf_votes']}/{s['ballots']}", f"{s['expected_wolf_votes']:.2f}", f"{s['majority_agree']}/{s['majority_n']}",
          f"{s['lies']}/{s['claims']}", str(s["lies_survived"])) for name, s in m["seats"].items()),
        left=3,
    ))  # fmt: skip
    console.print(
        "[dim]on wolves: day ballots cast on a werewolf / ballots cast; chance: how many of them random "
        "ballots among the same legal targets would have put on wolves; with majority: ballots for the "
        "player the vote eliminated; lies: lies / claims; lies survived: lies after which the liar was "
        "alive at the day's end.[/dim]"
    )
    models = {n: s for n, s in m["seats"].items() if s["belief_n"] or s["calls"] or s["decisions_asked"]}
    if models:
        reasoning = any(s.get("reasoning_tokens") for s in models.values())  # a column only where a model reasoned
        console.print(report_table(
            "Model seats: beliefs, rule-following, cost",
            ("seat", "Brier", "AUC", "decisions", "violations", "fallbacks", "calls", "tokens", *(("reasoning",) if reasoning else ()),
             "latency (s)", "cost (USD)"),
            ((name, _f(s["belief_brier_sum"] / s["belief_n"] if s["belief_n"] else None), _f(s["belief_auc"]), str(s["decisions_asked"]),
              str(s["violations"]), str(s["fallbacks"]), str(s["calls"]), f"{s['input_tokens'] + s['output_tokens']:,}",
              *((f"{s.get('reasoning_tokens') or 0:,}",) if reasoning else ()), f"{s['latency_s']:.1f}", _usd(s["cost_usd"]))
             for name, s in models.items()),
        ))  # fmt: skip
        if reasoning:
            console.print("[dim]reasoning: the hidden reasoning tokens within the output tokens, billed as output.[/dim]")
    uses = m["powers"]["uses"]
    if uses:
        columns: tuple[str, ...] = ("day", "seat", "power", "target", "wolf", "good", "chance")
        t = report_table(
            "Targeted powers (good: for the user's side when used, (wolf): a werewolf's use; chance: good targets among the options)",
            columns,
            ((str(u["day"]), u["seat"] + (" (wolf)" if u["side"] == "werewolves" else ""), u["kind"], _target(u),
              "yes" if u["target_wolf"] else "no", "yes" if u["good"] else "no", f"{100 * u['chance']:.0f}%") for u in uses),
            left=4,
        )  # fmt: skip
        for c in t.columns:
            c.no_wrap = True
        console.print(t)
    for seer in m["key_roles"]["seer"]:
        console.print(
            f"Seer {seer['seer']}: {seer['checks']} checks, first wolf seen night {seer['first_wolf_night'] or '—'}, "
            f"claimed Seer day {seer['claimed_seer_day'] or '—'}, revealed a wolf day {seer['revealed_wolf_day'] or '—'}, "
            + (f"died day {seer['died_day']} ({seer['death_cause']})" if seer["died_day"] else "survived")
        )
    fw = m["key_roles"]["first_wolf_voted_out_day"]
    console.print(f"First wolf voted out: day {fw}" if fw else "No wolf was voted out")
    for k in m["key_roles"]["key_roles"]:
        console.print(f"  {k['role']} {k['seat']}: " + ("survived" if k["survived"] else f"died day {k['died_day']} ({k['death_cause']})"))
    lies = [c for c in m["deception"]["claims"] if c["lie"]]
    if lies:
        columns = ("day", "seat", "role", "claim", "target", "liar survived day", "village votes on innocent", "innocent voted out")
        console.print(report_table(
            "Lies",
            columns,
            ((str(c["day"]), c["seat"], c["role"] or "?", _claim(c), c["target"] or "",
              "last words" if c.get("posthumous") else "yes" if c.get("liar_survived_day") else "no",
              str(c.get("village_votes_on_innocent", "")),
              {True: "yes", False: "no"}.get(c.get("innocent_voted_out"), "")) for c in lies),
            left=len(columns),
        ))  # fmt: skip


COMMANDS = [Command("metrics", "measure votes, powers, deception, beliefs, rule-following and cost from transcripts", _configure, run)]
