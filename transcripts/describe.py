"""One plain sentence per recorded event, for readers that are not a terminal.

The terminal narrator (``arena.narrate``) tells a game as a story and leans on what
it told before (a pack is announced once, echoes are skipped). A page that filters
events per seat cannot: each event must read on its own, because a seat's view may
hold only one copy of it. So this module describes each event alone, in plain text
(callers escape it), reusing the narrator's words for causes, roles and winners; and
the words both readers use for a seat's answers and a model's calls.

The base game's events have their own plain English sentences here. Every other kind
(the forum's, the Village's buildings, the Arsonist, the Best of roles...) reads as the
seats read it in their history (``prompts.history.event_body``): one text per event
kind, in either prompt language, told to the seat that received it when the event is
one seat's secret. A Chinese game reads wholly in Chinese that way.
"""

from __future__ import annotations

from typing import Any, Callable

from arena.narrate import CAUSES, WINNER_TITLES, deck_words, role_name
from engine.events import Event, audience_from_json
from prompts.catalog import catalog
from prompts.history import event_body


def _names(items: Any) -> str:
    items = [str(i) for i in (items or [])]
    return ", ".join(items) if items else "nobody"


def _votes(votes: dict[str, Any]) -> str:
    return "; ".join(f"{v} → {t if t is not None else '(abstains)'}" for v, t in votes.items())


def _tally(tally: dict[str, int]) -> str:
    ranked = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{t} {c}" for t, c in ranked) or "no votes"


def _game_start(d: dict) -> str:
    aside = d.get("set_aside") or 0
    deck = deck_words(d.get("roles_in_play", []))
    return f"A game of Werewolf ({d.get('preset', '')}): {len(d.get('players', []))} players: {_names(d.get('players'))}. " + (
        f"The deck: {deck}" + (f" ({aside} set aside for the Thief)." if aside else ".")
    )


def _death(d: dict) -> str:
    cause = d.get("cause", "")
    how = CAUSES.get(cause, f"dead ({cause})")
    role = f", and was the {role_name(d['role'])}" if d.get("role") else ""
    return f"✝ {d.get('player')} is {how}{role}."


def _speech(d: dict) -> str:
    text = str(d.get("text", "")).strip()
    return f"{d.get('speaker')}: {text}" if text else f"{d.get('speaker')} says nothing."


def _tie_broken(d: dict) -> str:
    if d.get("rule") == "lot":
        return f"The tie is broken by drawing lots: {d.get('target')}."
    if d.get("target") is None:
        return f"Sheriff {d.get('by')} voids the tied vote."
    return f"Sheriff {d.get('by')} breaks the tie: {d.get('target')}."


def _vote_result(d: dict) -> str:
    rnd = d.get("round", 1)
    title = "The vote" if rnd == 1 else f"The vote, round {rnd}"
    phantoms = d.get("phantoms") or {}
    added = ", ".join(f"{n} +{k}" for n, k in sorted(phantoms.items(), key=lambda kv: (-kv[1], str(kv[0]))))
    extra = f" The tally includes phantom votes: {added}." if added else ""
    return f"{title}: {_votes(d.get('votes', {}))}. Tally: {_tally(d.get('tally', {}))}.{extra}"


def _hunter_shot(d: dict) -> str:
    if d.get("target") is None:
        return f"Hunter {d.get('hunter')} holds fire."
    return f"Bang! Hunter {d.get('hunter')} shoots {d.get('target')}."


def _game_end(d: dict) -> str:
    winner = d.get("winner", "none")
    title = WINNER_TITLES.get(winner, f"{str(winner).replace('_', ' ').capitalize()} wins")
    reason = f" — {d['reason']}" if d.get("reason") else ""
    roles = d.get("roles", {})
    cards = "; ".join(f"{n}: {role_name(r)}" for n, r in roles.items())
    return f"{title}{reason}. Winners: {_names(d.get('winners'))}. The cards: {cards}."


def _thief_swap(d: dict) -> str:
    took = d.get("took")
    return f"Thief {d.get('player')} " + (f"takes the {role_name(took)} card." if took else "keeps the Thief card.")


def _wolf_chat(d: dict) -> str:
    text = str(d.get("text", "")).strip()
    return f"🐺 {d.get('speaker')} (to the pack): {text}" if text else f"🐺 {d.get('speaker')} says nothing to the pack."


def _wolf_victim(d: dict) -> str:
    t = d.get("target")
    return f"The werewolves choose {t}." if t else "The werewolves kill nobody tonight."


SENTENCES: dict[str, Callable[[dict], str]] = {
    "game_start": _game_start,
    "role": lambda d: f"{d.get('player')} is the {role_name(d.get('role'))}.",
    "center": lambda d: "Set aside for the Thief: " + ", ".join(role_name(c) for c in d.get("cards", [])) + ".",
    "night_start": lambda d: f"Night {d.get('night')} falls; the village sleeps.",
    "dawn": lambda d: f"Day {d.get('day')} dawns; the village wakes up.",
    "no_death": lambda d: "Nobody died during the night.",
    "death": _death,
    "day_start": lambda d: f"{len(d.get('alive', []))} alive: {_names(d.get('alive'))}."
    + (f" Sheriff: {d['sheriff']}." if d.get("sheriff") else ""),
    "speech": _speech,
    "sheriff_votes": lambda d: f"Sheriff election, round {d.get('round', 1)}: {_votes(d.get('votes', {}))}. "
    f"Tally: {_tally(d.get('tally', {}))}.",
    "sheriff_elected": lambda d: f"★ {d.get('player')} is elected Sheriff" + (" by drawing lots." if d.get("by_lot") else "."),
    "sheriff_successor": lambda d: f"★ With a dying breath, {d.get('previous')} names {d.get('player')} Sheriff.",
    "vote_result": _vote_result,
    "tie_broken": _tie_broken,
    "no_elimination": lambda d: "Nobody is eliminated today ("
    + {"tie": "the vote is tied", "no votes": "nobody voted"}.get(d.get("reason"), str(d.get("reason", "")))
    + ").",
    "eliminated": lambda d: f"The village has chosen: {d.get('player')}.",
    "hunter_shot": _hunter_shot,
    "game_end": _game_end,
    "thief_cards": lambda d: "The Thief looks at the set-aside cards: " + ", ".join(role_name(c) for c in d.get("cards", [])) + ".",
    "thief_swap": _thief_swap,
    "cupid_lovers": lambda d: "Cupid makes " + " and ".join(str(x) for x in (d.get("lovers") or [])) + " fall in love.",
    "lovers": lambda d: f"{d.get('lover')} falls in love with {d.get('beloved')}.",
    "wolf_pack": lambda d: f"The werewolves wake up: {_names(d.get('wolves'))}.",
    "wolf_chat": _wolf_chat,
    "wolf_chat_overheard": lambda d: f"Overheard from the pack: {str(d.get('text', '')).strip() or '(silence)'}",
    "wolf_votes": lambda d: "The pack points: " + "; ".join(f"{w} → {t or '(nobody)'}" for w, t in d.get("votes", {}).items()) + ".",
    "wolf_votes_overheard": lambda d: f"Overheard: the pack points at {_names(d.get('targets'))}.",
    "wolf_victim": _wolf_victim,
    "wolf_victim_overheard": lambda d: f"Overheard: the werewolves choose {d['target']}."
    if d.get("target")
    else "Overheard: the werewolves kill nobody tonight.",
    "little_girl_caught": lambda d: f"Little Girl {d.get('player')} is caught spying!",
    "seer_result": lambda d: f"Seer {d.get('seer')} sees that {d.get('target')} is the {role_name(d.get('role'))}.",
    "witch_victim": lambda d: f"The Witch is shown the werewolves' victim: {d.get('victim') or 'nobody'}.",
    "witch_healed": lambda d: f"The Witch saves {d.get('target')}.",
    "witch_poisoned": lambda d: f"The Witch poisons {d.get('target')}.",
}


def describe(
    kind: str,
    data: dict[str, Any],
    *,
    day: int = 0,
    phase: str = "",
    reader: str | None = None,
    language: str = "en",
) -> str:
    """The event as one sentence.

    ``reader``: the seat it is told to ("you"), for a per-seat view; None for the
    narrator's plain account. The base game's kinds have their English sentence here;
    any other kind, a reader's view and any other language read as in the seats'
    history (``prompts.history``), which knows every kind the engine emits and falls
    back to its generic "kind — key: value" form only for a kind added later."""
    sentence = SENTENCES.get(kind) if reader is None and language == "en" else None
    if sentence is not None:
        try:
            return sentence(data)
        except Exception:  # a hand-made record with odd data must still be shown, not crash the page
            pass
    try:
        cat = catalog(language)
    except Exception:  # an unknown language in a hand-made header: read it in English
        cat = catalog("en")
    return event_body(cat, Event.recorded(0, kind, day, phase, "public", data or {}), reader or "", display=True)


def describe_event(record: Any, *, seat: str | None = None, language: str = "en") -> str:
    """A recorded event (``EventRecord`` or engine ``Event``) as one sentence: told to
    ``seat`` when given; a secret sent to one seat alone, without a plain sentence of
    its own here, is told to that seat ("You set fire to..."), the way the web's full
    view tells it; anything else plainly."""
    audience = record.audience
    if not isinstance(audience, (str, frozenset)):
        audience = audience_from_json(audience)
    reader = seat
    plain = language == "en" and record.kind in SENTENCES
    if reader is None and not plain and isinstance(audience, frozenset) and len(audience) == 1:
        reader = next(iter(audience))
    return describe(record.kind, record.data, day=record.day, phase=record.phase, reader=reader, language=language)


# ---------------------------------------------------------------------- answers, calls, the end
STOPPED = "The game stopped here: {message}"
UNFINISHED = "The transcript ends here: the game did not reach its end."


def answer_text(value: Any) -> str:
    """A recorded answer (or one of the options offered) as words."""
    if value is None:
        return "(pass)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " and ".join(str(v) for v in value)
    if isinstance(value, dict):
        return str(value.get("text", value))
    return str(value)


def offered_text(answer: Any) -> str:
    """What an answer record's seat was offered: the options, and passing where legal."""
    return ", ".join(answer_text(o) for o in answer.options) + (" or pass" if answer.allow_pass else "")


def caller(call: Any) -> str:
    """Who made a model call: the seat and its model (or back end)."""
    return f"{call.seat} ({getattr(call, 'model', '') or getattr(call, 'backend', '')})"
