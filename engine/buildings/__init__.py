"""The Village's buildings (000, Rules of Expansion #2). Importing this package
registers every building and the hand-out; see ``engine.buildings.base``."""

from engine.buildings import base  # noqa: F401
from engine.buildings import (  # noqa: F401,E402  (registration side effects)
    handout,
    farmers,
    confessor,
    bonesetter,
    barber,
    schoolmistress,
    bailiff,
    baker,
    tavernkeeper,
    castellan,
)
