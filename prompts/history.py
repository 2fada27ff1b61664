"""A seat's history: one entry per event it was shown, from its point of view.

Why one entry per event, rendered from that event alone: the agent re-sends the
history on every call and providers cache prompt prefixes, so an entry must never
change once written (append-only). Rendering each event without looking ahead makes
that true by construction, and the engine has already filtered the events, so the
text can only say what the seat was shown.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from engine.events import Event
from prompts.catalog import Catalog, catalog
from prompts.quoting import quote

Renderer = Callable[["_Reader", Event], str]


class _Reader:
    """The seat reading its history: knows who "you" are and the language, and how a
    player's own words are written: for a model, one JSON string on one line that no
    content can end early (``prompts.quoting``); for a person (``display``), as said,
    inside the language's quotation marks."""

    def __init__(self, cat: Catalog, seat: str, display: bool = False):
        self.cat = cat
        self.seat = seat
        self.display = display

    def said(self, text: Any) -> str:
        """A player's words (a speech, night talk, a note), quoted."""
        words = "" if text is None else str(text)
        return self.cat.text("terms.display_quote", text=words) if self.display else quote(words)

    def free(self, value: Any) -> str:
        """Any other text a player or an agent chose (a claim's extra key): quoted for a
        model, as it is for a person."""
        return str(value) if self.display else quote(value)

    def t(self, path: str, **values: Any) -> str:
        return self.cat.text(f"events.{path}", **values)

    def who(self, name: Any) -> str:
        if name == self.seat:
            return self.cat.text("terms.you")
        return "?" if name is None else str(name)

    def names(self, names: Any) -> str:
        return self.cat.join(self.who(n) for n in (names or []))

    def role(self, role: Any) -> str:
        return self.cat.role_name(role)

    def side(self, name: Any) -> str:
        """The variant key for a sentence whose subject may be the reader."""
        return "self" if name == self.seat else "other"

    def votes(self, votes: dict) -> str:
        items = []
        for voter, target in (votes or {}).items():
            if target is None:
                items.append(self.t("vote_abstain", voter=self.who(voter)))
            else:
                items.append(self.t("vote_item", voter=self.who(voter), target=self.who(target)))
        return self.cat.table(items)

    def added(self, counts: dict) -> str:
        """Votes the count adds by itself (phantom votes, a poster's extra votes)."""
        ordered = sorted((counts or {}).items(), key=lambda kv: (-kv[1], str(kv[0])))
        return self.cat.table(self.t("added_item", name=self.who(n), count=c) for n, c in ordered)

    def tally(self, tally: dict) -> str:
        ordered = sorted((tally or {}).items(), key=lambda kv: (-kv[1], str(kv[0])))
        return self.cat.table(self.t("tally_item", name=self.who(n), count=c) for n, c in ordered)


def _when(cat: Catalog, e: Event) -> str:
    path = f"terms.when.{e.phase}"
    return cat.text(path if cat.has(path) else "terms.when.default", n=e.day)


# ---------------------------------------------------------------------------- per kind
def _game_start(r: _Reader, e: Event) -> str:
    d = e.data
    counts = Counter(d.get("roles_in_play") or [])
    cards = []
    for role, n in counts.items():
        key = "card_one" if n == 1 else "card_many"
        cards.append(r.t(key, name=r.role(role), count=n))
    set_aside = d.get("set_aside") or 0
    extra = r.t("game_start_set_aside", n=set_aside) if set_aside else ""
    return r.t("game_start", count=len(d.get("players") or []), cards=r.cat.join(cards), set_aside=extra)


def _role(r: _Reader, e: Event) -> str:
    which = "initial" if e.phase == "setup" else "changed"
    player = e.data.get("player")
    return r.t(f"role.{which}.{r.side(player)}", player=r.who(player), role=r.role(e.data.get("role")))


def _center(r: _Reader, e: Event) -> str:
    return r.t("center", cards=r.cat.join(r.role(c) for c in e.data.get("cards") or []))


def _thief_cards(r: _Reader, e: Event) -> str:
    return r.t("thief_cards", cards=r.cat.join(r.role(c) for c in e.data.get("cards") or []))


def _thief_swap(r: _Reader, e: Event) -> str:
    player, took = e.data.get("player"), e.data.get("took")
    which = "kept" if took is None else "took"
    return r.t(f"thief_swap.{which}.{r.side(player)}", player=r.who(player), role=r.role(took))


def _cupid_lovers(r: _Reader, e: Event) -> str:
    a, b = (list(e.data.get("lovers") or []) + [None, None])[:2]
    if r.seat in (a, b):
        return r.t("cupid_lovers.self", other=r.who(b if a == r.seat else a))
    return r.t("cupid_lovers.other", a=r.who(a), b=r.who(b))


def _lovers(r: _Reader, e: Event) -> str:
    lover, beloved = e.data.get("lover"), e.data.get("beloved")
    return r.t(f"lovers.{r.side(lover)}", lover=r.who(lover), beloved=r.who(beloved))


def _seer_result(r: _Reader, e: Event) -> str:
    d = e.data
    return r.t(f"seer_result.{r.side(d.get('seer'))}", seer=r.who(d.get("seer")), target=r.who(d.get("target")), role=r.role(d.get("role")))


def _wolf_pack(r: _Reader, e: Event) -> str:
    wolves = list(e.data.get("wolves") or [])
    if r.seat in wolves:
        others = [w for w in wolves if w != r.seat]
        return r.t("wolf_pack.self", others=r.names(others)) if others else r.t("wolf_pack.alone")
    return r.t("wolf_pack.other", wolves=r.names(wolves))


def _wolf_chat(r: _Reader, e: Event) -> str:
    d = e.data
    target = r.t("wolf_chat.target", target=r.who(d["target"])) if d.get("target") else ""
    speaker = d.get("speaker")
    return r.t(f"wolf_chat.{r.side(speaker)}", speaker=r.who(speaker), text=r.said(d.get("text", "")), target=target)


def _wolf_chat_overheard(r: _Reader, e: Event) -> str:
    return r.t("wolf_chat_overheard", text=r.said(e.data.get("text", "")))


def _little_girl_caught(r: _Reader, e: Event) -> str:
    player = e.data.get("player")
    return r.t(f"little_girl_caught.{r.side(player)}", player=r.who(player))


def _wolf_votes(r: _Reader, e: Event) -> str:
    return r.t("wolf_votes", votes=r.votes(e.data.get("votes") or {}), attempt=e.data.get("attempt", 1))


def _wolf_votes_overheard(r: _Reader, e: Event) -> str:
    targets = [t for t in e.data.get("targets") or [] if t is not None]
    attempt = e.data.get("attempt", 1)
    if not targets:
        return r.t("wolf_votes_overheard.none", attempt=attempt)
    return r.t("wolf_votes_overheard.some", targets=r.names(targets), attempt=attempt)


def _victim(path: str) -> Renderer:
    def render(r: _Reader, e: Event) -> str:
        target = e.data.get("target")
        if target is None:
            return r.t(f"{path}.none")
        return r.t(f"{path}.some", target=r.who(target))

    return render


def _witch_victim(r: _Reader, e: Event) -> str:
    victim = e.data.get("victim")
    if victim is None:
        return r.t("witch_victim.none")
    if victim == r.seat:
        return r.t("witch_victim.self")
    return r.t("witch_victim.some", target=r.who(victim))


def _witch_healed(r: _Reader, e: Event) -> str:
    target = e.data.get("target")
    return r.t(f"witch_healed.{r.side(target)}", target=r.who(target))


def _witch_poisoned(r: _Reader, e: Event) -> str:
    return r.t("witch_poisoned", target=r.who(e.data.get("target")))


def _death(r: _Reader, e: Event) -> str:
    d = e.data
    player = d.get("player")
    side = r.side(player)
    if "role" in d:
        card = r.t(f"death.card.{side}", player=r.who(player), role=r.role(d["role"]))
    else:
        card = r.t("death.card.hidden")
    return r.t(f"death.{side}", player=r.who(player), cause=r.cat.word("causes", d.get("cause")), card=card)


def _day_start(r: _Reader, e: Event) -> str:
    d = e.data
    sheriff = d.get("sheriff")
    key = "none" if sheriff is None else r.side(sheriff)
    alive = list(d.get("alive") or [])
    return r.t(
        "day_start",
        n=d.get("day", e.day),
        count=len(alive),
        alive=r.names(alive),
        sheriff=r.t(f"day_start_sheriff.{key}", sheriff=r.who(sheriff)),
    )


def _claims(r: _Reader, claims: Any) -> str:
    """Public claims travel beside a speech; shown so lies can be weighed against them.
    Known keys get words; anything else (another agent's extra keys) shows as it is."""
    if not claims:
        return ""
    items: list[str] = []
    if isinstance(claims, dict):
        for key, value in claims.items():
            if value in (None, "", [], {}):
                continue
            if key == "role":
                items.append(r.t("claims.role", role=r.role(value)))
            elif key == "checks" and isinstance(value, list):
                checks = []
                for c in value:
                    if isinstance(c, dict):
                        checks.append(r.t("claims.check", target=r.who(c.get("target")), role=r.role(c.get("role"))))
                    else:
                        checks.append(r.free(_plain(c)))
                items.append(r.t("claims.checks", checks=r.cat.join(checks)))
            elif key == "accuses" and isinstance(value, list):
                items.append(r.t("claims.accuses", names=r.names(value)))
            else:
                items.append(r.t("claims.item", key=r.free(key), value=r.free(_plain(value))))
    else:
        items.append(r.free(_plain(claims)))
    if not items:
        return ""
    return r.t("claims.wrap", items=r.cat.get("events.claims.sep").join(items))


def _speech(r: _Reader, e: Event) -> str:
    d = e.data
    speaker = d.get("speaker")
    text = str(d.get("text") or "")
    claims = _claims(r, d.get("claims"))
    if d.get("last_words"):
        return r.t(f"last_words.{r.side(speaker)}", speaker=r.who(speaker), text=r.said(text), claims=claims)
    if not text.strip():
        return r.t(f"speech.silent.{r.side(speaker)}", speaker=r.who(speaker), claims=claims)
    return r.t(f"speech.{r.side(speaker)}", speaker=r.who(speaker), text=r.said(text), claims=claims)


def _bids(r: _Reader, e: Event) -> str:
    """The bids for the floor (``discussion: bidding``), in the order that broke a tie."""
    d = e.data
    bids = r.cat.table(r.t("bid_item", name=r.who(n), amount=a) for n, a in (d.get("bids") or {}).items())
    speaker = d.get("speaker")
    tail = r.t("bids.none") if speaker is None else r.t(f"bids.{r.side(speaker)}", speaker=r.who(speaker))
    return r.t("bids.heading", turn=d.get("turn", 1), bids=bids) + tail


def _doubled(d: dict) -> bool:
    """Did the Sheriff's vote count twice? Read from the tally itself, so the history
    needs no rule options and shows exactly what was counted."""
    sheriff = d.get("sheriff")
    votes = d.get("votes") or {}
    pick = votes.get(sheriff) if sheriff else None
    if pick is None:
        return False
    plain = sum(1 for t in votes.values() if t == pick)
    return (d.get("tally") or {}).get(pick, plain) > plain


def _vote_result(r: _Reader, e: Event) -> str:
    d = e.data
    double = r.t("vote_double") if _doubled(d) else ""
    phantoms = r.t("vote_phantoms", phantoms=r.added(d["phantoms"])) if d.get("phantoms") else ""
    return r.t(
        "vote_result",
        round=d.get("round", 1),
        votes=r.votes(d.get("votes")),
        tally=r.tally(d.get("tally")),
        double=double,
        phantoms=phantoms,
    )


def _sheriff_votes(r: _Reader, e: Event) -> str:
    d = e.data
    return r.t("sheriff_votes", round=d.get("round", 1), votes=r.votes(d.get("votes")), tally=r.tally(d.get("tally")))


def _sheriff_elected(r: _Reader, e: Event) -> str:
    player = e.data.get("player")
    lot = r.t("sheriff_elected.lot") if e.data.get("by_lot") else ""
    if e.data.get("unopposed"):  # 狼人杀 candidacy: the last candidate standing
        lot = r.t("sheriff_elected.unopposed")
    return r.t(f"sheriff_elected.{r.side(player)}", player=r.who(player), lot=lot)


def _sheriff_gone(r: _Reader, e: Event) -> str:
    previous = e.data.get("previous")
    if e.data.get("torn"):  # 撕警徽
        return r.t("sheriff_gone.torn_self" if previous == r.seat else "sheriff_gone.torn", previous=r.who(previous))
    return r.t("sheriff_gone.other", previous=r.who(previous))


def _sheriff_successor(r: _Reader, e: Event) -> str:
    previous, player = e.data.get("previous"), e.data.get("player")
    key = "previous_self" if previous == r.seat else r.side(player)
    return r.t(f"sheriff_successor.{key}", previous=r.who(previous), player=r.who(player))


def _hunter_shot(r: _Reader, e: Event) -> str:
    hunter, target = e.data.get("hunter"), e.data.get("target")
    key = r.side(hunter)
    if target is None:
        key = "self_none" if key == "self" else "none"
    return r.t(f"hunter_shot.{key}", hunter=r.who(hunter), target=r.who(target))


def _tie_broken(r: _Reader, e: Event) -> str:
    rule, target, by = e.data.get("rule"), e.data.get("target"), e.data.get("by")
    key = rule if r.cat.has(f"events.tie_broken.{rule}") else "other"
    if rule == "choose" and target is None:
        key = "choose_void"
    return r.t(f"tie_broken.{key}", by=r.who(by), target=r.who(target))


def _no_elimination(r: _Reader, e: Event) -> str:
    reason = e.data.get("reason")
    key = reason if r.cat.has(f"events.no_elimination.{reason}") else "other"
    return r.t(f"no_elimination.{key}")


def _eliminated(r: _Reader, e: Event) -> str:
    player = e.data.get("player")
    return r.t(f"eliminated.{r.side(player)}", player=r.who(player))


def _end_reason(cat: Catalog, reason: str) -> str:
    """The engine states its reason in English; read it in the prompt's language.
    The day limit carries a number, matched as ``N``."""
    digits = "".join(ch for ch in reason if ch.isdigit())
    key = reason.replace(digits, "N") if digits else reason
    found = cat.get("terms.end_reasons")
    if isinstance(found, dict) and key in found:
        return cat.fill(found[key], n=digits)
    return reason


def _game_end(r: _Reader, e: Event) -> str:
    d = e.data
    winner = d.get("winner")
    cat = r.cat
    path = f"terms.winners.{winner}"
    headline = cat.text(path if cat.has(path) else "terms.winners.other", winner=winner)
    initial = d.get("initial_roles") or {}
    cards = []
    for player, role in (d.get("roles") or {}).items():
        first = initial.get(player, role)
        if first != role:
            cards.append(r.t("game_end_card_changed", player=r.who(player), role=r.role(role), initial=r.role(first)))
        else:
            cards.append(r.t("game_end_card", player=r.who(player), role=r.role(role)))
    lovers = d.get("lovers")
    lovers_text = r.t("game_end_lovers", a=r.who(lovers[0]), b=r.who(lovers[1])) if lovers and len(lovers) == 2 else ""
    return r.t(
        "game_end",
        winner=headline,
        reason=_end_reason(cat, str(d.get("reason", ""))),
        winners=r.names(d.get("winners") or []),
        cards=cat.table(cards),
        lovers=lovers_text,
    )


# ------------------------------------------------------------------ Best of and 狼人杀 roles
def _protector_guard(r: _Reader, e: Event) -> str:
    target = e.data.get("target")
    return r.t(f"protector_guard.{r.side(target)}", target=r.who(target))


def _sisters(r: _Reader, e: Event) -> str:
    others = [n for n in e.data.get("sisters") or [] if n != r.seat]
    return r.t("sisters", others=r.names(others))


def _sister_chat(r: _Reader, e: Event) -> str:
    speaker = e.data.get("speaker")
    return r.t(f"sister_chat.{r.side(speaker)}", speaker=r.who(speaker), text=r.said(e.data.get("text", "")))


def _fox_result(r: _Reader, e: Event) -> str:
    d = e.data
    key = "wolf" if d.get("wolf") else "clear"
    return r.t(f"fox_result.{key}", target=r.who(d.get("target")), group=r.names(d.get("group")))


def _white_werewolf_kill(r: _Reader, e: Event) -> str:
    target = e.data.get("target")
    return r.t("white_werewolf_kill.none") if target is None else r.t("white_werewolf_kill.some", target=r.who(target))


def _angel_villager(r: _Reader, e: Event) -> str:
    reason = e.data.get("reason")
    return r.t(f"angel_villager.{'love' if reason == 'love' else 'first_round'}")


def _bear_growl(r: _Reader, e: Event) -> str:
    return r.t(f"bear_growl.{'true' if e.data.get('growl') else 'false'}")


def _idiot_revealed(r: _Reader, e: Event) -> str:
    player = e.data.get("player")
    return r.t(f"idiot_revealed.{r.side(player)}", player=r.who(player), role=r.role(e.data.get("role", "idiot")))


# ------------------------------------------------------------------ message-board Werewolf (forum)
def _vote_change(r: _Reader, e: Event) -> str:
    d = e.data
    voter, previous, target = d.get("voter"), d.get("previous"), d.get("target")
    side = r.side(voter)

    def pick(name: Any) -> str:  # a vote for oneself reads "yourself" / "themself"
        if name is not None and name == voter:
            return r.t("vote_change.yourself" if side == "self" else "vote_change.themself")
        return r.who(name)

    key = f"vote_change.fresh.{side}" if previous is None else f"vote_change.{side}"
    return r.t(key, voter=r.who(voter), previous=pick(previous), target=pick(target), round=d.get("round", 1))


def _phantom_votes(r: _Reader, e: Event) -> str:
    players = list(e.data.get("players") or [])
    if r.seat in players:
        others = [p for p in players if p != r.seat]
        more = r.t("phantom_votes.others", players=r.names(others)) if others else ""
        return r.t("phantom_votes.self", others=more)
    return r.t(f"phantom_votes.{'one' if len(players) == 1 else 'many'}", players=r.names(players))


def _lynch_cancelled(r: _Reader, e: Event) -> str:
    carried = e.data.get("carried") or {}
    more = r.t("lynch_cancelled_carried", phantoms=r.added(carried)) if carried else ""
    return r.t("lynch_cancelled", n=e.data.get("day", e.day), carried=more)


def _celebrity_news(r: _Reader, e: Event) -> str:
    player = e.data.get("player")
    return r.t(f"celebrity_news.{r.side(player)}", player=r.who(player), n=e.data.get("day", e.day))


def _vigilante_shot(r: _Reader, e: Event) -> str:
    shooter = e.data.get("shooter")
    return r.t(f"vigilante_shot.{r.side(shooter)}", shooter=r.who(shooter), target=r.who(e.data.get("target")))


def _revived(r: _Reader, e: Event) -> str:
    player, priest = e.data.get("player"), e.data.get("priest")
    if priest is None:  # by night: the table is not told who brought them back
        return r.t(f"revived.night.{r.side(player)}", player=r.who(player))
    key = "priest_self" if priest == r.seat else r.side(player)
    return r.t(f"revived.day.{key}", player=r.who(player), priest=r.who(priest))


def _ghost_note(r: _Reader, e: Event) -> str:
    d = e.data
    author, reader = d.get("author"), d.get("reader")
    text = r.said(d.get("text") or "")
    if "reader" not in d:
        return r.t(f"ghost_note.public.{r.side(author)}", author=r.who(author), text=text)
    key = "author" if author == r.seat else "reader" if reader == r.seat else "other"
    return r.t(f"ghost_note.private.{key}", author=r.who(author), reader=r.who(reader), text=text)


def _coroner_report(r: _Reader, e: Event) -> str:
    d = e.data
    return r.t("coroner_report", target=r.who(d.get("target")), cause=r.cat.word("causes", d.get("cause")), role=r.role(d.get("role")))


def _forum_seer_sense(r: _Reader, e: Event) -> str:
    count = int(e.data.get("wolves") or 0)
    key = "none" if count == 0 else "one" if count == 1 else "many"
    return r.t(f"forum_seer_sense.{key}", count=count)


def _psychic_result(r: _Reader, e: Event) -> str:
    target = e.data.get("target")
    return r.t(f"psychic_result.{r.side(target)}", target=r.who(target), role=r.role(e.data.get("role")))


def _insomniac_saw(r: _Reader, e: Event) -> str:
    wolf = e.data.get("wolf")
    return r.t("insomniac_saw.none") if wolf is None else r.t("insomniac_saw.some", wolf=r.who(wolf))


def _ninja_saw(r: _Reader, e: Event) -> str:
    seen = e.data.get("seen") or {}
    target = r.who(e.data.get("target"))
    if not seen:
        return r.t("ninja_saw.none", target=target)
    items = [r.t("ninja_saw.item", player=r.who(n), role=r.role(role)) for n, role in seen.items()]
    return r.t("ninja_saw.some", target=target, seen=r.cat.join(items))


def _guardian_angel_saved(r: _Reader, e: Event) -> str:
    target, angel = e.data.get("target"), e.data.get("angel")
    if angel is not None and angel != r.seat:  # a save that blew her cover (004)
        return r.t("guardian_angel_saved.public", angel=r.who(angel), target=r.who(target))
    return r.t(f"guardian_angel_saved.{r.side(target)}", target=r.who(target))


def _pack_leader_sniff(r: _Reader, e: Event) -> str:
    target = r.who(e.data.get("target"))
    if e.data.get("role"):  # "In really big games, he might even be told what it is"
        return r.t("pack_leader_sniff.exact", target=target, role=r.role(e.data["role"]))
    return r.t(f"pack_leader_sniff.{'true' if e.data.get('auxiliary') else 'false'}", target=target)


# ------------------------------------------------------------------ the Village
def _raven_poster(r: _Reader, e: Event) -> str:
    target = e.data.get("target")
    return r.t(f"raven_poster.{r.side(target)}", target=r.who(target))


def _title(r: _Reader, building: Any) -> str:
    return r.cat.word("buildings", building)


def _home(r: _Reader, building: Any) -> str:
    return r.cat.word("homes", building)


def _buildings(r: _Reader, e: Event) -> str:
    homes = e.data.get("homes") or {}
    listed = r.cat.join(r.t("buildings.item", player=r.who(n), title=_title(r, b)) for n, b in homes.items())
    text = r.t("buildings.all", homes=listed)
    mine = homes.get(r.seat)
    if mine == "vagabond":
        text += r.t("buildings.vagabond")
    elif mine:
        text += r.t("buildings.mine", title=_title(r, mine), home=_home(r, mine))
    return text


def _tokens(r: _Reader, tokens: Any) -> str:
    return r.cat.join(f"{_title(r, b)} × {k}" for b, k in sorted((tokens or {}).items()))


def _by_player(kind: str, *roles: str) -> Renderer:
    """A Village event told from the first of ``roles`` who is the reader (``self_<role>``),
    else from outside (``other``); every name and the building's words filled in."""

    def render(r: _Reader, e: Event) -> str:
        d = e.data
        variant = next((f"self_{k}" for k in roles if d.get(k) == r.seat), "other")
        values = {k: r.who(v) for k, v in d.items() if isinstance(v, str) and k not in ("building", "reason", "role")}
        if "building" in d:
            values.update(title=_title(r, d["building"]), home=_home(r, d["building"]))
        if "role" in d:
            values["role"] = r.role(d["role"])
        if "players" in d:
            values["players"] = r.names(d["players"])
        return r.t(f"{kind}.{variant}", **values)

    return render


def _token_returned(r: _Reader, e: Event) -> str:
    reason = "voted_out" if e.data.get("reason") == "voted_out" else "used"
    return _by_player(f"token_returned.{reason}", "player")(r, e)


def _forbidden(r: _Reader, e: Event) -> str:
    kind = "forbidden" if e.data.get("players") else "forbidden_none"
    return _by_player(kind, "schoolmistress")(r, e)


def _first_vote(r: _Reader, e: Event) -> str:
    kind = "first_vote" if e.data.get("target") is not None else "first_vote_none"
    return _by_player(kind, "voter")(r, e)


def _fire(r: _Reader, e: Event) -> str:
    text = _by_player("fire", "player")(r, e)
    return text + r.t("fire_wolf") if e.data.get("wolf_burned") else text


def _plain(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _generic_value(r: _Reader, value: Any) -> str:
    """A future event's value: numbers and truth values as they are, any text quoted
    (it may be a player's words; the engine's own ids read fine in quotes too)."""
    if isinstance(value, (bool, int, float)) or value is None:
        return _plain(value)
    return r.free(_plain(value))


def _generic(r: _Reader, e: Event) -> str:
    """A future role's event: shown as its kind and data rather than hidden, since the
    engine already decided this seat may see it."""
    kind = e.kind.replace("_", " ")
    data = e.data or {}
    if not data:
        return r.t("generic_empty", kind=kind)
    items = [r.t("generic_item", key=str(k).replace("_", " "), value=r.who(v) if v == r.seat else _generic_value(r, v)) for k, v in data.items()]
    return r.t("generic", kind=kind, details="; ".join(items))


RENDERERS: dict[str, Renderer] = {
    "game_start": _game_start,
    "role": _role,
    "center": _center,
    "thief_cards": _thief_cards,
    "thief_swap": _thief_swap,
    "cupid_lovers": _cupid_lovers,
    "lovers": _lovers,
    "seer_result": _seer_result,
    "wolf_pack": _wolf_pack,
    "wolf_chat": _wolf_chat,
    "wolf_chat_overheard": _wolf_chat_overheard,
    "little_girl_caught": _little_girl_caught,
    "wolf_votes": _wolf_votes,
    "wolf_votes_overheard": _wolf_votes_overheard,
    "wolf_victim": _victim("wolf_victim"),
    "wolf_victim_overheard": _victim("wolf_victim_overheard"),
    "witch_victim": _witch_victim,
    "witch_healed": _witch_healed,
    "witch_poisoned": _witch_poisoned,
    "night_start": lambda r, e: r.t("night_start"),
    "dawn": lambda r, e: r.t("dawn"),
    "death": _death,
    "no_death": lambda r, e: r.t("no_death"),
    "day_start": _day_start,
    "speech": _speech,
    "discussion_round": lambda r, e: r.t("discussion_round", round=e.data.get("round", 1), speakers=r.names(e.data.get("speakers"))),
    "bids": _bids,
    "vote_result": _vote_result,
    "sheriff_votes": _sheriff_votes,
    "sheriff_elected": _sheriff_elected,
    "sheriff_successor": _sheriff_successor,
    "hunter_shot": _hunter_shot,
    "tie_broken": _tie_broken,
    "no_elimination": _no_elimination,
    "eliminated": _eliminated,
    "game_end": _game_end,
    "protector_guard": _protector_guard,
    "sisters": _sisters,
    "sister_chat": _sister_chat,
    "fox_result": _fox_result,
    "wild_child_model": lambda r, e: r.t("wild_child_model", model=r.who(e.data.get("model"))),
    "wild_child_turned": lambda r, e: r.t("wild_child_turned", model=r.who(e.data.get("model"))),
    "wolf_hound_side": lambda r, e: r.t(f"wolf_hound_side.{'werewolves' if e.data.get('side') == 'werewolves' else 'village'}"),
    "white_werewolf_kill": _white_werewolf_kill,
    "infect_father": lambda r, e: r.t("infect_father", target=r.who(e.data.get("target"))),
    "infected": lambda r, e: r.t("infected"),
    "infection_failed": lambda r, e: r.t("infection_failed", target=r.who(e.data.get("target"))),
    "big_bad_wolf_victim": lambda r, e: r.t("big_bad_wolf_victim", target=r.who(e.data.get("target"))),
    "pied_piper_charm": lambda r, e: r.t("pied_piper_charm", targets=r.names(e.data.get("targets"))),
    "charmed": lambda r, e: r.t("charmed"),
    "charmed_players": lambda r, e: r.t("charmed_players", players=r.names(e.data.get("players"))),
    "hypnotised": lambda r, e: r.t("hypnotised"),
    "cupid_paramours": lambda r, e: r.t(
        "cupid_paramours",
        deceiver=r.who(e.data.get("deceiver")),
        paramour=r.who(e.data.get("paramour")),
        abandoned=r.who(e.data.get("abandoned")),
    ),
    "paramours": lambda r, e: r.t("paramours", paramour=r.who(e.data.get("paramour"))),
    "angel_villager": _angel_villager,
    "bear_growl": _bear_growl,
    "idiot_revealed": _idiot_revealed,
    "village_powers_lost": lambda r, e: r.t(
        "village_powers_lost_listed" if e.data.get("roles") else "village_powers_lost",
        elder=r.who(e.data.get("elder")),
        cause=r.cat.word("causes", e.data.get("cause")),
        roles=r.cat.join(r.role(x) for x in e.data.get("roles") or ()),
    ),
    "elder_life": lambda r, e: r.t("elder_life", player=r.who(e.data.get("player")), lives=e.data.get("lives")),
    "rusty_sword": lambda r, e: r.t("rusty_sword", knight=r.who(e.data.get("knight")), wolf=r.who(e.data.get("wolf"))),
    # message-board Werewolf (forum)
    "votes_cast": lambda r, e: r.t("votes_cast", votes=r.votes(e.data.get("votes"))),
    "vote_change": _vote_change,
    "sundown": lambda r, e: r.t("sundown"),
    "phantom_votes": _phantom_votes,
    "lynch_cancelled": _lynch_cancelled,
    "celebrity_news": _celebrity_news,
    "vigilante_shot": _vigilante_shot,
    "gun_found": lambda r, e: r.t("gun_found", previous=r.who(e.data.get("previous"))),
    "revived": _revived,
    "priest_revive": lambda r, e: r.t("priest_revive", target=r.who(e.data.get("target"))),
    "ghost_note": _ghost_note,
    "coroner_report": _coroner_report,
    "pack_leader_sniff": _pack_leader_sniff,
    "seer_spotted": lambda r, e: r.t(
        "seer_spotted.who" if e.data.get("player") else "seer_spotted.act",
        role=r.role(e.data.get("role")),
        player=r.who(e.data.get("player")),
    ),
    "forum_seer_sense": _forum_seer_sense,
    "psychic_result": _psychic_result,
    "insomniac_saw": _insomniac_saw,
    "insomniac_seen": lambda r, e: r.t("insomniac_seen", insomniac=r.who(e.data.get("insomniac"))),
    "ninja_saw": _ninja_saw,
    "guardian_angel_saved": _guardian_angel_saved,
    "mad_scientist_dose": lambda r, e: r.t("mad_scientist_dose", target=r.who(e.data.get("target"))),
    "mutated": lambda r, e: r.t("mutated", role=r.role(e.data.get("role"))),
    # the Village
    "raven_poster": _raven_poster,
    "extra_votes": lambda r, e: r.t("extra_votes", votes=r.added(e.data.get("votes"))),
    "buildings": _buildings,
    "buildings_on_offer": lambda r, e: r.t("buildings_on_offer", tokens=_tokens(r, e.data.get("tokens"))),
    "building_chosen": _by_player("building_chosen", "player"),
    "token_returned": _token_returned,
    "token_given": _by_player("token_given", "player"),
    "confession": _by_player("confession", "confessor", "player"),
    "confessed_role": _by_player("confessed_role"),
    "bones_set": _by_player("bones_set", "bonesetter", "player"),
    "shave": _by_player("shave", "barber", "target"),
    "forbidden": _forbidden,
    "home_offered": _by_player("home_offered", "bailiff", "player"),
    "home_refused": _by_player("home_refused", "player"),
    "moved_in": _by_player("moved_in", "player"),
    "plea": _by_player("plea", "player", "castellan"),
    "pardoned": lambda r, e: _by_player(
        "pardoned_self" if e.data.get("castellan") == e.data.get("player") else "pardoned", "castellan", "player"
    )(r, e),
    "pardon_refused": _by_player("pardon_refused", "castellan", "player"),
    "baker_glimpse": _by_player("baker_glimpse"),
    "fire": _fire,
    "fire_set": _by_player("fire_set"),
    "first_vote": _first_vote,
    "sheriff_gone": _sheriff_gone,
    "sheriff_candidates": lambda r, e: (
        r.t("sheriff_candidates.some", players=r.names(e.data.get("candidates")))
        if e.data.get("candidates")
        else r.t("sheriff_candidates.none")
    ),
    "sheriff_withdrawn": lambda r, e: r.t(
        "sheriff_withdrawn", players=r.names(e.data.get("players")), candidates=r.names(e.data.get("candidates"))
    ),
    "sheriff_lost": lambda r, e: r.t("sheriff_lost.no_candidate" if e.data.get("reason") == "no candidate" else "sheriff_lost.no_voter"),
}


def event_body(cat: Catalog, e: Event, seat: str, *, display: bool = False) -> str:
    """An entry without its time label. A renderer that trips over data it did not
    expect (an engine change) falls back to the generic form: a history must never
    stop a game. ``display``: for people (players' words shown as written) rather
    than for a model's prompt (players' words as one JSON string each)."""
    reader = _Reader(cat, seat, display)
    renderer = RENDERERS.get(e.kind, _generic)
    try:
        return renderer(reader, e)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return _generic(reader, e)


def render_event(cat: Catalog, e: Event, seat: str) -> str:
    """One entry of a model's history, always one line. Players' words are quoted on
    one line already (``prompts.quoting``) and names cannot break one
    (``engine.names``); should any other value ever carry a line break (an engine
    change, a hand-made record), it is joined here rather than start a line that
    would read as the game's."""
    body = event_body(cat, e, seat)
    if not body:
        return ""
    entry = cat.text("terms.entry", when=_when(cat, e), body=body)
    lines = entry.splitlines()
    return entry if len(lines) <= 1 else " ".join(line.strip() for line in lines)


def history_entries(events: list[Event], seat: str, *, language: str = "en") -> list[str]:
    cat = catalog(language)
    return [render_event(cat, e, seat) for e in events]
