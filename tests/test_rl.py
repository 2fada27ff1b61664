"""The PettingZoo environments (arena.rl): PettingZoo's own API checks over every
preset, and what the spaces promise: the engine's legal options and nothing else,
a seat's own view, one pick per step for a pair, camp rewards at the end."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from agents.random_agent import RandomAgent  # noqa: E402
from arena.rl import IllegalAction, env, parallel_env, raw_env  # noqa: E402
from arena.rl import spaces as sp  # noqa: E402
from arena.runner import run_sync  # noqa: E402
from engine import Game, GameSetup  # noqa: E402
from engine.presets import PRESETS  # noqa: E402
from prompts.history import history_entries  # noqa: E402
from prompts.render import decision_prompt  # noqa: E402

# A deck with every shape of decision: Cupid's pair (multi), the Thief's cards (role
# ids), the Witch's potions (yes/no), speeches, votes.
RICH = ["werewolf", "werewolf", "cupid", "thief", "witch", "hunter", "little_girl", "seer"] + ["villager"] * 4
PIPER = ["werewolf", "werewolf", "pied_piper", "wolf_hound", "wild_child", "fox", "elder", "angel", "bear_tamer", "seer", "villager", "villager"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        # PettingZoo recommends Box/Discrete spaces; a seat's text and a speech are not.
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_aec_api_every_preset(preset):
    api_test(env(preset=preset, players=9, seed=1), num_cycles=1000)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_parallel_api_every_preset(preset):
    parallel_api_test(parallel_env(preset=preset, players=9, seed=1), num_cycles=1000)


def test_api_with_every_decision_shape():
    api_test(env(preset="millers_hollow", players=10, seed=3, roles=RICH), num_cycles=1000)
    parallel_api_test(parallel_env(preset="best_of", players=12, seed=3, roles=PIPER, language="zh"), num_cycles=1000)


@pytest.mark.parametrize(
    "table",
    [
        {"preset": "village", "players": 12, "buildings": "box", "building_handout": "choice"},  # building ids as answers
        {"preset": "forum", "players": 10, "ghost_notes": True, "vote_changes": 1, "phantom_votes": True},
        {"preset": "langrensha", "players": 12, "last_words": "all"},
    ],
    ids=["village-buildings", "forum-ghosts", "langrensha-last-words"],
)
def test_api_with_rule_variants(table):
    api_test(env(seed=2, **table), num_cycles=1000)
    parallel_api_test(parallel_env(seed=2, **table), num_cycles=1000)


def _play(e, policy):
    """Run an AEC env to the end with ``policy(env, agent, obs) -> action``; the kinds met."""
    kinds = []
    e.reset()
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        kinds.append(info["decision"]["kind"])
        e.step(policy(e, agent, obs))
    return kinds


def test_bots_through_the_env_play_the_runners_game():
    """The same bots answering through the AEC env give the game ``run_sync`` gives:
    same events, same answers (the env adds nothing and reorders nothing)."""
    names = [f"player_{i}" for i in range(12)]
    direct = run_sync(Game(GameSetup(names, seed=5, roles=RICH)), {n: RandomAgent(n, seed=5) for n in names})

    bots = {n: RandomAgent(n, seed=5) for n in names}
    answers: dict[int, object] = {}

    def policy(e, agent, obs):
        d = e.unwrapped.table.current(agent)
        if d.id not in answers:  # a pair is asked once, then given one pick at a time
            answers[d.id] = bots[agent].decide(e.unwrapped.view(agent), d)
        return e.unwrapped.action_for(agent, answers[d.id])

    e = env(preset="millers_hollow", players=12, seed=5, roles=RICH)
    kinds = _play(e, policy)
    played = e.unwrapped.game
    assert "cupid_lovers" in kinds and "thief_swap" in kinds and "speak" in kinds
    assert [ev.to_json() for ev in played.events] == [ev.to_json() for ev in direct.events]
    assert played.answer_log == direct.answer_log


def test_a_pair_is_named_one_pick_at_a_time():
    e = raw_env(preset="millers_hollow", players=12, seed=5, roles=RICH)
    e.reset()
    while e.infos[e.agent_selection]["decision"]["kind"] != "cupid_lovers":
        agent = e.agent_selection
        e.step(e.action_space(agent).sample(e.observe(agent)["action_mask"]))
    cupid = e.agent_selection
    first = e.observe(cupid)
    assert first["picked"].sum() == 0
    target = e.possible_agents[3]
    e.step({"choice": sp.PLAYER + 3, "text": ""})
    assert e.agent_selection == cupid  # asked again for the second name
    second = e.observe(cupid)
    assert second["picked"][3] == 1 and second["action_mask"][sp.PLAYER + 3] == 0
    assert second["action_mask"][sp.PASS] == 0
    e.step(sp.PLAYER + 7)
    assert e.unwrapped.game.lovers == (target, e.possible_agents[7])


def test_the_mask_is_the_engines_legal_options():
    e = raw_env(preset="millers_hollow", players=10, seed=3, roles=RICH)
    e.reset()
    seen = set()
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        d = e.unwrapped.table.current(agent)
        legal = {e.vocabulary[i] for i in np.flatnonzero(obs["action_mask"])}
        if d.shape == "choice":
            expected = set(d.options) | ({"pass"} if d.allow_pass else set())
            assert legal == expected
        elif d.shape == "text":
            assert legal == {"pass", "speak"}
        elif d.shape == "bool":
            assert legal == {"yes" if o else "no" for o in d.options}
        seen.add(d.shape)
        e.step(e.action_space(agent).sample(obs["action_mask"]))
    assert seen >= {"choice", "text", "bool", "multi"}


def test_an_illegal_action_is_refused_with_the_legal_ones():
    e = raw_env(preset="millers_hollow", players=8, seed=0)
    e.reset()
    agent = e.agent_selection
    with pytest.raises(IllegalAction, match="legal: "):
        e.step({"choice": sp.WAIT, "text": ""})
    with pytest.raises(IllegalAction, match="an action is"):
        e.step(2.5)
    e.step(e.action_space(agent).sample(e.observe(agent)["action_mask"]))  # the env still plays


def test_the_text_is_the_model_prompt_and_only_the_seats_view():
    e = raw_env(preset="millers_hollow", players=8, seed=2, text=True)
    e.reset()
    for _ in range(40):
        agent = e.agent_selection
        e.step(e.action_space(agent).sample(e.observe(agent)["action_mask"]))
    agent = e.agent_selection
    view = e.view(agent)
    d = e.unwrapped.table.current(agent)
    text = e.observe(agent)["text"]
    assert e.text(agent) == text  # the same prompt, rendered on demand
    history = "\n".join(h for h in history_entries(view.events, agent) if h)
    assert history in text and text.endswith(decision_prompt(d))
    game = e.unwrapped.game
    hidden = [ev for ev in game.events if not ev.visible_to(agent)]
    assert hidden  # other seats' night actions exist...
    # ...and none of them is in this seat's text (a wolf's copy of the pack's news
    # reads as its partner's copy: only lines the seat was never shown count).
    shown = set(history_entries(view.events, agent))
    for ev in hidden:
        for line in history_entries([ev], agent):
            if line and line not in shown:
                assert line not in text


def test_rewards_are_the_camps_at_the_end():
    e = env(preset="millers_hollow", players=8, seed=4)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert reward == 0
        e.step(e.action_space(agent).sample(obs["action_mask"]))
    game = e.unwrapped.game
    assert game.over and game.winners
    assert totals == {a: 1.0 if a in game.winners else -1.0 for a in e.possible_agents}


def test_parallel_steps_are_the_engines_batches():
    pe = parallel_env(preset="millers_hollow", players=8, seed=6)
    obs, infos = pe.reset()
    while pe.agents:
        asked = {a for a in pe.agents if infos[a]["decision"] is not None}
        batch = {d.seat for d in pe.game.waiting}
        assert asked == batch
        for a in pe.agents:
            if a not in asked:
                assert obs[a]["action_mask"].tolist() == [1] + [0] * (len(pe.vocabulary) - 1)
        actions = {a: pe.action_space(a).sample(obs[a]["action_mask"]) for a in pe.agents}
        obs, rewards, terms, truncs, infos = pe.step(actions)
    assert pe.game.over


def test_same_seed_same_game_and_bad_setups_are_named():
    def record(seed):
        e = raw_env(preset="langrensha", players=9, seed=seed)
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else e.action_space(agent).sample(obs["action_mask"]))
        return [ev.to_json() for ev in e.unwrapped.game.events]

    assert record(11) == record(11)
    with pytest.raises(ValueError, match="unknown rule option 'max_dayz'"):
        env(preset="millers_hollow", players=8, max_dayz=3)
    with pytest.raises(ValueError, match="seats 3 to"):
        env(preset="millers_hollow", players=2)


def test_speech_is_cleaned_to_the_space():
    assert sp.clean_speech("hi \U0001f43a") == "hi \ufffd"
    assert len(sp.clean_speech("x" * 5000)) == sp.MAX_SPEECH
    assert sp.speech_text().contains(sp.clean_speech("狼人 \x00 ok"))


def test_render_tells_only_the_public_narration():
    e = raw_env(preset="millers_hollow", players=8, seed=0, render_mode="ansi")
    e.reset()
    for _ in range(30):
        agent = e.agent_selection
        e.step(e.action_space(agent).sample(e.observe(agent)["action_mask"]))
    text = e.render()
    assert "Night falls" in text and "Your card" not in text
    assert e.render() == ""  # nothing new since
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="rgb_array")


def test_the_text_is_rendered_only_when_asked_for():
    """By default an observation has no text (rendering it costs more than the rest of
    a step); ``text=True`` puts it in every observation, and ``text(agent)`` renders one
    seat's on demand, the same words either way."""
    plain = raw_env(preset="millers_hollow", players=8, seed=0)
    texted = raw_env(preset="millers_hollow", players=8, seed=0, text=True)
    plain.reset()
    texted.reset()
    asked = set()
    for _ in range(30):
        agent = plain.agent_selection
        asked.add(agent)
        obs, with_text = plain.observe(agent), texted.observe(agent)
        assert "text" not in obs and "text" not in plain.observation_space(agent).spaces
        assert plain.observation_space(agent).contains(obs) and texted.observation_space(agent).contains(with_text)
        assert with_text.pop("text") == plain.text(agent)
        assert {k: np.asarray(v).tolist() for k, v in obs.items()} == {k: np.asarray(v).tolist() for k, v in with_text.items()}
        action = plain.action_space(agent).sample(obs["action_mask"])
        plain.step(action)
        texted.step(action)
    assert set(plain.unwrapped.table._cache) == asked  # no other seat's text was rendered
    with pytest.raises(RuntimeError, match="call reset"):
        raw_env(preset="millers_hollow", players=8).text("player_0")


def _view_observation(e, agent):
    """What a seat's observation said when it was built from its whole ``SeatView``
    (before the summaries were kept as the events come): the reference."""
    table = e.unwrapped.table
    view = e.unwrapped.view(agent)
    n = len(table.names)
    d = None if table.game.over else table.current(agent)
    seat = {name: i for i, name in enumerate(table.names)}
    alive = [0] * n
    for name in view.alive:
        alive[seat[name]] = 1
    picked = [0] * n
    for name in table._picks.get(d.id, []) if d is not None else ():
        picked[seat[name]] = 1
    return {
        "action_mask": table.mask(d).tolist(),
        "seat": seat[agent],
        "role": table.role_ids.index(view.role) + 1 if view.role is not None else 0,
        "day": min(view.day, table.options.max_days + 1),
        "alive": alive,
        "sheriff": seat.get(view.sheriff, n) if view.sheriff else n,
        "picked": picked,
    }


@pytest.mark.parametrize(
    "table",
    [
        {"preset": "millers_hollow", "players": 12, "seed": 5, "roles": RICH},
        {"preset": "best_of", "players": 12, "seed": 3, "roles": PIPER},
        {"preset": "langrensha", "players": 9, "seed": 11},
        {"preset": "forum", "players": 10, "seed": 2, "ghost_notes": True},
    ],
    ids=["rich", "piper", "langrensha", "forum"],
)
def test_observations_and_infos_are_the_seats_view_at_every_step(table):
    """Each seat's summaries are kept as its events come and its info is remade only
    when it changed: at every step, every seat's observation is what its whole view
    says and every info is what a fresh one says."""
    e = raw_env(**table)
    e.reset()
    steps = 0
    for agent in e.agent_iter():
        for a in e.possible_agents:
            obs = {k: np.asarray(v).tolist() for k, v in e.observe(a).items()}
            assert obs == _view_observation(e, a), (steps, a)
        for a in e.agents:  # the agents not yet removed after the end
            assert e.infos[a] == e.unwrapped.table.info(a), (steps, a)
        _, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else e.action_space(agent).sample(e.observe(agent)["action_mask"]))
        steps += 1
    assert steps > 20 and e.unwrapped.game.over


def test_a_seeded_reset_replays_the_constructors_first_game():
    """``reset(seed=s)`` deals game ``s`` and seeds each seat's space as ``env(seed=s)``
    does, so random policies replay it whichever way the seed was given."""

    def record(e, seed=None):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else e.action_space(agent).sample(obs["action_mask"]))
        return [ev.to_json() for ev in e.unwrapped.game.events]

    first = record(env(preset="millers_hollow", players=8, seed=7))
    again = env(preset="millers_hollow", players=8, seed=0)
    record(again)
    assert record(again, seed=7) == first
