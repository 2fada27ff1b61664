"""The prompts a model reads: rules that follow the options, every role and decision in
both languages, an append-only history, and no seat ever reading another's secrets.

The isolation check works from the narrator's side: from a game's full event log it
builds what each seat must not know (the text of every private event it was not
shown, in every wording the renderer has for it) and looks for it in the real
prompts the seat was given during the game.
"""

from __future__ import annotations

import random
import re
from dataclasses import fields
from typing import Any

import pytest

from agents.heuristic import HeuristicAgent
from arena.runner import run_sync
from engine import Game, get_preset
from engine.decisions import BOOL, CHOICE, MULTI, TEXT, Decision
from engine.events import NARRATOR, PUBLIC, Event
from engine.options import CHOICES, RuleOptions
from engine.roles import ROLES, VILLAGE, RoleSpec
from helpers import random_classic_game
from prompts.catalog import FILES, _tree, catalog
from prompts.events_text import MODEL, RENDERERS, tell_strictly
from prompts.history import event_body
from prompts.render import LANGUAGES, decision_prompt, history_entries, system_prompt

PLAYERS = ["Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris"]
BASE_ROLES = ("villager", "werewolf", "seer", "witch", "hunter", "cupid", "thief", "little_girl")
PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_]")


def rules(language: str = "en", deck: list[str] | None = None, **overrides: Any) -> str:
    options = get_preset("millers_hollow").options(overrides)
    return system_prompt(
        preset="millers_hollow", options=options, seat="Bob", role="villager", players=PLAYERS, language=language, deck=deck
    )


def clean(text: str) -> None:
    assert text.strip()
    assert not PLACEHOLDER.search(text), f"leftover placeholder in: {text!r}"


# ------------------------------------------------------------------------------ the files
def _keys(node: Any, prefix: str = "") -> set[str]:
    if isinstance(node, dict):
        out = set()
        for k, v in node.items():
            out |= _keys(v, f"{prefix}.{k}")
        return out
    return {prefix}


@pytest.mark.parametrize("stem", FILES)
def test_both_languages_have_the_same_texts(stem: str) -> None:
    """A missing translation would silently read in English; catch it here instead."""
    assert _keys(_tree("en")[stem]) == _keys(_tree("zh")[stem])


def test_every_rule_option_has_words() -> None:
    """A new engine option without a sentence would be played but never told."""
    for lang in LANGUAGES:
        for f in fields(RuleOptions):
            assert catalog(lang).has(f"rules.options.{f.name}"), (lang, f.name)


def test_chinese_uses_the_usual_terms() -> None:
    zh = rules("zh") + "\n".join(
        system_prompt(preset="millers_hollow", options=RuleOptions(), seat="Bob", role=r, players=PLAYERS, language="zh")
        for r in BASE_ROLES
    )
    for term in ("狼人", "预言家", "女巫", "猎人", "丘比特", "盗贼", "小女孩", "警长", "村民", "解药", "毒药", "查验", "发言", "投票", "平票", "警徽", "弃票", "情侣"):
        assert term in zh, term


# ------------------------------------------------------------------------------ rules text
# (option, new value, {language: (fragment told by default, fragment told after the change)})
FLIPS = [
    ("sheriff_double_vote", False, {
        "en": ("counts as two votes", "counts as one vote"),
        "zh": ("算作两票", "只算一票"),
    }),
    ("tie", "no_elimination", {
        "en": ("everyone votes again", "nobody is eliminated that day"),
        "zh": ("所有人重新投票", "当天无人出局"),
    }),
    ("tie", "random", {
        "en": ("everyone votes again", "lots are drawn among the tied"),
        "zh": ("所有人重新投票", "抽签决定谁出局"),
    }),
    ("sheriff_tiebreak", "choose", {
        "en": ("the Sheriff voted for one of the tied", "the Sheriff chooses which"),
        "zh": ("警长投给了平票者之一", "由警长决定平票者中谁出局"),
    }),
    ("sheriff_tiebreak", "none", {
        "en": ("the Sheriff voted for one of the tied", "no special power to break"),
        "zh": ("警长投给了平票者之一", "没有特殊权力"),
    }),
    ("wolf_pack", "majority", {
        "en": ("agree unanimously", "more than half"),
        "zh": ("意见一致", "超过半数"),
    }),
    ("wolf_pack", "plurality", {
        "en": ("agree unanimously", "the name with the most votes"),
        "zh": ("意见一致", "得票最多者被杀"),
    }),
    ("witch_self_heal", False, {
        "en": ("may use her healing potion on herself", "may not use her healing potion on herself"),
        "zh": ("可以自救", "不能自救"),
    }),
    ("witch_both_potions_same_night", False, {
        "en": ("both potions on the same night", "at most one potion a night"),
        "zh": ("同一晚使用两瓶药", "每晚最多使用一瓶药"),
    }),
    ("hunter_may_pass", True, {
        "en": ("must shoot", "may choose not to shoot"),
        "zh": ("必须开枪", "可以选择不开枪"),
    }),
    ("hunter_shot_causes", ("werewolves",), {
        "en": ("devoured by the werewolves or eliminated by the village vote", "when he is devoured by the werewolves;"),
        "zh": ("被狼人杀害或被村民投票放逐时开枪", "在被狼人杀害时开枪"),
    }),
    ("little_girl_catch_chance", 0.5, {
        "en": ("20% chance", "50% chance"),
        "zh": ("20% 的概率", "50% 的概率"),
    }),
    ("little_girl_catch_chance", 0.0, {
        "en": ("20% chance", "never caught"),
        "zh": ("20% 的概率", "永远不会被发现"),
    }),
    ("little_girl_caught", "dies", {
        "en": ("may devour her instead", "she is devoured instead"),
        "zh": ("可以改为杀害她", "她将代替狼人原定的目标被杀"),
    }),
    ("allow_abstain", False, {
        "en": ("You may abstain", "Abstaining is not allowed"),
        "zh": ("你可以弃票", "不允许弃票"),
    }),
    ("vote_self", True, {
        "en": ("may not vote against yourself", "may vote against yourself"),
        "zh": ("不能投票放逐自己", "可以投票放逐自己"),
    }),
    ("reveal_role_on_death", False, {
        "en": ("turned face up", "stays hidden"),
        "zh": ("翻开身份牌", "不翻牌"),
    }),
    ("max_days", 12, {
        "en": ("after 40 days", "after 12 days"),
        "zh": ("40 天后", "12 天后"),
    }),
    ("sheriff", False, {
        "en": ("elects a Sheriff", "There is no Sheriff"),
        "zh": ("选举警长", "本局没有警长"),
    }),
    ("sheriff_campaign", False, {
        "en": ("one campaign speech", "no campaign speeches"),
        "zh": ("竞选发言。", "没有竞选发言"),
    }),
    ("speaking_order", "seat", {
        "en": ("to the Sheriff's left", "always starts with the first living player"),
        "zh": ("警长左手边", "总是从座位顺序中第一个"),
    }),
    ("wolves_may_pass", True, {
        "en": ("passing is not allowed", "may decide to devour nobody"),
        "zh": ("不能空刀", "可以决定当晚不杀人"),
    }),
    ("wolves_may_kill_wolf", True, {
        "en": ("may never devour another werewolf", "may even name another werewolf"),
        "zh": ("不能杀害另一只狼人", "甚至可以选择另一只狼人"),
    }),
    ("wolves_win_at_parity", True, {
        "en": ("no player who is not a werewolf is left alive", "at least as many as the other living players"),
        "zh": ("不再有任何存活的非狼人玩家", "不少于其他存活玩家的数量"),
    }),
    ("lovers_may_target_each_other", True, {
        "en": ("may never vote against their beloved", "may vote against and act against each other"),
        "zh": ("永远不能互相投票", "可以互相投票"),
    }),
    ("discussion_rounds", 2, {
        "en": ("speaks once", "speaks 2 times"),
        "zh": ("依次发言一次", "依次发言 2 次"),
    }),
    ("wolf_chat_rounds", 3, {
        "en": ("one turn each", "3 turns each"),
        "zh": ("每人发言一次", "每人发言 3 次"),
    }),
    ("wolf_kill_rounds", 3, {
        "en": ("there is no second attempt", "They have 3 attempts"),
        "zh": ("没有第二次机会", "共有 3 次机会"),
    }),
    ("sheriff_election_day", 2, {
        "en": ("On day 1,", "On day 2,"),
        "zh": ("第 1 天天亮后", "第 2 天天亮后"),
    }),
    ("sheriff_election_tie", "lot", {
        "en": ("voted again among the tied players", "settled at once by drawing lots"),
        "zh": ("在平票玩家中重新投票", "立即在平票玩家中抽签"),
    }),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("option,value,fragments", FLIPS, ids=[f"{o}={v}" for o, v, _ in FLIPS])
def test_rules_text_follows_the_options(language: str, option: str, value: Any, fragments: dict) -> None:
    before, after = rules(language), rules(language, **{option: value})
    told, changed = fragments[language]
    assert told in before and told not in after
    assert changed in after and changed not in before


def test_sheriff_off_drops_every_sheriff_rule() -> None:
    text = rules("en", sheriff=False)
    for gone in ("counts as two votes", "successor", "campaign speech", "sheriff_vote"):
        assert gone not in text


def test_may_void_is_told_only_when_the_sheriff_chooses() -> None:
    assert "void the vote" not in rules("en")
    assert "may not void" in rules("en", sheriff_tiebreak="choose")
    assert "may instead void the vote" in rules("en", sheriff_tiebreak="choose", sheriff_tiebreak_may_void=True)


def _relevant_base() -> dict[str, Any]:
    """Options under which every other option has something to change in the text."""
    return {
        "sheriff": True,
        "sheriff_tiebreak": "choose",
        "wolf_pack": "unanimous",
        "buildings": "listed",  # The Village's buildings, with every token told
        "building_tokens": ("baker", "farmer", "vagabond"),
        "discussion": "bidding",  # a debate by bids tells its turns, its rounds and its first seat
    }


def _other_value(name: str, value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if name in CHOICES:
        return next(v for v in CHOICES[name] if v != value)
    if isinstance(value, float):
        return 0.75 if value != 0.75 else 0.25
    if isinstance(value, int):
        return value + 2
    if isinstance(value, tuple):
        return value[:1] if len(value) > 1 else value + ("poison",)
    raise AssertionError(f"no other value for {name}")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", [f.name for f in fields(RuleOptions)])
def test_every_option_changes_the_text(language: str, name: str) -> None:
    """Generic guard: whatever the option, playing another value tells other rules."""
    base = _relevant_base()
    if name in base:  # the option itself moves from its default; the others keep their say
        base = {k: v for k, v in base.items() if k != name}
    current = getattr(get_preset("millers_hollow").options(base), name)
    assert rules(language, **base) != rules(language, **{**base, name: _other_value(name, current)})


def test_role_rules_follow_the_deck() -> None:
    """Told the deck, the text leaves out roles that cannot play (and the Lovers' rule)."""
    plain = rules("en", deck=["werewolf", "werewolf", "seer"] + ["villager"] * 5)
    assert "Witch" not in plain and "Hunter" not in plain and "Cupid" not in plain
    assert "Lovers made by Cupid" not in plain
    full = rules("en", deck=list(BASE_ROLES) + ["villager", "villager"])
    assert "Lovers made by Cupid" in full and "The Witch may" in full


# ------------------------------------------------------------------------------ roles
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", BASE_ROLES)
def test_every_role_has_its_card(language: str, role: str) -> None:
    cat = catalog(language)
    text = system_prompt(preset="millers_hollow", options=RuleOptions(), seat="Chloe", role=role, players=PLAYERS, language=language)
    clean(text)
    assert cat.text("roles.headings.role", name=cat.role_name(role)) in text
    assert cat.get(f"roles.roles.{role}.card") in text
    assert "Chloe" in text and all(p in text for p in PLAYERS)
    assert "`reasoning`" in text and "`claims`" in text
    if role == "werewolf":
        assert cat.option("roles.win.werewolves", False) in text
    else:
        assert cat.text("roles.win.village") in text
    assert cat.text("roles.win.lovers") in text  # Cupid may be dealt


def test_the_seat_and_the_seating_order() -> None:
    text = system_prompt(preset="millers_hollow", options=RuleOptions(), seat="Chloe", role="seer", players=PLAYERS)
    assert "You are Chloe (seat 3 of 8)" in text
    assert "Alice, Bob, Chloe, David, Emma, Farah, Hugo and Iris" in text
    with pytest.raises(ValueError):
        system_prompt(preset="millers_hollow", options=RuleOptions(), seat="Zed", role="seer", players=PLAYERS)


def test_system_prompt_is_static_for_the_thief() -> None:
    """The prompt is for the dealt role; the change is told in the history."""
    text = system_prompt(preset="millers_hollow", options=RuleOptions(), seat="Bob", role="thief", players=PLAYERS)
    assert "reported in your history" in text


def test_a_role_without_words_falls_back_to_its_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = RoleSpec(id="gravedigger", name="Gravedigger", camp=VILLAGE, summary="Digs up the card of one dead player.")
    monkeypatch.setitem(ROLES, "gravedigger", spec)
    for lang in LANGUAGES:
        text = system_prompt(
            preset="millers_hollow",
            options=RuleOptions(),
            seat="Bob",
            role="gravedigger",
            players=PLAYERS,
            language=lang,
            deck=["gravedigger", "werewolf", "seer"],
        )
        clean(text)
        assert "Gravedigger" in text and spec.summary in text


# ------------------------------------------------------------------------------ decisions
def _d(
    kind: str, shape: str = CHOICE, options: tuple = ("Alice", "Chloe"), allow_pass: bool = False, count: int = 1, **context: Any
) -> Decision:
    return Decision(id=1, seat="Bob", kind=kind, shape=shape, options=options, allow_pass=allow_pass, count=count, context=context)


DECISIONS = {
    "speak/discussion": _d("speak", TEXT, (), round=1, phase="discussion"),
    "speak/campaign": _d("speak", TEXT, (), round=1, phase="campaign"),
    "wolf_chat": _d("wolf_chat", TEXT, (), round=1, wolves=["Bob", "Hugo"]),
    "vote": _d("vote", allow_pass=True, round=1, candidates=None),
    "vote/revote": _d("vote", allow_pass=True, round=2, candidates=["Alice", "Chloe"]),
    "vote/forced": _d("vote", allow_pass=False, round=1, candidates=None),
    "sheriff_vote": _d("sheriff_vote", round=1),
    "sheriff_vote/revote": _d("sheriff_vote", round=2),
    "sheriff_successor": _d("sheriff_successor"),
    "sheriff_tiebreak": _d("sheriff_tiebreak", tied=["Alice", "Chloe"]),
    "sheriff_tiebreak/void": _d("sheriff_tiebreak", allow_pass=True, tied=["Alice", "Chloe"]),
    "wolf_kill": _d("wolf_kill", attempt=1, caught=None),
    "wolf_kill/caught": _d("wolf_kill", allow_pass=True, attempt=2, caught="Chloe"),
    "wolf_kill/idle": _d("wolf_kill", options=(), allow_pass=True, attempt=1, caught=None, idle=True),
    "wolf_kill/first_named": _d("wolf_kill", allow_pass=True, attempt=1, caught=None, turn=1, order=["Bob", "Hugo"]),
    "wolf_kill/first_named_last": _d("wolf_kill", attempt=1, caught=None, turn=2, order=["Bob", "Hugo"]),
    "seer_check": _d("seer_check"),
    "witch_heal": _d("witch_heal", BOOL, (True, False), victim="Alice"),
    "witch_heal/self": _d("witch_heal", BOOL, (True, False), victim="Bob"),
    "witch_heal/used": _d("witch_heal", BOOL, (False,), victim="Alice", unavailable="the healing potion is already used"),
    "witch_heal/nobody": _d("witch_heal", BOOL, (False,), victim=None, unavailable="nobody was attacked tonight"),
    "witch_poison": _d("witch_poison", allow_pass=True),
    "witch_poison/used": _d("witch_poison", options=(), allow_pass=True, unavailable="the poison is already used"),
    "hunter_shot": _d("hunter_shot", cause="vote"),
    "cupid_lovers": _d("cupid_lovers", MULTI, ("Alice", "Bob", "Chloe"), count=2),
    "thief_swap": _d("thief_swap", options=("werewolf", "seer"), allow_pass=True, cards=["werewolf", "seer"], forced=False),
    "thief_swap/forced": _d("thief_swap", options=("werewolf",), cards=["werewolf", "werewolf"], forced=True),
    "little_girl_spy": _d("little_girl_spy", BOOL, (True, False), catch_chance=0.2),
    "future_kind": _d("gravedigger_dig", allow_pass=True, nights_left=2, neighbours=["Alice", "Chloe"]),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(DECISIONS))
def test_every_decision_renders(language: str, name: str) -> None:
    d = DECISIONS[name]
    text = decision_prompt(d, language=language)
    clean(text)
    cat = catalog(language)
    for option in d.options:
        assert cat.literal(option) in text
    if d.shape in (CHOICE, MULTI) and d.options:
        if d.allow_pass:
            assert "null" in text and cat.text("decisions.pass.forbidden") not in text
        else:
            assert cat.text("decisions.pass.forbidden") in text
    assert "`reasoning`" in text


def test_decision_context_is_shown() -> None:
    en = {name: decision_prompt(d) for name, d in DECISIONS.items()}
    assert "victim tonight is Alice" in en["witch_heal"]
    assert "is you!" in en["witch_heal/self"]
    assert "already used" in en["witch_heal/used"] and "only legal answer is false" in en["witch_heal/used"]
    assert "only legal answer is null" in en["witch_poison/used"]
    assert "tied between Alice and Chloe" in en["sheriff_tiebreak"]
    assert "void the vote" in en["sheriff_tiebreak/void"]
    assert "tied between Alice and Chloe" in en["vote/revote"]
    assert "you abstain" in en["vote"] and "null is not allowed" in en["vote/forced"]
    assert "The Little Girl, Chloe, was caught" in en["wolf_kill/caught"] and "Attempt 2" in en["wolf_kill/caught"]
    assert '"werewolf" (Werewolf)' in en["thief_swap"] and "Werewolf and Seer" in en["thief_swap"]
    assert "you must take one" in en["thief_swap/forced"]
    assert "20%" in en["little_girl_spy"]
    assert "eliminated by the village vote" in en["hunter_shot"]
    assert "you and Hugo" in en["wolf_chat"] and "`target`" in en["wolf_chat"]
    assert "`claims`" in en["speak/discussion"] and "Sheriff campaign" in en["speak/campaign"]
    assert '["Alice", "Bob"]' in en["cupid_lovers"]
    assert "gravedigger dig" in en["future_kind"] and "nights left: 2" in en["future_kind"]
    zh = decision_prompt(DECISIONS["witch_heal/used"], language="zh")
    assert "解药已经用过了" in zh


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(DECISIONS))
def test_a_brief_question_leaves_to_the_system_text_what_it_says(language: str, name: str) -> None:
    """The grammar layout's question (``brief``): no answer-format reminder and no line
    refusing null, both said once for every question by the system's "How to answer";
    everything else of the full question, in its order."""
    d = DECISIONS[name]
    cat = catalog(language)
    full, brief = decision_prompt(d, language=language), decision_prompt(d, language=language, brief=True)
    clean(brief)
    dropped = [cat.text("decisions.pass.forbidden")] + [cat.text(f"decisions.reminder.{k}") for k in ("default", "speech", "wolf_chat", "sister_chat")]
    assert not any(line in brief for line in dropped)
    kept = [line for line in full.split("\n") if line not in dropped]
    extra = [cat.text("decisions.brief.wolf_chat")] if d.kind == "wolf_chat" else []
    assert brief.split("\n") == kept + extra
    assert len(brief) < len(full)
    for option in d.options:
        assert cat.literal(option) in brief
    if d.allow_pass and d.shape in (CHOICE, MULTI):
        assert "null" in brief  # where null is legal, the question still says so


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_system_text_says_what_a_brief_question_leaves_out(language: str) -> None:
    cat = catalog(language)
    system = system_prompt(preset="millers_hollow", options=RuleOptions(), seat="Bob", role="seer", players=PLAYERS, language=language)
    for line in cat.get("system.answer"):
        assert line in system
    assert any("`null`" in line for line in cat.get("system.answer"))  # legal only where a question says so
    assert any("`reasoning`" in line for line in cat.get("system.answer")) and any("`claims`" in line for line in cat.get("system.answer"))


# ------------------------------------------------------------------------------ history
def ev(kind: str, data: dict, *, day: int = 1, phase: str = "night", audience: Any = PUBLIC, seq: int = 0) -> Event:
    return Event.recorded(seq, kind, day, phase, audience, data)


def test_history_is_written_from_the_seat() -> None:
    seer = history_entries([ev("seer_result", {"seer": "Bob", "target": "Alice", "role": "werewolf"}, audience=frozenset({"Bob"}))], "Bob")
    assert seer == ["Night 1 — You look at Alice's card: Werewolf."]
    claims = {"role": "seer", "checks": [{"target": "Bob", "role": "werewolf"}], "accuses": ["Bob"]}
    speech = ev("speech", {"speaker": "Alice", "text": "I am the Seer.", "round": 1, "claims": claims}, day=2, phase="discussion")
    [line] = history_entries([speech], "Bob")
    assert line.startswith('Day 2 — Alice said: "I am the Seer."')
    assert "role: Seer; Seer results: you: Werewolf; accuses: you]" in line
    table = {"Alice": "Bob", "Bob": None, "Chloe": "Bob"}
    votes = ev("vote_result", {"round": 1, "votes": table, "tally": {"Bob": 3}, "leaders": ["Bob"], "sheriff": "Alice"}, phase="vote")
    [line] = history_entries([votes], "Bob")
    assert "Alice → you" in line and "you → no vote" in line
    assert "counts twice" in line
    death = ev("death", {"player": "Alice", "cause": "poison", "role": "seer"}, day=2, phase="dawn")
    assert "Alice dies, poisoned by the Witch. Alice's card: Seer." in history_entries([death], "Bob")[0]
    hidden = ev("death", {"player": "Alice", "cause": "vote"}, day=2, phase="vote")
    assert "stays hidden" in history_entries([hidden], "Bob")[0]
    pack = ev("wolf_pack", {"wolves": ["Bob", "Hugo"]}, audience=frozenset({"Bob"}))
    assert "you and Hugo are the werewolves" in history_entries([pack], "Bob")[0]
    overheard = ev("wolf_chat_overheard", {"text": "Chloe tonight.", "round": 1}, audience=frozenset({"Iris"}))
    [line] = history_entries([overheard], "Iris")
    assert "Chloe tonight." in line and "Bob" not in line and "Hugo" not in line
    change = ev("role", {"player": "Bob", "role": "werewolf"}, audience=frozenset({"Bob"}))
    assert "Your role is now Werewolf" in history_entries([change], "Bob")[0]
    zh = history_entries([ev("seer_result", {"seer": "Bob", "target": "Alice", "role": "werewolf"})], "Bob", language="zh")
    assert zh == ["第1夜 —— 你查验了Alice：狼人。"]


def test_unknown_events_render_generically() -> None:
    future = ev("fox_sniff_result", {"target": "Alice", "werewolf_nearby": True}, day=3, audience=frozenset({"Bob"}))
    broken = ev("death", {"cause": "vote"}, day=3)  # a known kind whose data changed shape
    odd = ev("speech", {"speaker": "Alice", "text": 5, "claims": ["free", "form"]}, day=3, phase="discussion")
    bare = ev("comet", {}, day=3)
    for lang in LANGUAGES:
        entries = history_entries([future, broken, odd, bare], "Bob", language=lang)
        for entry in entries:
            clean(entry)
        assert "fox sniff result" in entries[0] and "Alice" in entries[0] and "true" in entries[0]
        assert "comet" in entries[3]


def _game(seed: int, n: int | None = None, **opts: Any) -> Game:
    rng = random.Random(f"prompts:{seed}")
    n = n or rng.randint(8, 14)

    def varied() -> dict[str, Any]:
        return dict(
            sheriff=rng.random() < 0.8,
            little_girl_catch_chance=rng.choice([0.0, 0.3, 1.0]),
            wolves_may_pass=rng.random() < 0.2,
            reveal_role_on_death=rng.random() < 0.8,
            hunter_may_pass=rng.random() < 0.3,
            sheriff_tiebreak_may_void=rng.random() < 0.5,
            wolf_chat_rounds=rng.choice([1, 2]),
            allow_abstain=rng.random() < 0.7,
        ) | opts

    names = [f"{PLAYERS[i % 8]}{'' if i < 8 else i}" for i in range(n)]
    return random_classic_game(rng, seed, n, BASE_ROLES, names, varied)


Capture = tuple[Decision, list[Event]]


def play(seed: int, n: int | None = None, **opts: Any) -> tuple[Game, list[Capture]]:
    """A heuristic game; for each decision, the seat's view as the hook sees it."""
    game = _game(seed, n, **opts)
    captured: list[Capture] = []
    agents = {p.name: HeuristicAgent(p.name, seed=seed) for p in game.players}
    run_sync(game, agents, on_answer=lambda g, d, a, agent: captured.append((d, g.observation(d.seat))))
    assert game.over
    return game, captured


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_history_is_append_only(seed: int) -> None:
    game, _ = play(seed, n=8)
    for p in game.players:
        events = game.observation(p.name)
        for lang in LANGUAGES:
            full = history_entries(events, p.name, language=lang)
            assert len(full) == len(events)
            for k in range(len(events) + 1):
                assert history_entries(events[:k], p.name, language=lang) == full[:k]


def test_real_events_use_their_own_renderer() -> None:
    """Every kind the base game emits has words; none falls back to the generic form."""
    seen: set[str] = set()
    for seed in range(8):
        game, _ = play(seed, little_girl_catch_chance=1.0)
        for e in game.events:
            seen.add(e.kind)
            assert e.kind in RENDERERS, e.kind
            viewer = _audience(e)[0] if not e.is_public and _audience(e) else ""
            for lang in LANGUAGES:
                body = tell_strictly(catalog(lang), e, seat=viewer, style=MODEL)  # raises instead of falling back
                clean(body)
    assert {"wolf_chat", "seer_result", "witch_victim", "lovers", "thief_cards", "wolf_chat_overheard", "vote_result"} <= seen


# ------------------------------------------------------------------------------ isolation
ISOLATION_GAMES = 50
PRIVATE_KINDS = {
    "role", "center", "thief_cards", "thief_swap", "cupid_lovers", "lovers", "seer_result", "wolf_pack", "wolf_chat",
    "wolf_chat_overheard", "little_girl_caught", "wolf_votes", "wolf_votes_overheard", "wolf_victim",
    "wolf_victim_overheard", "witch_victim", "witch_healed", "witch_poisoned",
}  # fmt: skip
OVERHEARD = {"wolf_chat_overheard", "wolf_votes_overheard", "wolf_victim_overheard"}


def _audience(e: Event) -> list[str]:
    if e.audience == NARRATOR:
        return []
    return sorted(e.audience)


def _secret_texts(game: Game, seat: str, lang: str) -> dict[str, Event]:
    """What ``seat`` must never read: every private event it was not shown, in each
    wording the renderer has for it (for each seat of its audience, and as the
    narrator would say it), minus wordings the seat legitimately has from its own
    events (a second villager's "Your card is Villager." is no secret)."""
    cat = catalog(lang)
    own = {event_body(cat, e, seat) for e in game.observation(seat)}
    secrets: dict[str, Event] = {}
    for e in game.events:
        if e.visible_to(seat):
            continue
        assert e.kind in PRIVATE_KINDS, f"a private kind this test does not know: {e.kind}"
        for viewer in _audience(e) + [""]:
            body = event_body(cat, e, viewer)
            if body and body not in own:
                secrets[body] = e
    return secrets


def _system(game: Game, seat: str, lang: str) -> str:
    """Static for the game, so built once per seat, from what the seat knows at the deal."""
    events = game.observation(seat)
    role = next(e.data["role"] for e in events if e.kind == "role" and e.phase == "setup")
    deck = events[0].data["roles_in_play"]
    players = list(events[0].data["players"])
    return system_prompt(preset=game.preset, options=game.options, seat=seat, role=role, players=players, language=lang, deck=deck)


def _prompt(system: str, seat: str, events: list[Event], d: Decision, lang: str) -> str:
    history = "\n".join(x for x in history_entries(events, seat, language=lang) if x)
    return "\n\n".join([system, history, decision_prompt(d, language=lang)])


def _check_game(seed: int, languages: tuple[str, ...]) -> set[str]:
    game, captured = play(seed)
    wolves_ever = {n for e in game.events if e.kind == "wolf_pack" for n in e.data["wolves"]}
    kinds: set[str] = set()
    for lang in languages:
        secrets = {p.name: _secret_texts(game, p.name, lang) for p in game.players}
        systems = {p.name: _system(game, p.name, lang) for p in game.players}
        for d, events in captured:
            kinds.add(d.kind)
            assert all(e.visible_to(d.seat) for e in events)
            text = _prompt(systems[d.seat], d.seat, events, d, lang)
            clean(text)
            for secret, e in secrets[d.seat].items():
                assert secret not in text, f"{d.seat} ({d.kind}) reads {e.kind} {e.data} meant for {_audience(e)}: {secret!r}"
            if d.seat not in wolves_ever:
                _no_wolf_named(game, d.seat, events, lang)
    return kinds


def _no_wolf_named(game: Game, seat: str, events: list[Event], lang: str) -> None:
    """What a spying Little Girl reads never says who the werewolves are: with the
    whispered words taken out, no werewolf's name is left in it (the victim aside)."""
    cat = catalog(lang)
    wolves = {n for e in game.events if e.kind == "wolf_pack" for n in e.data["wolves"]}
    for e in events:
        if e.kind not in OVERHEARD:
            continue
        body = event_body(cat, e, seat).replace(str(e.data.get("text", "")), "")
        named = {w for w in wolves if re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", body)}
        named -= set(e.data.get("targets") or []) | {e.data.get("target")}
        assert not named, f"{seat} overhears the names of {named}: {body!r}"


@pytest.mark.parametrize("chunk", range(5))
def test_isolation_on_real_prompts(chunk: int) -> None:
    """50 heuristic games with every base role; each prompt a seat was given is checked
    against what the full log says it must not know (English; every fifth game also
    in Chinese)."""
    per = ISOLATION_GAMES // 5
    kinds: set[str] = set()
    for seed in range(chunk * per, (chunk + 1) * per):
        kinds |= _check_game(1000 + seed, LANGUAGES if seed % 5 == 0 else ("en",))
    assert {"speak", "vote", "wolf_kill", "seer_check", "witch_heal", "witch_poison", "cupid_lovers", "thief_swap", "little_girl_spy"} <= kinds


def test_isolation_check_catches_a_leak() -> None:
    """The check itself works: rendering a wolf's history for a villager is caught."""
    game, _ = play(7)
    wolf = next(p.name for p in game.players if p.role == "werewolf" and p.initial_role == "werewolf")
    villager = next(p.name for p in game.players if p.role == "villager")
    leaked = "\n".join(history_entries(game.observation(wolf), villager))
    assert any(secret in leaked for secret in _secret_texts(game, villager, "en"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_silent_turn_at_night_reads_as_silence(language: str) -> None:
    """A wolf or a Sister who says nothing reads as a day's silent speaker does
    (``speech.silent``), never as an empty quotation (``You said: ""``)."""
    cat = catalog(language)
    pack = ev("wolf_chat", {"speaker": "Bob", "text": "", "round": 1, "target": "Chloe"}, audience=frozenset({"Bob", "Hugo"}))
    sisters = ev("sister_chat", {"speaker": "Bob", "text": "  "}, audience=frozenset({"Bob", "Iris"}))
    day = ev("speech", {"speaker": "Bob", "text": "", "round": 1}, day=2, phase="discussion")
    for e in (pack, sisters, day):
        for reader in ("Bob", "Hugo" if e is pack else "Iris"):
            [line] = history_entries([e], reader, language=language)
            assert '""' not in line and "“”" not in line, line
            assert cat.text("events.speech.silent.self") in line if reader == "Bob" else "Bob" in line
    [mine] = history_entries([pack], "Bob", language=language)
    assert "Chloe" in mine  # the proposal still told


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_narrator_tells_a_silent_night_turn_as_silence(language: str) -> None:
    from transcripts.describe import describe

    for kind, data in (("wolf_chat", {"speaker": "Bob", "text": "", "round": 1}), ("sister_chat", {"speaker": "Bob", "text": ""})):
        line = describe(kind, data, language=language, audience=["Bob"])
        assert line.startswith("(") or line.startswith("（")
        assert "Bob" in line and '""' not in line and "“”" not in line and line.rstrip("。.").endswith(("nothing", "没有发言")), line
