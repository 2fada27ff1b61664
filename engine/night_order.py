"""The order in which the narrator calls the night, declared once.

Every night step (``engine.roles.base.NightStep``) is placed by its name in
``NIGHT_ORDER``; a game keeps the steps of the cards it deals, in this order. The
books' own call lists, which this order follows:

- 000 (Miller's Hollow, with the expansions and The Village), "Reminder of the Turns of
  Play": "Starting turn: Village falls asleep; Thief; Cupido; The Lovers; The Protector.
  Night turn: The Fortune Teller; The Werewolves; The Little Girl - the Baker; The White
  Werewolf; The Arsonist; The Witch; The Piper; The charmed players; The Raven."
- 003 (Best of), "Special Aide-mémoire leader": "Provide the secret choice of Dog-Loup
  before the first pack wakes up. First night, in the order of the booklet, omitting
  the absent: Cupid; Lover; Voyante; Two Sisters; Child Wild; ...; pack; Infect Father of
  the Wolves; Grand-Méchant-Loup; Wizard; Fox; Flute player; all the charms." and "Early
  night: remove the wolf condemned by the Sword if its delay arrives" (the Rusty
  Knight's tetanus, before anything else). "Night: Voyante; pack with new wolves;
  Wolf-White Garou one night out of two from the second; Infect Father of the Wolves if
  he retains his power; Grand-Méchant-Loup as a permit; Wizard; Renard if he can still
  probe; Flute player; charmed."
- 002 (Spanish), 001 (狼人杀): the Thief, Cupid and the Lovers first; then the Seer, the
  werewolves, the Witch (001: 守卫 the guard before the wolves, 预言家, 狼人, 女巫).
- 004 (message-board Werewolf): the night's actions are sent to the Host together; the
  order only settles how they resolve: protections first, the informed roles' looks,
  the pack's kill and the killers' shots, then the revivals and the Raven's poster.

Where the books place a step differently, the reason for the place chosen is in
``docs/RULES.md`` (the Little Girl is asked just before the Seer, because the pack's step
must know whether she spies; the Protector and the Guardian Angel before the pack,
whose kill their guard answers).
"""

from __future__ import annotations

NIGHT_ORDER: tuple[str, ...] = (
    "rusty_sword",  # 003: early night, the Sword's tetanus takes its wolf
    # the starting round (night 1 only)
    "thief",  # 000, 001, 002: first
    "cupid",  # then the Lovers wake (their ``lovers`` events)
    "angel_love",  # 003: an Angel in love becomes a villager
    "wolf_hound",  # 003: "before the first pack wakes up"
    # every night
    "little_girl",  # asked before the pack's step, which must know whether she spies
    "protector",  # 000 expansion, 001: the guard before the wolves
    "guardian_angel",  # 004: protections first
    "insomniac",  # 004
    "seer",  # 000 "1. The Fortune Teller"; 003 "Voyante"
    "forum_seer",  # 004
    "psychic",  # 004
    "sister",  # 003 "Two Sisters"
    "wild_child",  # 003 "Child Wild"
    "pack_leader",  # 004, beside the pack
    "werewolves",  # 000 "2. The Werewolves"; 003 "pack"
    "hypnosis",  # the pack's victim hypnotised (an option), right after the pack
    "baker",  # 000 The Village: "The Little Girl - the Baker"
    "white_werewolf",  # 000 The Village, 003: after the pack, every other night
    "arsonist",  # 000 The Village
    "infect_father",  # 003
    "big_bad_wolf",  # 003
    "ninja",  # 004: the killers' shots
    "witch",  # 000 "3. The Witch"; 003 "Wizard"
    "fox",  # 003 "Renard"
    "pied_piper",  # 000, 003: "The Piper", "The charmed players"
    "mad_scientist",  # 004
    "priest",  # 004: revivals after the night's kills
    "raven",  # 000 The Village: last
)


def place(step: str, after: str = "") -> tuple[int, int]:
    """A step's place in the night (a sort key). A step of the books is placed by its
    name; a step this order does not list (a role added without editing this file)
    comes right after the step it names with ``after``. Raises ``ValueError`` for a
    step that has neither."""
    if step in NIGHT_ORDER:
        return (NIGHT_ORDER.index(step), 0)
    if after in NIGHT_ORDER:
        return (NIGHT_ORDER.index(after), 1)
    where = f"its after={after!r} is not a step of the order" if after else "give its NightStep an after= step"
    raise ValueError(f"night step {step!r} has no place in engine/night_order.py NIGHT_ORDER ({where})")
