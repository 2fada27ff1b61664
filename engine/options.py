"""Rule options: every point where the rulebooks disagree, as one typed record.

Each option's docstring-comment names the books' positions; docs/RULES.md carries the
passages. Presets (``engine.presets``) give each book's defaults; a game file may
override any of them, and an unknown option is an error that names it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

# Allowed values of the enumerated options, used to validate game files.
CHOICES: dict[str, tuple[str, ...]] = {
    "wolf_pack": ("unanimous", "majority", "plurality", "first_named"),
    "wolves_silent": ("no_kill", "starve", "one_dies"),
    "wolves_told_seers": ("never", "act", "who"),
    "tie": ("revote", "no_elimination", "random"),
    "sheriff_tiebreak": ("his_vote", "choose", "none"),
    "little_girl_caught": ("wolves_choose", "dies"),
    "speaking_order": ("sheriff_left", "seat", "rotate"),
    "discussion": ("round_robin", "bidding", "parallel"),
    "sheriff_election_tie": ("revote_then_lot", "lot"),
    "last_words": ("none", "first_night_and_vote", "all", "vote"),
    "buildings": ("none", "first_game", "thirds", "box", "listed"),
    "building_handout": ("random", "choice"),
    "elder_loss_roles": ("all", "listed"),
    "lovers_restraint": ("any_harm", "vote"),
    "wolves_win_when": ("last_villager", "one_villager_left", "more_than_half"),
}


@dataclass(slots=True, frozen=True)
class RuleOptions:
    # --- Sheriff (the Captain of best_of) -------------------------------------------
    sheriff: bool = True  # 000/001/002 all include the Sheriff card
    sheriff_election_day: int = 1  # 000: "you may wait a few turns before putting ... to a vote"
    sheriff_campaign: bool = True  # one campaign speech each before the election
    sheriff_double_vote: bool = True  # 000/001/002: his vote counts for 2
    sheriff_tiebreak: str = "his_vote"  # 000: "the Sheriff's vote designates the victim"; 001 zh: he chooses
    sheriff_tiebreak_may_void: bool = False  # 001 zh: "也可以决定废票" (he may void the vote)
    sheriff_election_tie: str = "revote_then_lot"  # books silent: documented choice
    sheriff_vote_self: bool = False  # 001 en: elected by "the majority of votes from other players"
    sheriff_candidacy: bool = False  # 狼人杀 practice (not the seed): 上警, 退水, candidates' speeches, the badge passed or torn up
    # --- The day vote -------------------------------------------------------------------
    tie: str = "revote"  # 000/001 en: vote again, then nobody; 002: "nadie es eliminado"
    allow_abstain: bool = True  # digital form of not pointing; see RULES.md
    vote_self: bool = False  # books silent for the base game; forum (004) allows it
    discussion_rounds: int = 1
    speaking_order: str = "sheriff_left"
    # Not from the seeds: the discussion protocols of the LLM benchmarks (docs/RULES.md 3.12).
    discussion: str = "round_robin"  # one at a time in the speaking order; werewolf_arena's bids; Kaggle's parallel rounds
    discussion_turns: int = 0  # ``bidding``: speeches per day; 0: one per living player and round
    # --- Werewolves -------------------------------------------------------------------
    wolf_pack: str = "unanimous"  # 000: "If the Werewolves cannot decide ... no death that night"
    wolf_kill_rounds: int = 1  # attempts to agree before the pack gives up (unanimous/majority)
    wolf_chat_rounds: int = 1  # private pack talk before choosing, when two or more wolves live
    wolves_may_kill_wolf: bool = False  # 000: "Under no circumstances may a Werewolf devour another"; 001 en: "hard luck, he dies"
    wolves_may_pass: bool = False  # 001 en: "They can eventually decide ... not to select a victim"
    wolves_exposed_idle: bool = False  # 001 zh glossary 失业狼人: "狼人在被村民发现后，无法继续杀害其他玩家"
    wolves_silent: str = "no_kill"  # a pack naming nobody: 001 en "they die of hunger"; 004 5-B "one of THEM will die"
    wolves_win_at_parity: bool = False  # 000/002: "eliminate the last Villager"; 001 en: "second last villager"
    # 001 en, read to the letter: "as soon as the second last villager dies" (one non-wolf left);
    # 001 zh: "如果任一阵营的玩家数量占据了游戏人数的一半以上，则该阵营获胜" (the wolves' side of it)
    wolves_win_when: str = "last_villager"
    wolves_hypnotise: bool = False  # 001 zh variant "Lycanthropic Fascination": the victim is hypnotised, not killed
    one_execution: bool = False  # 001 zh variant: "若处决的玩家为狼人，则好人阵营获胜，反之则狼人阵营获胜"
    wolves_win_side: bool = False  # common 狼人杀 practice (屠边): every plain villager or every power role dead
    # --- Witch --------------------------------------------------------------------------
    witch_self_heal: bool = True  # 000/001 en/002: she may heal herself
    witch_self_poison: bool = False  # 002: "puede usar cualquiera de las dos pociones sobre sí misma"; 000 silent
    witch_self_heal_first_night_only: bool = False  # common 狼人杀 practice: only on the first night
    witch_both_potions_same_night: bool = True  # 000: "She may use both potions the same night"
    witch_single_potion: bool = False  # 001 zh: "女巫每局只能有一次机会用药" (one potion in the whole game)
    # --- Hunter -------------------------------------------------------------------------
    hunter_shot_causes: tuple[str, ...] = ("werewolves", "vote")  # 000: "devoured ... or mistakenly executed"
    hunter_may_pass: bool = False  # 000: "must retaliate"; 002: "puede tomar represalias"
    # --- Little Girl ----------------------------------------------------------------------
    little_girl_catch_chance: float = 0.2  # digital peeking: chance per spying night of being caught
    little_girl_caught: str = "wolves_choose"  # 000: wolves "may change their mind"; 002/001 en: she dies instead
    # --- Lovers -------------------------------------------------------------------------
    lovers_may_target_each_other: bool = False  # 000: "must never vote against their beloved, nor cause them any harm"
    lovers_restraint: str = "any_harm"  # 000: "nor cause them any harm"; 002: "no puede ... votar para linchar a su amante" (the vote only)
    cupid_second_pair: bool = False  # 001 zh variant "In any case it surely isn't him": a deceiver and a paramour
    # --- Protector (langrensha) -----------------------------------------------------------
    protector_neighbours_only: bool = False  # 001 zh variant 10: himself or a neighbour only
    protector_heal_clash: bool = False  # common 狼人杀 practice (同守同救): guarded and healed the same night dies
    # --- Best of Werewolves characters ------------------------------------------------------
    sisters_chat_every: int = 0  # 003: "to begin, use only the initial recognition"; N: they also confer every N nights
    elder_loss_roles: str = "all"  # 003: "deprive the villagers of their special powers"; 001 zh: only 猎人，守护者，女巫，先知
    elder_loss_spares_batch: bool = True  # 003 does not arbitrate: those dying with the Elder keep their last act
    infect_father_elder_spends: bool = True  # 003 does not arbitrate: a failed infection of the Elder is spent
    # --- Thief --------------------------------------------------------------------------
    thief_adds_villagers: bool = True  # 000/002: "add 2 Ordinary Villager cards"
    # --- Table --------------------------------------------------------------------------
    reveal_role_on_death: bool = True  # 000: the eliminated "reveal their card"
    last_words: str = "none"  # 000: the dead "can no longer communicate"; 狼人杀 practice: 遗言
    max_days: int = 40  # a game that cannot end stops here with winner "none"
    # --- Message-board Werewolf (forum, 004) ----------------------------------------------
    opening_day: bool = False  # 004: "Dawn of Day 1 is the introduction": a day comes before the first night
    vote_changes: int = 0  # 004: votes may be changed "before Sundown": rounds of public vote changes
    phantom_votes: bool = False  # 004: refusing to vote "will earn them a Phantom vote for the next day"
    impersonation_phantoms: int = 0  # 004 Article 7: "THREE Phantom Votes shall be placed on their head" (0: not policed)
    ghost_notes: bool = False  # 004 "Ghosts and Notes": the dead may leave a note the host passes on
    coroner_notes: bool = False  # 004 Subsection 5, Article 3: notes "that can only be found by the Coroner", hidden "ahead of time"
    village_wins_at_quiet_dawn: bool = False  # 004: humans win on "waking up ... to find nobody died" once every wolf is dead
    mad_scientist_vials: int = 1  # 004: "a vial (or perhaps several vials in larger games)"
    wolves_told_seers: str = "never"  # 004: "the Wolves may be informed it's happened (or even who you are)"
    pack_leader_exact_from: int = 0  # 004: "In really big games, he might even be told what it is": from this many players (0: never)
    vigilante_gun_found: bool = False  # 004: "if the Vigilante is killed before he can use his weapon, another human might find it"
    guardian_angel_reveal: bool = False  # 004: "some games force you to blow your cover when a protection is successful"
    celebrity_sundown_rounds: int = 0  # 004: "some hosts will extend the Sundown deadline": more debate rounds that day
    # --- The Village's buildings (000, Rules of Expansion #2) ------------------------------
    buildings: str = "none"  # the tokens handed out: the book's first-game set, its later 1/3 split, the whole box, or ``building_tokens``
    building_tokens: tuple[str, ...] = ()  # ``buildings: listed``: the narrator's selection (at least one per player)
    building_handout: str = "random"  # 000: drawn face down, or each player in turn picks one face up
    baker_glimpse_chance: float = 0.25  # digital form of the Baker's dawn: chance per night of seeing a werewolf return

    def updated(self, overrides: dict[str, Any]) -> "RuleOptions":
        return replace(self, **overrides)

    def to_json(self) -> dict[str, Any]:
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    def recorded_json(self) -> dict[str, Any]:
        """The options as a transcript header records them: every option, except the
        later ones still at their default (``WRITTEN_WHEN_SET``)."""
        out = self.to_json()
        for name in WRITTEN_WHEN_SET:
            if out[name] == _DEFAULTS[name]:
                del out[name]
        return out


# Options added after transcripts were first written, recorded only when a game sets
# them: a game that leaves them at their default writes the very header (and so, the
# digests chaining from it, the very file) it wrote before they existed. A reader
# takes a missing option as its default (``coerce_options`` on a partial mapping).
WRITTEN_WHEN_SET: frozenset[str] = frozenset({"discussion", "discussion_turns", "impersonation_phantoms", "celebrity_sundown_rounds", "coroner_notes"})


# The whole-number options' allowed ranges (inclusive). Why bounded: an option is a
# count of rounds, days or doses, and a file asking for a billion discussion rounds is
# a game that never ends and fills the disk; the maxima are far above any book's.
BOUNDS: dict[str, tuple[int, int]] = {
    "sheriff_election_day": (0, 100),
    "discussion_rounds": (0, 10),
    "discussion_turns": (0, 300),  # speeches a day under bidding: 10 rounds of 30 players
    "wolf_kill_rounds": (0, 10),
    "wolf_chat_rounds": (0, 10),
    "sisters_chat_every": (0, 100),
    "max_days": (1, 100),
    "vote_changes": (0, 10),
    "mad_scientist_vials": (0, 30),
    "pack_leader_exact_from": (0, 30),  # a table size (0: never)
    "impersonation_phantoms": (0, 10),  # phantom votes per proven impersonation
    "celebrity_sundown_rounds": (0, 10),  # debate rounds added on the day the lynching is cancelled
}
MAX_WORDS = 100  # the longest list option (building_tokens: one per player at most)

OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RuleOptions))
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(RuleOptions)}
_TYPES = {f.name: f.type for f in fields(RuleOptions)}


def _shown(value: Any) -> str:
    """A value as an error message shows it: on one line, and short."""
    text = repr(value).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."


def coerce_options(raw: dict[str, Any]) -> dict[str, Any]:
    """Check a user-supplied options mapping; raise ``ValueError`` naming the bad key."""
    out: dict[str, Any] = {}
    defaults = RuleOptions()
    for key, value in raw.items():
        if key not in OPTION_NAMES:
            raise ValueError(f"unknown rule option '{key}' (known: {', '.join(OPTION_NAMES)})")
        default = getattr(defaults, key)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"rule option '{key}' must be true or false, got {_shown(value)}")
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"rule option '{key}' must be a whole number, got {_shown(value)}")
            low, high = BOUNDS.get(key, (0, 1000))
            if not low <= value <= high:
                raise ValueError(f"rule option '{key}' must be between {low} and {high}, got {value}")
        elif isinstance(default, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"rule option '{key}' must be a number, got {_shown(value)}")
            value = float(value)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"rule option '{key}' must be between 0 and 1")
        elif isinstance(default, tuple):
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                raise ValueError(f"rule option '{key}' must be a list of words, got {_shown(value)}")
            if len(value) > MAX_WORDS:
                raise ValueError(f"rule option '{key}' lists {len(value)} words; at most {MAX_WORDS}")
            value = tuple(value)
        elif isinstance(default, str):
            allowed = CHOICES.get(key)
            if not isinstance(value, str) or (allowed and value not in allowed):
                raise ValueError(f"rule option '{key}' must be one of {', '.join(allowed or ())}, got {_shown(value)}")
        out[key] = value
    return out


__all__ = ["RuleOptions", "OPTION_NAMES", "CHOICES", "BOUNDS", "coerce_options", "field"]
