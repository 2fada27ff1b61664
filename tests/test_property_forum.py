"""The property test over message-board Werewolf (004): random games of the ``forum``
preset with every role and random options always end with a legal winner, the dead
act only as the rules allow (final words, ghost notes), votes name living players, a
revival is the only way back, one bullet and one revival each, and the humans win only
on a morning without a death with every wolf dead; the wolves only when no human is
left. The same seed replays the same game."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine import get_preset
from engine.presets import FORUM_AUX
from engine.impersonation import impersonating_line
from test_property import Case, play, play_and_check

GAMES = 600
CHUNK = 150
CAUSES = {"werewolves", "vote", "vigilante", "ninja", "deadline"}
DEAD_MAY_ACT = {"ghost_note", "ghost_note_delivery"}
NOT_TARGETS = {"speak", "wolf_chat", "ghost_note", "coroner_note", "ghost_note_delivery", "forum_seer_sense", "insomniac_stay_awake", "priest_revive"}


def make_forum_case(seed: int) -> Case:
    rng = random.Random(f"case:forum:{seed}")
    n = rng.randint(4, 20)
    deck = get_preset("forum").deck(n)
    for role in FORUM_AUX:  # random Auxiliary Roles in place of Civilians
        if role not in deck and "civilian" in deck and rng.random() < 0.4:
            deck.remove("civilian")
            deck.append(role)
    opts: dict[str, Any] = {
        "vote_changes": rng.choice([0, 1, 2]),
        "phantom_votes": rng.random() < 0.8,
        "ghost_notes": rng.random() < 0.6,
        "last_words": rng.choice(["vote", "none"]),
        "discussion_rounds": rng.choice([0, 1]),
        "tie": rng.choice(["random", "no_elimination", "revote"]),
        "mad_scientist_vials": rng.choice([1, 2]),
        "max_days": rng.choice([8, 40]),
        # 004 5-A (the preset's first PM is final) or the pack's plurality; 5-B's deadline
        "wolf_pack": rng.choice(["first_named", "first_named", "plurality"]),
        "wolves_silent": "one_dies" if rng.random() < 0.3 else "no_kill",
        # the Host's procedures "in some games"
        "wolves_told_seers": rng.choice(["never", "act", "who"]),
        "pack_leader_exact_from": rng.choice([0, 0, 10]),
        "guardian_angel_reveal": rng.random() < 0.4,
        "vigilante_gun_found": rng.random() < 0.5,
        # Article 7's reprimand (the preset's 3, another count, or off); the Celebrity's
        # extended Sundown "some hosts" give
        "impersonation_phantoms": rng.choice([3, 3, 1, 0]),
        "celebrity_sundown_rounds": rng.choice([0, 0, 1, 2]),
        "coroner_notes": rng.random() < 0.4,  # Subsection 5, Article 3: notes only the Coroner finds
    }
    names = [f"P{i:02d}" for i in range(n)]
    forgers = tuple(x for x in names if rng.random() < 0.15)
    return Case(seed, names, deck, opts, None, "forum", forgers)


def check_forum(case: Case, game, log) -> None:
    tag = f"seed {case.seed}"
    assert game.over and game.events[-1].kind == "game_end", tag
    assert game.winner in ("village", "werewolves", "none"), tag
    for a in log:
        if a.kind in ("ghost_note", "ghost_note_delivery") and a.alive:
            # Article 4: a night victim writes before dawn tells the night; he must die then
            assert any(d.name == a.seat for d in game.deaths), f"{tag}: {a.kind} by {a.seat}, who never died"
        elif a.kind in DEAD_MAY_ACT or (a.kind == "speak" and a.phase == "last_words"):
            assert not a.alive, f"{tag}: {a.kind} by living {a.seat}"
        else:
            assert a.alive, f"{tag}: dead {a.seat} asked {a.kind}"
        if a.kind not in NOT_TARGETS and isinstance(a.answer, str):
            assert a.answer in a.alive_names, f"{tag}: {a.kind} names {a.answer}, who is not alive"
        if a.kind == "priest_revive" and a.answer is not None:
            assert a.answer not in a.alive_names, f"{tag}: the Priest revived a living player"
    alive = {p.name for p in game.players}
    per = game.options.impersonation_phantoms
    unread: list[str] = []  # authors of speeches written as the game's, not yet read by the Host
    reprimanded: list[str] | None = None  # since the last Sundown, when the Host reads
    cancelled = {e.data["day"] for e in game.events if e.kind == "lynch_cancelled"}
    notes: dict[str, str] = {}  # the note each player keeps for the Coroner
    for e in game.events:
        if e.kind == "speech" and impersonating_line(e.data["text"]) is not None:
            unread.append(e.data["speaker"])
        elif e.kind == "sundown" and per:
            expected, unread, reprimanded = [s for s in unread if s in alive], [], []
        elif e.kind == "reprimand":
            assert per and reprimanded is not None and e.data["votes"] == per and e.data["player"] in alive, tag
            assert e.data["line"] == impersonating_line(e.data["line"]), tag
            reprimanded.append(e.data["player"])
        elif e.kind == "vote_result" and reprimanded is not None and e.data["round"] == 1:
            assert reprimanded == expected, f"{tag}: reprimanded {reprimanded}, forged by {expected}"
            for name, k in Counter(reprimanded).items():
                assert e.data["phantoms"][name] >= k * per, tag
            reprimanded = None
        elif e.kind == "coroner_note_hidden":
            assert game.options.coroner_notes and e.data["author"] in alive and e.audience == frozenset({e.data["author"]}), tag
            notes[e.data["author"]] = e.data["text"]
        elif e.kind == "coroner_note":
            (coroner,) = e.audience
            author = e.data["author"]
            assert notes.get(author) == e.data["text"] != "" and author not in alive and coroner in alive, tag
        elif e.kind == "sundown_extended":
            news = [x for x in game.events if x.kind == "celebrity_news" and x.data["day"] == e.day]
            assert news and e.data == {"day": e.day, "rounds": game.options.celebrity_sundown_rounds}, tag
            assert e.day in cancelled or game.events[-1].day == e.day, tag
        if e.kind == "death":
            assert e.data["player"] in alive and e.data["cause"] in CAUSES, tag
            assert "role" not in e.data or game.options.reveal_role_on_death, tag
            alive.discard(e.data["player"])
        elif e.kind == "revived":
            assert e.data["player"] not in alive, tag
            alive.add(e.data["player"])
        elif e.kind == "vote_result":
            for voter, target in e.data["votes"].items():
                assert voter in alive and (target is None or target in alive), tag
        elif e.kind == "vote_change":
            assert e.data["voter"] in alive and e.data["target"] in alive, tag
    assert alive == {p.name for p in game.players if p.alive}, tag
    shooters = [e.data["shooter"] for e in game.events if e.kind == "vigilante_shot"]
    assert len(shooters) == len(set(shooters)), f"{tag}: a Vigilante shot twice"
    assert len([e for e in game.events if e.kind == "priest_revive" or (e.kind == "revived" and "priest" in e.data)]) <= len(
        [p for p in game.players if p.initial_role == "priest" or p.role == "priest"]
    ), tag
    living = [p for p in game.players if p.alive]
    if game.winner == "village":
        assert not any(p.is_wolf for p in living), tag
        kinds = [e.kind for e in game.events]
        assert kinds[-2] == "no_death" or kinds[kinds.index("game_end") - 1] == "no_death", f"{tag}: not a quiet morning"
    elif game.winner == "werewolves":
        assert living and all(p.is_wolf for p in living), tag
    else:
        assert not living or game.day >= game.options.max_days, tag
    expected = sorted(p.name for p in game.players if game.winner != "none" and p.camp == game.winner)
    assert sorted(game.winners) == expected, tag


@pytest.mark.parametrize("start", range(0, GAMES, CHUNK))
def test_random_forum_games_are_sound(start):
    winners = play_and_check(range(start, start + CHUNK), make_forum_case, check_forum, replay_every=3)
    assert {"village", "werewolves"} <= winners


def test_forum_runs_cover_every_role_and_cause():
    roles, causes, kinds = set(), set(), set()
    for seed in range(0, 200):
        game, _ = play(make_forum_case(seed))
        roles |= {p.initial_role for p in game.players}
        causes |= {d.cause for d in game.deaths}
        kinds |= {e.kind for e in game.events}
    assert roles >= {"werewolf", "pack_leader", "civilian", *FORUM_AUX}
    assert causes == CAUSES, CAUSES - causes
    assert kinds >= {"vote_change", "phantom_votes", "lynch_cancelled", "ghost_note", "revived", "mutated", "vigilante_shot", "reprimand", "sundown_extended", "coroner_note"}


@pytest.mark.parametrize("n", range(3, 31))
def test_every_forum_table_size_plays(n):
    case = Case(n, [f"P{i:02d}" for i in range(n)], get_preset("forum").deck(n), {}, None, "forum")
    game, log = play(case)
    check_forum(case, game, log)
