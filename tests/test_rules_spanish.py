"""The Spanish edition (002, preset ``millers_hollow_es``): where "Los hombres lobo de
Miller's Hollow" differs from 000.

"Si hay empate entre los imputados, nadie es eliminado." "La Bruja puede usar cualquiera
de las dos pociones sobre sí misma si lo desea." "Un amor no puede, ni siquiera como un
farol, votar para linchar a su amante." "puede tomar represalias." "Si la Niña es
sorprendida en el acto, muere en lugar de la víctima designada."
"""

from __future__ import annotations

from engine import get_preset
from helpers import agents_for, data, deaths, drive, events, new_game, scripted_game

ES = "millers_hollow_es"


def test_the_spanish_defaults():
    o = get_preset(ES).options()
    assert o.tie == "no_elimination" and o.sheriff_tiebreak == "none"
    assert o.witch_self_poison and o.witch_self_heal and o.lovers_restraint == "vote"
    assert o.hunter_may_pass and o.little_girl_caught == "dies"
    assert get_preset(ES).deck(10) == get_preset("millers_hollow").deck(10)
    base = get_preset("millers_hollow").options()
    assert not base.witch_self_poison and base.lovers_restraint == "any_harm" and base.tie == "revote"


def test_the_witch_may_poison_herself():
    roles = {"Wi": "witch", "W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager"}
    game = new_game(roles, {"max_days": 1}, preset=ES)
    agents = agents_for(game, {"W1": {"wolf_kill": ["V1"]}})
    d = drive(game, agents, until=lambda d: d.kind == "witch_poison")
    assert "Wi" in d.options
    game.submit(d.id, "Wi")
    drive(game, agents)
    assert ("Wi", 1, "poison") in deaths(game)
    # 000's game does not offer it
    game = new_game(roles, {"max_days": 1})
    d = drive(game, agents_for(game, {"W1": {"wolf_kill": ["V1"]}}), until=lambda d: d.kind == "witch_poison")
    assert "Wi" not in d.options


def test_a_tie_eliminates_nobody():
    roles = {"W1": "werewolf", "V1": "villager", "V2": "villager", "V3": "villager", "V4": "villager", "V5": "villager"}
    answers = {
        "W1": {"wolf_kill": ["V5"], "vote": ["V1"]},
        "V1": {"vote": ["W1"]},
        "V2": {"vote": ["V1"]},
        "V3": {"vote": ["W1"]},
    }
    game = scripted_game(roles, answers, {"max_days": 1}, preset=ES)
    assert [e.data["round"] for e in events(game, "vote_result")] == [1]  # no revote
    assert data(game, "no_elimination") and ("V1", 1, "vote") not in deaths(game)
