"""PyYAML, imported the first time a YAML text is read, for every package that reads
one (the prompts' word files here, game files and ``KEY=VALUE`` options in
``transcripts.bounded``).

Why lazily: the parser is a tenth of a second of start-up, and most processes read
no YAML at all (``werewolf --help``, a simulation of random bots, a transcript
reader). Why here: the prompts are the lowest layer that reads YAML, so the one
loader lives with them and the layers above share it.
"""

from __future__ import annotations

from types import ModuleType


def yaml_module() -> ModuleType:
    """The ``yaml`` module, imported on the first call."""
    import yaml  # here, not at the top: see the module's docstring

    return yaml
