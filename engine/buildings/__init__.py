"""The Village's buildings (000, Rules of Expansion #2); see ``engine.buildings.base``.
They register when ``engine.catalogue`` imports them."""
