"""The arena and the A2A protocol: the set-up check of a table's remote seats
(``preflight``) and the arena as an A2A assessor (``werewolf a2a serve``)."""
