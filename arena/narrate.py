"""Narration: the game told as a narrator would tell it at the table.

The narrator reads events only, never the live ``Game``, so the same code narrates a
game being played and a recorded one (``replay``). By default it shows what the whole
table sees (public events); ``god`` adds the night's secrets. Event kinds it does not
know (a role added later) are still shown, plainly, rather than dropped.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table

from engine.buildings.base import BUILDINGS
from engine.events import Event
from engine.roles import ROLES

CAUSES = {
    "werewolves": "devoured by the werewolves",
    "vote": "eliminated by the village",
    "poison": "poisoned by the Witch",
    "hunter": "shot by the Hunter",
    "grief": "dead of grief",
    "white_werewolf": "killed by the White Werewolf",
    "big_bad_wolf": "devoured by the Big Bad Wolf",
    "rusty_sword": "dead of the Rusty Knight's tetanus",
    "with_elder": "dead with the Elder, the Idiot's pardon gone",
    "vigilante": "shot by the Vigilante",
    "ninja": "assassinated by the Ninja",
    "barber": "killed by the Barber's razor",
    "barber_mistake": "dead by his own razor, the Barber who struck an innocent",
    "arsonist": "burned in the Arsonist's fire",
    "hunger": "dead of hunger, the pack having named nobody",
    "deadline": "put to death by the Host, the pack having missed its deadline",
}

PHASE_TITLES = {"campaign": "Sheriff campaign", "discussion": "Debate"}

WINNER_TITLES = {
    "village": "The village wins",
    "werewolves": "The werewolves win",
    "lovers": "The Lovers win",
    "none": "Nobody wins",
}

# Secret events that repeat something already narrated (each lover gets their own
# copy; overheard talk echoes the pack's).
_ECHOES = {"lovers", "wolf_chat_overheard", "wolf_votes_overheard", "wolf_victim_overheard"}


def role_name(role: str | None) -> str:
    if role is None:
        return "?"
    spec = ROLES.get(role)
    return spec.name if spec else role


def deck_words(roles: Iterable[str], name: Callable[[str], str] = role_name) -> str:
    """``Werewolf ×2, Seer, Villager ×5``: a deck as people count cards, in the order
    the cards first appear."""
    counts: dict[str, int] = {}
    for r in roles:
        counts[r] = counts.get(r, 0) + 1
    return ", ".join(f"{name(r)} ×{c}" if c > 1 else name(r) for r, c in counts.items())


def _n(name: Any) -> str:
    """A player's name, safe inside rich markup (names and speeches are untrusted)."""
    return f"[bold]{escape(str(name))}[/bold]"


def _b(building: Any) -> str:
    """A building token by its holder's title (the Village)."""
    spec = BUILDINGS.get(building) if isinstance(building, str) else None
    return f"[bold]{escape(spec.name if spec else str(building))}[/bold]"


def _home(building: Any) -> str:
    spec = BUILDINGS.get(building) if isinstance(building, str) else None
    return escape(spec.home if spec and spec.home else "bindle")


def _names(names: Any) -> str:
    return ", ".join(_n(n) for n in names or []) or "nobody"


def _r(role: Any) -> str:
    return f"[bold]{escape(role_name(role))}[/bold]"


def _quote(text: Any) -> str:
    return f"\"{escape(str(text or '').strip())}\""


def _only(e: Event) -> str | None:
    """The one seat a private event was sent to, if there is exactly one."""
    a = e.audience
    return next(iter(a)) if not isinstance(a, str) and len(a) == 1 else None


def _added(counts: dict[str, int] | None) -> str:
    """Votes a count adds by itself (phantom votes, a poster's extra votes)."""
    ranked = sorted((counts or {}).items(), key=lambda kv: (-kv[1], str(kv[0])))
    return ", ".join(f"{_n(n)} +{k}" for n, k in ranked)


class Narrator:
    """Prints events to a rich console as they are fed in."""

    def __init__(self, console: Console, *, god: bool = False):
        self.console = console
        self.god = god
        self._seen = 0  # events already narrated (when following a live game)
        self._phase = ""
        self._pack: list[str] = []
        self.sheriff: str | None = None
        self.dead: dict[str, dict] = {}
        # Facts a secret event already told, so the copy sent to another seat (the
        # charmed, the infected, the Insomniac's wolf...) is not told twice; through one
        # seat's eyes that copy is the only one and is told.
        self._told: set[tuple[str, Any]] = set()

    # ------------------------------------------------------------------ feeding
    def follow(self, events: list[Event]) -> None:
        """Narrate the events appended to ``events`` since the last call."""
        while self._seen < len(events):
            self.event(events[self._seen])
            self._seen += 1

    def feed(self, events: Iterable[Event]) -> None:
        for e in events:
            self.event(e)

    def event(self, e: Event) -> None:
        public = e.is_public
        if e.kind in ("sheriff_elected", "sheriff_successor"):
            self.sheriff = e.data.get("player")
        if e.kind == "death":
            self.dead[e.data.get("player")] = {**e.data, "day": e.day}
        if e.kind == "revived":
            self.dead.pop(e.data.get("player"), None)
        if not public and not self.god:
            return
        handler = getattr(self, f"_on_{e.kind}", None)
        if handler is not None:
            handler(e)
        elif public or e.kind not in _ECHOES:
            self._generic(e)

    def say(self, text: str, *, secret: bool = False) -> None:
        self.console.print(f"[dim]\\[secret][/dim] [italic]{text}[/italic]" if secret else text)

    # ------------------------------------------------------------------ public
    def _on_game_start(self, e: Event) -> None:
        players = e.data.get("players", [])
        roles = e.data.get("roles_in_play", [])
        self.console.print(Rule(f"[bold]A game of Werewolf[/bold] ({escape(str(e.data.get('preset', '')))})"))
        self.say(f"{len(players)} players around the table: " + ", ".join(_n(p) for p in players))
        if roles:
            aside = e.data.get("set_aside") or 0
            note = f" ({aside} set aside for the Thief)" if aside else ""
            self.say("The deck: " + deck_words(roles) + note)

    def _on_night_start(self, e: Event) -> None:
        self.console.print()
        self.console.print(Rule(f"[bold blue]Night {e.data.get('night', e.day)}[/bold blue]"))
        self.say("[dim]The village falls asleep.[/dim]")
        self._phase = "night"

    def _on_dawn(self, e: Event) -> None:
        self.console.print()
        self.console.print(Rule(f"[bold yellow]Day {e.data.get('day', e.day)}[/bold yellow]"))
        self.say("[dim]The village wakes up.[/dim]")
        self._phase = "dawn"

    def _on_no_death(self, e: Event) -> None:
        self.say("Nobody died during the night.")

    def _on_death(self, e: Event) -> None:
        d = e.data
        cause = d.get("cause", "")
        how = CAUSES.get(cause, f"dead ({cause})")
        role = f", and was the [bold]{escape(role_name(d['role']))}[/bold]" if d.get("role") else ""
        self.say(f"[red]✝[/red] {_n(d.get('player'))} is {how}{role}.")

    def _on_day_start(self, e: Event) -> None:
        if e.day == 0 and self._phase != "dawn":  # the forum's opening day: no night, no dawn before it
            self.console.print()
            self.console.print(Rule("[bold yellow]Day 0: the opening day[/bold yellow]"))
            self._phase = "dawn"
        alive = e.data.get("alive", [])
        self.say(f"[dim]{len(alive)} alive: {', '.join(escape(str(a)) for a in alive)}[/dim]")

    def _on_speech(self, e: Event) -> None:
        if e.data.get("last_words"):
            text = str(e.data.get("text", "")).strip()
            body = escape(text) if text else "[dim](says nothing)[/dim]"
            self.say(f"{_n(e.data.get('speaker'))} [dim](last words)[/dim]: {body}")
            return
        self._phase_title(e)
        text = str(e.data.get("text", "")).strip()
        body = escape(text) if text else "[dim](says nothing)[/dim]"
        self.say(f"{_n(e.data.get('speaker'))}: {body}")

    def _phase_title(self, e: Event) -> None:
        """The heading of a new part of the day (the campaign, the debate), once."""
        if e.phase != self._phase:
            self._phase = e.phase
            title = PHASE_TITLES.get(e.phase, e.phase.replace("_", " ").capitalize())
            self.console.print(f"[underline]{escape(title)}[/underline]")

    def _on_discussion_round(self, e: Event) -> None:
        """``discussion: parallel``: the speeches that follow were given at once."""
        self._phase_title(e)
        count = len(e.data.get("speakers") or [])
        self.say(f"[bold]Round {e.data.get('round', 1)}[/bold] [dim]— {count} speak at once, none hearing the others first[/dim]")

    def _on_bids(self, e: Event) -> None:
        """``discussion: bidding``: who wanted the floor, and who got it."""
        self._phase_title(e)
        bids = ", ".join(f"{escape(str(n))} {a}" for n, a in (e.data.get("bids") or {}).items())
        who = e.data.get("speaker")
        tail = f" → {_n(who)} speaks" if who else " → nobody wants the floor: the debate is over"
        self.say(f"[dim]Bids (turn {e.data.get('turn', 1)}): {bids}[/dim]{tail}")

    def _vote_table(self, title: str, votes: dict[str, Any], tally: dict[str, int], sheriff: str | None) -> None:
        self.console.print(f"[underline]{escape(title)}[/underline]")
        table = Table(show_edge=False, pad_edge=False)
        table.add_column("voter")
        table.add_column("votes for")
        for voter, target in votes.items():
            mark = " ★" if sheriff and voter == sheriff else ""
            table.add_row(escape(str(voter)) + mark, escape(str(target)) if target is not None else "[dim](abstains)[/dim]")
        self.console.print(table)
        if tally:
            ranked = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
            self.say("Tally: " + ", ".join(f"{_n(t)} {c}" for t, c in ranked) + (" [dim](★ Sheriff)[/dim]" if sheriff in votes else ""))
        else:
            self.say("Tally: no votes.")

    def _on_sheriff_votes(self, e: Event) -> None:
        rnd = e.data.get("round", 1)
        self._vote_table(f"Sheriff election, round {rnd}", e.data.get("votes", {}), e.data.get("tally", {}), None)

    def _on_sheriff_candidates(self, e: Event) -> None:
        names = ", ".join(_n(n) for n in e.data.get("candidates") or [])
        self.say(f"★ Running for Sheriff: {names}." if names else "★ Nobody runs for Sheriff: the badge is lost.")

    def _on_sheriff_withdrawn(self, e: Event) -> None:
        names = ", ".join(_n(n) for n in e.data.get("players") or [])
        self.say(f"★ Withdrawn from the race: {names}.")

    def _on_sheriff_lost(self, e: Event) -> None:
        self.say(f"★ The Sheriff's badge is lost ({escape(str(e.data.get('reason')))}).")

    def _on_sheriff_elected(self, e: Event) -> None:
        lot = " by drawing lots" if e.data.get("by_lot") else (" unopposed" if e.data.get("unopposed") else "")
        self.say(f"★ {_n(e.data.get('player'))} is elected Sheriff{lot}.")

    def _on_sheriff_successor(self, e: Event) -> None:
        self.say(f"★ With a dying breath, {_n(e.data.get('previous'))} names {_n(e.data.get('player'))} Sheriff.")

    def _on_vote_result(self, e: Event) -> None:
        rnd = e.data.get("round", 1)
        title = "The vote" if rnd == 1 else f"The vote, round {rnd}"
        self._vote_table(title, e.data.get("votes", {}), e.data.get("tally", {}), e.data.get("sheriff"))
        if e.data.get("phantoms"):
            self.say(f"[dim]The tally includes phantom votes: {_added(e.data['phantoms'])}.[/dim]")

    def _on_tie_broken(self, e: Event) -> None:
        target = e.data.get("target")
        if e.data.get("rule") == "lot":
            self.say(f"The tie is broken by drawing lots: {_n(target)}.")
        elif target is None:
            self.say(f"Sheriff {_n(e.data.get('by'))} voids the tied vote.")
        else:
            self.say(f"Sheriff {_n(e.data.get('by'))} breaks the tie: {_n(target)}.")

    def _on_no_elimination(self, e: Event) -> None:
        why = {"tie": "the vote is tied", "no votes": "nobody voted"}.get(e.data.get("reason"), e.data.get("reason", ""))
        self.say(f"Nobody is eliminated today ({escape(str(why))}).")

    def _on_eliminated(self, e: Event) -> None:
        self.say(f"The village has chosen: {_n(e.data.get('player'))}.")

    def _on_hunter_shot(self, e: Event) -> None:
        target = e.data.get("target")
        if target is None:
            self.say(f"Hunter {_n(e.data.get('hunter'))} holds fire.")
        else:
            self.say(f"[red]Bang![/red] Hunter {_n(e.data.get('hunter'))} shoots {_n(target)}.")

    def _on_game_end(self, e: Event) -> None:
        self.final_reveal(e.data)

    def _on_idiot_revealed(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('player'))} is voted out but shows the {_r(e.data.get('role', 'idiot'))} card: they survive, and vote no more.")

    def _on_bear_growl(self, e: Event) -> None:
        if e.data.get("growl"):
            self.say("🐻 The Bear Tamer's bear [red]growls[/red]: a werewolf sits next to the Bear Tamer.")
        else:
            self.say("🐻 The Bear Tamer's bear stays silent.")

    def _on_village_powers_lost(self, e: Event) -> None:
        cause = CAUSES.get(e.data.get("cause", ""), e.data.get("cause"))
        roles = e.data.get("roles")
        who = f"the {escape(', '.join(str(r) for r in roles))} lose their powers" if roles else "every villager loses their power"
        self.say(f"The Elder {_n(e.data.get('elder'))} died by the village's own hand ({escape(str(cause))}): {who}.")

    # ------------------------------------------------------------------ message-board Werewolf (forum)
    def _on_votes_cast(self, e: Event) -> None:
        votes = e.data.get("votes", {})
        shown = ", ".join(f"{escape(str(v))} → {escape(str(t)) if t is not None else '[dim](no vote)[/dim]'}" for v, t in votes.items())
        self.say(f"The lynch votes are posted: {shown or 'none'}.")

    def _on_vote_change(self, e: Event) -> None:
        previous, target = e.data.get("previous"), e.data.get("target")
        was = _n(previous) if previous is not None else "[dim](no vote)[/dim]"
        self.say(f"✎ {_n(e.data.get('voter'))} changes their vote: {was} → {_n(target)}.")

    def _on_sundown(self, e: Event) -> None:
        self.say("[bold]Sundown[/bold]: pencils down, the votes are final.")

    def _on_phantom_votes(self, e: Event) -> None:
        players = list(e.data.get("players") or [])
        each = " each" if len(players) > 1 else ""
        self.say(f"No vote by sundown from {_names(players)}: one phantom vote{each} at the next lynch tally.")

    def _on_lynch_cancelled(self, e: Event) -> None:
        carried = e.data.get("carried") or {}
        more = f" The phantom votes due today carry over: {_added(carried)}." if carried else ""
        self.say(f"The lynching of day {e.data.get('day', e.day)} is [bold]cancelled[/bold]: no vote today.{more}")

    def _on_celebrity_news(self, e: Event) -> None:
        self.say(f"📰 The newspaper: {_n(e.data.get('player'))}, killed by the werewolves, was the Unknown Celebrity. Today's lynching is cancelled.")

    def _on_vigilante_shot(self, e: Event) -> None:
        self.say(f"[red]Bang![/red] {_n(e.data.get('shooter'))} reveals themself as the Vigilante and shoots {_n(e.data.get('target'))}.")

    def _on_revived(self, e: Event) -> None:
        player, priest = e.data.get("player"), e.data.get("priest")
        if priest is None:
            self.say(f"✚ {_n(player)} has come back to life in the night.")
        else:
            self.say(f"✚ The Priest {_n(priest)} brings {_n(player)} back to life.")

    def _on_ghost_note(self, e: Event) -> None:
        author, reader = e.data.get("author"), e.data.get("reader")
        if reader is None:
            self.say(f"👻 A note from the late {_n(author)} is found: {_quote(e.data.get('text'))}")
        else:
            self.say(f"👻 The late {_n(author)}'s note is passed privately to {_n(reader)}: {_quote(e.data.get('text'))}", secret=True)

    def _on_extra_votes(self, e: Event) -> None:
        self.say(f"The anonymous poster adds votes to the count: {_added(e.data.get('votes'))}.")

    def _on_raven_poster(self, e: Event) -> None:
        self.say(f"📜 An anonymous poster is put up on {_n(e.data.get('target'))}'s home: 2 extra votes against them at the next vote.")

    # ------------------------------------------------------------------ the Village's buildings
    def _on_buildings(self, e: Event) -> None:
        homes = e.data.get("homes") or {}
        self.say("🏠 The buildings, for all to see: " + ", ".join(f"{_n(n)} {_b(b)}" for n, b in homes.items()) + ".")

    def _on_buildings_on_offer(self, e: Event) -> None:
        tokens = e.data.get("tokens") or {}
        self.say("The building tokens are laid face up: " + ", ".join(f"{_b(b)} ×{k}" for b, k in sorted(tokens.items())) + ".")

    def _on_building_chosen(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('player'))} takes the {_b(e.data.get('building'))} token.")

    def _on_token_returned(self, e: Event) -> None:
        d = e.data
        if d.get("reason") == "voted_out":
            self.say(f"🍺 {_n(d.get('player'))} voted against the condemned: the Tavernkeeper loses his token and his immunity.")
        else:
            self.say(f"{_n(d.get('player'))} has used the {_b(d.get('building'))}'s one-use power and returns the token.")

    def _on_token_given(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('player'))} gets the {_b(e.data.get('building'))} token back.")

    def _on_confession(self, e: Event) -> None:
        self.say(f"⛪ {_n(e.data.get('confessor'))}, the Confessor, hears {_n(e.data.get('player'))}'s confession.")

    def _on_confessed_role(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('player'))} shows the Confessor their card: the {_r(e.data.get('role'))}.", secret=True)

    def _on_bones_set(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('bonesetter'))}, the Bonesetter, restores {_n(e.data.get('player'))}'s spent power.")

    def _on_shave(self, e: Event) -> None:
        self.say(f"💈 {_n(e.data.get('barber'))}, the Barber, takes the razor to {_n(e.data.get('target'))}.")

    def _on_forbidden(self, e: Event) -> None:
        players = e.data.get("players") or []
        who = _names(players) if players else "nobody"
        self.say(f"🔔 {_n(e.data.get('schoolmistress'))}, the Schoolmistress, forbids {who} to vote today; she never votes herself.")

    def _on_home_offered(self, e: Event) -> None:
        d = e.data
        self.say(f"🔑 {_n(d.get('bailiff'))}, the Bailiff, offers {_n(d.get('former'))}'s {_home(d.get('building'))} to {_n(d.get('player'))}.")

    def _on_home_refused(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('player'))} refuses the {_home(e.data.get('building'))} and stays a Vagabond.")

    def _on_moved_in(self, e: Event) -> None:
        d = e.data
        self.say(f"{_n(d.get('player'))} moves into {_n(d.get('former'))}'s {_home(d.get('building'))} and takes that seat: now the {_b(d.get('building'))}.")

    def _on_plea(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('player'))} begs the Castellan, {_n(e.data.get('castellan'))}, for mercy.")

    def _on_pardoned(self, e: Event) -> None:
        castellan, player = e.data.get("castellan"), e.data.get("player")
        whom = "himself" if castellan == player else _n(player)
        self.say(f"🛡 {_n(castellan)}, the Castellan, pardons {whom}: no elimination, the card stays hidden.")

    def _on_pardon_refused(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('castellan'))}, the Castellan, refuses to pardon {_n(e.data.get('player'))}.")

    def _on_first_vote(self, e: Event) -> None:
        target = e.data.get("target")
        against = f"against {_n(target)}" if target is not None else "no vote"
        self.say(f"🍺 {_n(e.data.get('voter'))}, the Tavernkeeper, votes first and alone: {against}.")

    def _on_sheriff_gone(self, e: Event) -> None:
        if e.data.get("torn"):
            self.say(f"★ The dying Sheriff {_n(e.data.get('previous'))} tears the badge up: there is no longer a Sheriff.")
            return
        self.say(f"No one may succeed {_n(e.data.get('previous'))}: there is no longer a Sheriff.")

    def _on_fire(self, e: Event) -> None:
        d = e.data
        extra = " The werewolves' victim lived there: the victim is spared, and a werewolf burns." if d.get("wolf_burned") else ""
        self.say(f"🔥 At dawn {_n(d.get('player'))}'s {_home(d.get('building'))} burns down: {_n(d.get('player'))} is now a Vagabond.{extra}")

    def _on_fire_set(self, e: Event) -> None:
        self.say(f"The Arsonist sets fire to {_n(e.data.get('player'))}'s {_home(e.data.get('building'))}.", secret=True)

    def _on_baker_glimpse(self, e: Event) -> None:
        self.say(f"The Baker sees {_n(e.data.get('player'))} going home before dawn: a werewolf.", secret=True)

    # ------------------------------------------------------------------ night secrets (god mode)
    def _on_role(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('player'))} is the {escape(role_name(e.data.get('role')))}.", secret=True)

    def _on_center(self, e: Event) -> None:
        self.say("Set aside for the Thief: " + ", ".join(role_name(c) for c in e.data.get("cards", [])) + ".", secret=True)

    def _on_thief_cards(self, e: Event) -> None:
        return  # thief_swap says it all

    def _on_thief_swap(self, e: Event) -> None:
        took = e.data.get("took")
        what = f"takes the {role_name(took)} card" if took else "keeps the Thief card"
        self.say(f"Thief {_n(e.data.get('player'))} {what}.", secret=True)

    def _on_cupid_lovers(self, e: Event) -> None:
        a, b = (e.data.get("lovers") or [None, None])[:2]
        self.say(f"Cupid makes {_n(a)} and {_n(b)} fall in love.", secret=True)

    def _on_wolf_pack(self, e: Event) -> None:
        pack = list(e.data.get("wolves", []))
        if pack != self._pack:
            self._pack = pack
            self.say("The werewolves wake up: " + ", ".join(_n(w) for w in pack) + ".", secret=True)

    def _on_wolf_chat(self, e: Event) -> None:
        text = str(e.data.get("text", "")).strip()
        if text:
            self.say(f"🐺 {_n(e.data.get('speaker'))} (to the pack): {escape(text)}", secret=True)

    def _on_wolf_votes(self, e: Event) -> None:
        votes = e.data.get("votes", {})
        shown = ", ".join(f"{escape(str(w))} → {escape(str(t)) if t else '(nobody)'}" for w, t in votes.items())
        self.say(f"The pack points: {shown}.", secret=True)

    def _on_wolf_victim(self, e: Event) -> None:
        t = e.data.get("target")
        self.say(f"The werewolves choose {_n(t)}." if t else "The werewolves kill nobody tonight.", secret=True)

    def _on_little_girl_caught(self, e: Event) -> None:
        self.say(f"Little Girl {_n(e.data.get('player'))} is caught spying!", secret=True)

    def _on_seer_result(self, e: Event) -> None:
        self.say(
            f"Seer {_n(e.data.get('seer'))} sees that {_n(e.data.get('target'))} is the {escape(role_name(e.data.get('role')))}.",
            secret=True,
        )

    def _on_witch_victim(self, e: Event) -> None:
        return  # the wolves' choice was just told; the Witch's choices follow

    def _on_witch_healed(self, e: Event) -> None:
        self.say(f"The Witch saves {_n(e.data.get('target'))}.", secret=True)

    def _on_witch_poisoned(self, e: Event) -> None:
        self.say(f"The Witch poisons {_n(e.data.get('target'))}.", secret=True)

    def _on_protector_guard(self, e: Event) -> None:
        self.say(f"The Protector guards {_n(e.data.get('target'))}.", secret=True)

    def _on_sisters(self, e: Event) -> None:
        sisters = tuple(e.data.get("sisters") or ())
        if ("sisters", sisters) not in self._told:
            self._told.add(("sisters", sisters))
            self.say(f"The Sisters open their eyes: {_names(sisters)}.", secret=True)

    def _on_sister_chat(self, e: Event) -> None:
        text = str(e.data.get("text", "")).strip()
        if text:
            self.say(f"{_n(e.data.get('speaker'))} (to the Sisters): {escape(text)}", secret=True)

    def _on_fox_result(self, e: Event) -> None:
        found = "[red]a werewolf[/red] among" if e.data.get("wolf") else "no werewolf among (and loses the power)"
        self.say(f"The Fox sniffs around {_n(e.data.get('target'))}: {found} {_names(e.data.get('group'))}.", secret=True)

    def _on_wild_child_model(self, e: Event) -> None:
        self.say(f"The Wild Child chooses {_n(e.data.get('model'))} as their model.", secret=True)

    def _on_wild_child_turned(self, e: Event) -> None:
        self.say(f"The Wild Child {_n(e.data.get('player'))} lost their model {_n(e.data.get('model'))} and becomes a werewolf.", secret=True)

    def _on_wolf_hound_side(self, e: Event) -> None:
        side = "the werewolves" if e.data.get("side") == "werewolves" else "the village"
        self.say(f"The Wolf-Hound {_n(e.data.get('player'))} chooses {side}.", secret=True)

    def _on_white_werewolf_kill(self, e: Event) -> None:
        t = e.data.get("target")
        self.say(f"The White Werewolf wakes alone and kills {_n(t)}." if t else "The White Werewolf wakes alone and spares the pack.", secret=True)

    def _on_infect_father(self, e: Event) -> None:
        self._told.add(("infected", e.data.get("target")))
        self.say(f"The Infect Father infects {_n(e.data.get('target'))}: they join the pack instead of dying.", secret=True)

    def _on_infected(self, e: Event) -> None:
        if ("infected", e.data.get("player")) not in self._told:
            self.say(f"{_n(e.data.get('player'))} is infected: they now play for the werewolves.", secret=True)

    def _on_infection_failed(self, e: Event) -> None:
        self.say(f"The Infect Father's infection of {_n(e.data.get('target'))} fails: the Elder cannot be infected.", secret=True)

    def _on_big_bad_wolf_victim(self, e: Event) -> None:
        self.say(f"The Big Bad Wolf devours a second victim: {_n(e.data.get('target'))}.", secret=True)

    def _on_pied_piper_charm(self, e: Event) -> None:
        for t in e.data.get("targets") or []:
            self._told.add(("charmed", t))
        self.say(f"The Pied Piper charms {_names(e.data.get('targets'))}.", secret=True)

    def _on_charmed(self, e: Event) -> None:
        if ("charmed", e.data.get("player")) not in self._told:
            self.say(f"{_n(e.data.get('player'))} is charmed by the Pied Piper.", secret=True)

    def _on_charmed_players(self, e: Event) -> None:
        players = tuple(e.data.get("players") or ())
        if ("charmed_players", (e.day, players)) not in self._told:
            self._told.add(("charmed_players", (e.day, players)))
            self.say(f"The charmed open their eyes: {_names(players)}.", secret=True)

    def _on_hypnotised(self, e: Event) -> None:
        self.say(f"The werewolves hypnotise {_n(e.data.get('player'))}: their power is gone.", secret=True)

    def _on_cupid_paramours(self, e: Event) -> None:
        d = e.data
        self._told.add(("paramours", d.get("deceiver")))
        self._told.add(("paramours", d.get("paramour")))
        self.say(
            f"Cupid's second arrow: {_n(d.get('deceiver'))} deceives {_n(d.get('abandoned'))} with {_n(d.get('paramour'))}.",
            secret=True,
        )

    def _on_paramours(self, e: Event) -> None:
        lover = e.data.get("lover")
        if ("paramours", lover) not in self._told:
            self._told.add(("paramours", lover))
            self._told.add(("paramours", e.data.get("paramour")))
            self.say(f"Cupid's second arrow: {_n(lover)} and {_n(e.data.get('paramour'))} are paramours.", secret=True)

    def _on_angel_villager(self, e: Event) -> None:
        why = "has fallen in love" if e.data.get("reason") == "love" else "survived the first round"
        self.say(f"The Angel {_n(e.data.get('player'))} {why}: from now on a plain villager.", secret=True)

    def _on_elder_life(self, e: Event) -> None:
        self.say(f"The Elder {_n(e.data.get('player'))} survives an attack: {escape(str(e.data.get('lives')))} life left.", secret=True)

    def _on_rusty_sword(self, e: Event) -> None:
        self.say(f"The Rusty Knight {_n(e.data.get('knight'))}'s sword infects {_n(e.data.get('wolf'))}: dead at the next nightfall.", secret=True)

    # ------------------------------------------------------------------ forum secrets
    def _on_coroner_report(self, e: Event) -> None:
        cause = CAUSES.get(e.data.get("cause", ""), e.data.get("cause"))
        self.say(f"The Coroner learns that {_n(e.data.get('target'))} ({escape(str(cause))}) was the {_r(e.data.get('role'))}.", secret=True)

    def _on_seer_spotted(self, e: Event) -> None:
        who = f", {_n(e.data.get('player'))}," if e.data.get("player") else ""
        self.say(f"The Host tells the pack that the {_r(e.data.get('role'))}{who} used their power tonight.", secret=True)

    def _on_pack_leader_sniff(self, e: Event) -> None:
        what = "holds an Auxiliary Role" if e.data.get("auxiliary") else "holds no Auxiliary Role"
        if e.data.get("role"):
            what = f"is the {_r(e.data['role'])}"
        self.say(f"The Pack Leader sniffs {_n(e.data.get('target'))}: {what}.", secret=True)

    def _on_forum_seer_sense(self, e: Event) -> None:
        n = e.data.get("wolves", 0)
        self.say(f"The Seer senses {n} werewol{'f' if n == 1 else 'ves'} still alive.", secret=True)

    def _on_psychic_result(self, e: Event) -> None:
        self.say(f"The Psychic reads {_n(e.data.get('target'))}: the {_r(e.data.get('role'))}.", secret=True)

    def _on_insomniac_saw(self, e: Event) -> None:
        wolf = e.data.get("wolf")
        if wolf is None:
            self.say("The Insomniac lies awake and sees no werewolf.", secret=True)
            return
        self._told.add(("insomniac_seen", (e.day, _only(e))))
        self.say(f"The Insomniac lies awake and sees werewolf {_n(wolf)}, who sees them too.", secret=True)

    def _on_insomniac_seen(self, e: Event) -> None:
        if ("insomniac_seen", (e.day, e.data.get("insomniac"))) not in self._told:
            wolf = _only(e)
            who = f"Werewolf {_n(wolf)}" if wolf else "A werewolf"
            self.say(f"{who} is seen by the Insomniac {_n(e.data.get('insomniac'))}, and sees them back.", secret=True)

    def _on_ninja_saw(self, e: Event) -> None:
        seen = e.data.get("seen") or {}
        up = ", ".join(f"{_n(n)} ({escape(role_name(r))})" for n, r in seen.items())
        extra = f"; on the way they see {up}" if up else ""
        self.say(f"The Ninja goes after {_n(e.data.get('target'))}{extra}.", secret=True)

    def _on_gun_found(self, e: Event) -> None:
        self.say(f"{_n(e.data.get('player'))} finds the late Vigilante {_n(e.data.get('previous'))}'s gun, its bullet unused.", secret=True)

    def _on_guardian_angel_saved(self, e: Event) -> None:
        if e.data.get("angel"):  # a save that blows her cover (004): public
            self.say(f"The Guardian Angel {_n(e.data['angel'])} blows their cover: their protection saves {_n(e.data.get('target'))}.")
            return
        self.say(f"The Guardian Angel's protection saves {_n(e.data.get('target'))}.", secret=True)

    def _on_priest_revive(self, e: Event) -> None:
        self.say(f"It is the Priest who brought {_n(e.data.get('target'))} back.", secret=True)

    def _on_mad_scientist_dose(self, e: Event) -> None:
        self.say(f"The Mad Scientist doses {_n(e.data.get('target'))}.", secret=True)

    def _on_mutated(self, e: Event) -> None:
        self.say(f"The potion changes {_n(e.data.get('player'))}: now the {_r(e.data.get('role'))}.", secret=True)

    def _generic(self, e: Event) -> None:
        details = ", ".join(f"{escape(str(k))}={escape(str(v))}" for k, v in e.data.items())
        self.say(f"[dim]{escape(e.kind)}[/dim] {details}".rstrip(), secret=not e.is_public)

    # ------------------------------------------------------------------ the end
    def final_reveal(self, data: dict[str, Any]) -> None:
        """Every card turned over: who was what, who lived, who won."""
        winner = data.get("winner", "none")
        winners = set(data.get("winners", []))
        roles = data.get("roles", {})
        initial = data.get("initial_roles", roles)
        lovers = set(data.get("lovers") or [])
        self.console.print()
        self.console.print(Rule("[bold]The cards are revealed[/bold]"))
        table = Table(show_edge=False, pad_edge=False)
        for col in ("player", "initial role", "final role", "fate", "marks", "won"):
            table.add_column(col)
        for name in roles:
            dead = self.dead.get(name)
            fate = f"[red]dead[/red] (day {dead['day']}, {escape(str(dead.get('cause')))})" if dead else "[green]alive[/green]"
            marks = ("♥ lover " if name in lovers else "") + ("★ sheriff" if name == self.sheriff else "")
            table.add_row(
                escape(str(name)),
                escape(role_name(initial.get(name))),
                escape(role_name(roles.get(name))),
                fate,
                marks.strip(),
                "✓" if name in winners else "",
            )
        self.console.print(table)
        title = WINNER_TITLES.get(winner, f"{winner.replace('_', ' ').capitalize()} wins")
        reason = data.get("reason")
        self.console.print(f"[bold green]{escape(title)}[/bold green]" + (f" — {escape(str(reason))}." if reason else "."))
        if winners:
            self.say("Winners: " + ", ".join(_n(w) for w in roles if w in winners) + ".")
