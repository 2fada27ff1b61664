"""Play in the browser: ``werewolf serve``.

The server owns every game and decides what each browser receives: a seat's page is
sent only the events that seat may see (the engine's visibility), spectators only the
public ones, and the full view (every secret, every model's reasoning) only after the
game ends or to the host. Pages are static files shipped with the package; they hold
no game logic and keep no state a reload would lose.
"""
