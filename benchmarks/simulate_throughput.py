"""``werewolf simulate --agents random``: games per second, cost per decision, cores.

What a user running thousands of bot games gets, measured side by side in one run.
The machine is shared: wall-clock moves by tens of percent from run to run, so the
contenders run in turns (best of ``--repeat``), on CPU time, and ``--instructions``
counts machine instructions (valgrind), which load does not move. Read the ratios.

1. one core, 8 players: ``simulate(agents="random")`` as the command runs it, in a
   fresh process per contender: this tree, the trees given with ``--against`` (for
   example ``/work/main``, to see a change before and after) and the peer
   ``werewolf-engine`` 0.1.0 when it is installed (``pip install werewolf-engine==0.1.0``;
   six roles, no speech, no sheriff: 28 decisions a game against our 80), the games
   alone (after a warm-up, so the start-up is left out);
2. the whole process as a user runs it, ``werewolf simulate --games G --json`` from
   start to exit against the peer's import and games: a run of a few hundred games
   pays its start-up (the imports) as much as its games;
3. the cost per decision from 8 to 30 players: random bots as ``simulate`` plays them
   (they never read their view), and bots that read their whole view at every
   decision, with the view kept as the events come (``Game.observation``) and, for
   comparison, rebuilt from every event (the engine before issue 18);
4. ``--processes N`` against one process: wall time, CPU time (on a loaded machine
   the workers may not get N cores; CPU time says what they would do with them),
   and whether the reports are identical.
5. with ``--instructions``, the peer's games/s as a budget: what a game of ours spends
   before its first decision (the deal, the seats' agents), its decisions, and what
   each decision could cost if a game of ours were to cost the peer's whole game.

    python benchmarks/simulate_throughput.py [--games 1000] [--against /work/main] [--instructions]

Figures (issue 18, CPython 3.11.7, the 2-core machine under a load of 5 to 9; main is
01a8d47, before this step; one run, contenders in turns):

    8 players, one core           games/s (CPU)   M instructions/game   vs the peer
    main (01a8d47)                     784               5.24            0.20x / 0.27x
    this step                         1023               3.74            0.26x / 0.37x
    werewolf-engine 0.1.0             3982               1.39

    K instructions per decision (deal and bots included), 8 / 12 / 18 / 24 / 30 players:
    51.4 / 41.8 / 40.4 / 36.3 / 35.3 (flat, falling as the deal's fixed cost is shared);
    CPU µs per decision, bots reading their whole view: 10.3 / 17.0 / 13.8 / 10.6 / 15.8
    kept as the events come, 16.0 / 40.0 / 31.8 / 67.5 / 74.7 rebuilt (load noise: ±40%).

    --processes 2, 2000 games: the same report; the workers' CPU time 2.6-3.0 s against
    2.4-2.45 s in one process (+8% to +23%), but no wall-clock gain to measure: the
    other helpers kept both cores busy (load 3 to 9).

What went: the seat's view copied at every decision although a random bot never reads
it (views are now read on demand, ``SeatView(seat, None, game)``); the table's checks
and options made again for every game (``GameSpec.build_checked``); the general deal
for the preset's deck and the names folded again every game (``engine.setup``); two
Python calls per random pick (``agents.random_answer`` draws ``choice``'s bits itself).
What is left is the engine itself: driven directly on the same table (benchmarks/
engine_throughput.py's answers) it costs 2.9 M instructions a game, twice the peer's
whole game, for 80 decisions against the peer's 28 (speeches, the Sheriff, the Witch's
and the wolves' rules as ours plays them).

2026-12-02 (issue 18, sim18; ecbd2a0, CPython 3.11.7, load 0.6 to 2): no cut landed;
where a game's instructions go, for the next step (callgrind, 300 games, 8 players,
3.76 M instructions a game; the interpreter's start and imports subtracted):

    8 players, one core: this tree 2249 games/s CPU, werewolf-engine 0.1.0 9391 (0.24x);
    3.76 M instructions a game against the peer's 1.39 M (0.37x at the same cost);
    K instructions per decision, 8 / 12 / 18 / 24 / 30 players: 51.0 / 41.9 / 40.5 /
    36.4 / 35.4 (flat, falling as the deal's fixed cost is shared); CPU µs per decision
    as simulate plays 3.7 / 10.3 / 3.9 / 4.8 / 4.4, bots reading their view 5.0 / 15.0 /
    5.4 / 5.2 / 8.0 kept, 9.9 / 16.4 / 13.4 / 20.9 / 28.5 rebuilt (load 2.5; 12 noisy).

    the seats' agents, built per game (``GameSpec.build_checked``)      0.59 M  16%
      of which their Mersenne Twisters seeded (``Random(f"{seed}:{name}")``,
      44.6 K each: MT19937's init_by_array, sha512 of the string, random.py's
      ``seed``), the game's own ``Random(seed)`` beside them               0.38 M  10%
      ``make_seat_agent``/``make_agent`` dispatch, ``seat_seed``'s sha256,
      the model-seat check                                                 0.21 M   6%
    per decision (82 a game): ``SeatView`` 2.8 K, ``RandomAgent.decide``
      3.9 K, ``Game.ask`` with its ``Decision`` 5.3 K                      1.0 M   27%
    the rules, events and payloads                                         the rest

The evaluation loop entered from C (``_PyEval_EvalFrameDefault'2``, 0.88 M a game,
twice the frames run in place, 0.41 M) is the structural cost: every class call to a
Python ``__init__`` (``Decision``, ``Event``, each payload, ``SeatView``) and every
resume of the narrator's script through its ``yield from`` chain (3.11's ``SEND``
re-enters the loop at each level: three for a speech, five for a vote) starts a new
C-level frame. The peer's game seeds two Mersenne Twisters (``reference_werewolf_engine``), ours nine.
A cut of the seeding changes every seat's stream, so play (not allowed here); what is
left is fewer objects and levels per decision: decisions and events made without a
Python ``__init__`` from one constructor each, and a flatter script for the speeches.

2026-12-02 (issue 18, sim18c; c536ab4 against main f37d29f, CPython 3.11.7, one run of
``--skip sizes,cores --instructions --games 300 --repeat 1 --against /work/main``, then
``--skip one_core,cores --instructions --games 300`` for the sizes):

    8 players, one core       M instructions/game (valgrind, 50 games)   vs the peer
    main (f37d29f)                          3.84                         0.37x
    this step                               3.71  (-3.4%)                0.38x
    werewolf-engine 0.1.0                   1.40
    (200 games, PYTHONHASHSEED=0, less a run of 0: 3.771 M -> 3.678 M, -2.5%)
    games/s (CPU, best of 3, 1000 games, load 1.5): this tree 1636, main 1651, the
    peer 8302: the load's noise is larger than the change; read the instructions.

    K instructions per decision, 8 / 12 / 18 / 24 / 30 players: 50.5 / 42.1 / 42.3 /
    36.8 / 35.2 (flat, falling as the deal's fixed cost is shared); CPU µs per decision
    as simulate plays 5.4 / 4.2 / 8.2 / 5.8 / 4.5, bots reading their view 8.0 / 6.5 /
    9.0 / 9.4 / 5.6 kept, 10.4 / 16.1 / 20.7 / 41.7 / 27.0 rebuilt (load 2 to 3).

What paid: ``run_sync`` reads each next batch from the ``pending`` slot (the whole batch
waits once the last one is answered) instead of the ``waiting`` property: -74 K a game
(2.0%); each seat's agent spec classified once (``make_seat_agent``, ``build_checked``):
-19 K (0.5%). What the last step proposed does not pay as it thought. Measured in
isolation (valgrind, 3.11.7): a ``yield from`` level costs ~240 instructions a resume
(removing the vote's ``lynch`` level outright saves 12.8 K a game, 0.3%: not worth a
less direct script); a Python-to-Python call ~250. What costs is a Python frame entered
from C: a class call to a Python ``__init__`` is ~1.75 K before its body (an 8-field
slots dataclass 2.4 K in all, a Python function filling ``object.__new__``'s slots 1.75 K,
a tuple subclass 1.3 K), a property ~0.6 to 1.5 K. A random game builds ~300 dataclass
objects (83 ``Decision``, 95 ``Event``, 95 payloads, players, deaths) and 83
``SeatView`` (182 K a game, 4.8%, measured by handing the bots None): ~0.6 M of the
3.7 M is that entry, which no single Python constructor avoids in 3.11 (no C type takes
the fields by position and keyword into slots; 3.13's CALL_ALLOC_AND_ENTER_INIT does),
and a tuple-based ``Event`` would make every read of ``e.data`` by the thinking bots a
property call. Per decision the game is ~45 K instructions all in against the peer's
~50 K (1.40 M for 28): the games/s gap is our 82 decisions to its 28 (speeches, the
Sheriff), which are play. Also measured and left: the builtin ``_sha256`` for
``seat_seed`` (1.7 K a seat cheaper than OpenSSL's, through a private module).

Issue 18, the collector (2026-12-02): ``simulate()`` now plays under
``arena.gc_tuning.many_games()`` (``gc.freeze()`` of the start-up heap, young threshold
700 -> 7000, both put back when it returns; its worker processes set the same for their
lifetime). A bot game frees almost everything by reference counts (the 1266 cyclic
objects found in 1000 heuristic games are all found during the imports), yet with the
defaults 1000 heuristic games made 1000 young, 90 middle and 8 full passes, each full
pass walking the ~50K start-up objects; tuned, 0 / 0 / 0 after the imports. Per game in
one process (valgrind, 3.11.7, difference of two run lengths, main 4cb62d3):

    heuristic, 160 less 10 games    15.03 M -> 14.66 M  (-2.4%; engine game 2.50 M: 6.0x -> 5.9x)
    random, 510 less 10 games        3.656 M -> 3.646 M (-0.3%)
    a process: the first full pass, ~19 M, no longer paid
    peak RSS, 1000 heuristic games:  50.9 MB -> 51.1 MB (random 50.1 -> 50.2 MB)
    reports (wins, every game's days; 1 and 2 processes): identical

The earlier ~8% (18.0 M -> 16.6 M with ``gc.disable()``, 20 games) counted a full pass
over the start-up heap that fell inside the longer run only; in long runs the full
passes recur every ~125 games, which the 160-game figure includes. Tried: threshold
20000 (14.44 M against 14.50 M for 7000 over 40 less 10 games, the same 0 passes in
1000 games: not worth more garbage left alive between passes); ``gc.freeze()`` alone
(14.75 M: it saves the full passes' walk of the start-up heap, not the young passes).

2026-12-03 (issue 18, s21; against main cd4b9d8, CPython 3.11.7, callgrind, 52 less 2
games, PYTHONHASHSEED=0): the seats' agent dispatch resolved once per table
(``agents.registry.agent_maker``, ``GameSpec.bot_makers``, kept by the simulation's
``_Table``): each game only seeds its agents (``seat_agent``). 3.695 M -> 3.602 M
instructions a game (-92 K, -2.5%); play unchanged (1000 of 1000 byte-identical).

2026-12-03 (issue 18, e21; main cd4b9d8, CPython 3.11.7, valgrind, 110 less 10 games,
PYTHONHASHSEED=0): no cut landed (the session ran out of time); where a random 8-player
game's 3.66 M instructions go, measured by pieces of the same games:

    the whole game as ``_Table.play`` plays it                  3.658 M
    ``Game(setup)`` alone (deal, players, the script up to night 1's batch,
      ``dataclasses.replace`` of the setup included)              0.350 M
    ``build_checked`` (the game and the seats' agents)           0.936 M  (agents 0.586 M)
    the engine replaying the same answers, no agents or views    2.707 M  (play 2.36 M)
    the runner's loop, ``SeatView`` and ``RandomAgent.decide``    0.365 M

In the engine's 2.73 M (replay, game included): class calls (``type_call`` inclusive:
allocation, ``__init__`` frames and bodies) 0.77 M, of which ``slot_tp_init`` 0.67 M,
for ~300 objects a game (83 ``Decision``, 96 ``Event``, 96 payloads, players, parts);
38 K bytecodes a game. Measured in isolation, a 5-field slots dataclass costs 2.16 K
instructions made and freed, against 1.37 K for ``object.__new__`` and five slot stores
in the caller's frame and 1.89 K through a Python factory function: the ``__init__``
frame entered from C is ~0.8 K an object, ~0.22 M a game (6%) if every Decision, Event
and payload avoided it; the allocation and freeing of a GC-tracked instance (~1.2 K)
stays. Left to try: ``Event`` and ``Decision`` built in ``Game.emit``/``Game.ask``
without their ``__init__`` frame (-0.14 M), one context dict a round for speeches and
votes, ``Parts`` without a Python ``__init__`` (13 a game), the setup's seed set without
``dataclasses.replace`` (257 bytecodes a game).

2026-12-03 (issue 18, ev23; against main 4acab59 and cd4b9d8, CPython 3.11.7): the
engine's events and decisions made in ``Game.emit`` and ``Game.ask`` without their
``__init__`` frame (``object.__new__``, the fields set there; the classes unchanged),
and one context dict a round for the votes, the speeches and the wolves' chat and hunt
(contexts are read, never written; ``Decision``). valgrind, 100 less 0 games after a
warm-up, PYTHONHASHSEED=0, both trees in the same run:

    main (4acab59)                                   3.567 M instructions a game
    events and decisions without ``__init__``        3.410 M  (-157 K, -4.4%)
    one context a round                              3.361 M  (-49 K, -1.4%; -5.8% in all)

    this script, --games 500 --repeat 3 --instructions (50 games, hash seed free, load 2):
    cd4b9d8 3.71 M, main 3.62 M, this branch 3.41 M, werewolf-engine 0.1.0 1.39 M (0.41x
    at the same cost); games/s (CPU, best of 3) 1680 / 1394 / 1858 against the peer's
    4962: the load's noise is larger than the change, read the instructions.

Measured and left (each under 1%): payloads made the same way (a factory function
saves 60 instructions of a payload's 2.0 K, no cheaper than the class call; only the
fields set at each call site save ~0.54 K: 30 speeches a game, 16 K, 0.5%); the
setup's seed without ``dataclasses.replace`` (a positional ``GameSetup``: -14 K, 0.4%);
``Player`` and its ``Parts`` without ``__init__`` frames (-11 K, 0.3%); a batch of one
without its ``{id: decision}`` dict (~700 instructions, 35.7 such batches a game: ~25 K,
0.7%). Outside the engine, ``SeatView(seat, None, game)`` is the runner's one class call
per decision (85 a game): made in ``run_sync`` the same way, 3.361 M -> 3.317 M (-44 K,
-1.3%; tried, not committed: the runner is not this step's). Tried again on main
(3410f2b, 110 less 10 games, PYTHONHASHSEED=0): 3.356 M -> 3.334 M (-0.65%), with its
own copy of ``SeatView.__init__`` in the runner: not kept.

This script on main a8fb858 (2026-12-03, load 1.6, 50 games counted): 3.43 M
instructions a game against cd4b9d8's 3.74 M and the peer's 1.39 M (0.41x the peer's
games/s at the same cost); games/s, best CPU time of 3: 1898, 1744, 5200 (0.36x).

2026-12-03 (issue 18, ev24; main 736db14, CPython 3.11.7, valgrind, 110 less 10 games,
one run): the random bot is a ``BlindAgent`` (its answer depends on the decision
alone), which ``run_sync`` asks without making a ``SeatView``: 3.341 M -> 3.209 M
instructions a game (-4.0%). Tried and left: the rules yielding a lone decision bare
rather than in a list of one (-1.0%, but a second way for every rule to ask); the
random answer drawn in one Python frame instead of two (-0.25%).

2026-12-03 (issue 18, ev25; main 736db14, CPython 3.11.7, callgrind, PYTHONHASHSEED=0,
60 less 10 games after a 5-game warm-up): 3.41 M instructions a game; no cut landed.
The cyclic GC is not a per-game cost: ``gc.freeze()`` after the warm-up gives the same
3.41 M (it only shortens the start). A class call of a 3-field slots payload is ~2.0 K
instructions, of which ``object.__new__`` alone is ~1.3 K and a Python call ~0.6 K, so no
way of constructing the payloads (factory, ``__new__``, plain slots class, no
``Mapping`` base: all within 5%) beats the class call; ``Game(setup)`` outside its first
``_advance`` is ~4% of a game and already cached per table (deck, names, rules).

This script at the end of session 14 (main 06efe18 against b0e462c, 2026-12-03, 500
games, one run): games alone 3.41 M -> 3.28 M instructions a game (peer 1.39 M, 0.42x
at the same cost; CPU 1797 -> 1842 games/s against the peer's 6499); the whole
process, start-up included: 2567 M -> 1190 M to start and play one game (peer 193 M),
4238 M -> 2786 M for 500 games (peer 872 M), CPU 584 -> 935 games/s (0.14x -> 0.23x
the peer's 4040).

This script on an idle machine (2026-12-04, main e497cb8, load 0.0 to 0.2, the first
clean reading of the cores): one core, 1000 games, best CPU time of 3: 2959 games/s
against werewolf-engine's 9286 (0.32x); the whole process 1730 against 6969 games/s
(0.25x); CPU µs a decision, 8 / 12 / 18 / 24 / 30 players: 3.3 / 2.7 / 2.9 / 2.6 / 2.3
as simulate plays, 5.1 / 4.5 / 4.8 / 4.6 / 5.0 for bots reading their view (flat),
7.6 / 9.5 / 13.1 / 19.9 / 25.4 rebuilt. ``--processes 2``, 8000 games: 2.73 s -> 1.44 s
wall, 1.90x of an ideal 2x (CPU 2.73 s in one process against 2.85 s in both: 1.92x),
the same report; the machine's own ceiling, two independent runs side by side, 1.98x.

2026-12-04 (issue 18, helper-76; main 87f84a0, CPython 3.11.7, mypy/mypyc 2.4.1,
valgrind, PYTHONHASHSEED=0, difference of two run lengths): what compiling the engine
with mypyc would give, measured in a scratch copy and not landed. All 77 modules of
``engine/`` compile after: the 112 payloads declared as ``@dataclass`` with a written-out
``__init__`` and registered by an ``event(kind, annotations)`` call after the class (a
class decorator makes them non-native; mypyc erases ``Annotated[..., OMIT]``, so the
annotations are handed over as written), ``EventData`` without its ``Mapping`` base
(``Mapping.register`` instead), ``DecisionKind(str)`` and ``GameError`` left
interpreted, no ``object.__new__`` construction, ``RuleOptions`` given tuples (compiled
classes check their fields' types). Same play: 1000 of 1000 transcripts identical;
580 rules and text tests pass.

    M instructions a game, 8 players       pure     compiled            the edited source, pure
    the engine alone (400 less 200 games)  2.327    1.248 (0.54x)       2.47 (+6%)
    simulate, random (100 less 50 games)   3.139    1.983 (0.63x)       3.30 (+5%)
    the heuristic bot's modules compiled instead (agents/heuristic_*.py but
    heuristic.py; ``Memory``/``PublicTable`` left interpreted, as the table borrows the
    memory's handlers): simulate, heuristic, 100 less 50 games  11.60 -> 9.72 (0.84x)

Until dataclasses get written-out ``__init__``s the compiled engine saves only 20%
(dataclasses' generated ``__init__`` stays interpreted: ~3.1 K a ``Decision``). Even
compiled, a random game (1.98 M) costs more than the peer's 1.39 M: 0.70x its games/s at
the same cost. Not landed: ~800 lines of ``__init__``s repeating every payload's fields
(three copies to keep in step per event kind), a 4-minute single-threaded gcc build per
install (one 383 K-line C file), and compiled modules beside the sources shadow them in
an editable install (an edit does nothing until a rebuild); the edited source is 5-6%
slower when run pure.

2026-12-05 (issue 18, session 16; main 14f9a49 and this tree in one run, CPython 3.11.7,
load 0.9): the views' change of this session (``Game.observation`` tests a seat's new
events in a plain loop; a bot's memory asks only for what follows the last event it
read) leaves the random game where it was, as the random bot never reads a view:

    one core, 1000 games, best CPU time of 3   2717 / 2719 games/s, the peer 8291 (0.33x)
    valgrind, 100 games                         3.20 M / 3.20 M, the peer 1.39 M (0.44x at the same cost)

The budget (part 5, 50 games): a game of ours spends 0.32 M on the deal and 0.53 M on
its seats' agents (of which 0.36 M seeding their eight generators) before its first
decision, then 28.2 K a decision for 85 decisions; the peer's whole game is 1.39 M for
23 decisions, 59.4 K a decision. To match its games/s, a decision of ours could cost
(1.39 M - 0.85 M) / 85 = 6.4 K, 0.11x what a decision costs the peer itself: less than
a ``Decision``, an ``Event`` and a payload cost to make on this interpreter (~2 K each,
the paragraphs above), before any rule runs. Were the deal and the seats free, 16 K a
decision (0.28x the peer's). The goal asks for the peer's games/s while playing 3.7x
its decisions; per decision ours is already the cheaper (0.47x), and no change to how
the rules run closes a gap that is the rules played.

2026-12-07 (issue 42, branch i42-speed against an export of main 78bde82 in one run;
the machine under a load of 15 to 18, nice 5; ``--games 1000 --repeat 3 --against
/tmp/main --instructions --skip one_core,whole,sizes,cores``): the like-for-like table
(the peer's deck with our Protector for its Doctor; no Sheriff, speeches or pack talk,
the first wolf to name names the victim), one process each, best CPU time of 3:

    simulate, like-for-like, this branch     1351 games/s   0.57x the Doctor peer, 0.47x the Witch peer
    simulate, like-for-like, main            1119 games/s   0.47x, 0.39x
    werewolf-engine 0.1.0, Doctor deck       2379 games/s
    werewolf-engine 0.1.0, Witch deck        2867 games/s

    valgrind, 100 games, M instructions a game
    simulate, like-for-like, this branch     1.814 M   0.83x the Doctor peer, 0.77x the Witch peer
    simulate, like-for-like, main            2.230 M   0.68x, 0.62x   (this branch: -18.7%)
    werewolf-engine 0.1.0, Doctor deck       1.511 M
    werewolf-engine 0.1.0, Witch deck        1.391 M

The CPU-time ratio (0.57x) is below the instruction ratio (0.83x): on this loaded
machine the peer's smaller working set runs more instructions a cycle.

Where a like-for-like game goes (valgrind, 200 games, this branch; ``Game(setup)``
alone, then with the seats' agents, then played; per game): the deal 0.289 M, the
seats' agents 0.107 M (fixed cost 0.396 M, against the goal's 0.2 M), the whole game
1.818 M for 34.6 decisions (the peer plays 27.7 on its Doctor deck), 41 K a decision
after the seats. Seeding one Mersenne Twister costs 36.7 K from an int (the engine's
game stream) and 45.7 K from a string (the random seats' one stream; the per-seat
generators it replaces were 8 of them at ~59 K with their sha256). What is left of the
fixed cost is the rules': by cProfile's shares of ``Game(setup)``, the narrator's
script up to night 1's first question (the night's events and the three asks) ~32%,
the eight players with their state parts ~21%, the shuffle of the deck ~15%, the
game's seeding ~12%, the deal's events ~9%; cutting the shuffle or the seeding changes
every game's deal, which the issue allows only for the seats' generators. In play the
rules are three quarters of the time (``engine/``; the vote rounds alone 13%), the
random bot 6%, the runner 4%: the gap to the peer is the engine's per decision
(events, decisions and their payloads the transcripts record), not the seats.

2026-12-07 (issue 42, branch i42-fixed against an export of main dac6310 in one run;
CPython 3.11.7, load 9, nice 5): a game's fixed cost on the like-for-like table, the
new ``fixed`` part (``--instructions --skip one_core,like,whole,budget,sizes,cores``;
the figures below are the same pieces counted with PYTHONHASHSEED=0, 200 games, as
the hash seed moves a count by ~10 K):

    M instructions a game      the deal   the seats' agents   fixed cost   (goal 0.2)
    main (dac6310)             0.291      0.107               0.399
    this branch                0.266      0.110               0.376 (-5.7%)

    like-for-like, one core, 1000 games, best CPU time of 3 (load 8.7):
    this branch 2336 games/s (0.63x the Doctor peer, 0.49x the Witch peer), main 2217
    (0.60x, 0.47x), werewolf-engine 0.1.0 3709 (Doctor) and 4728 (Witch)

What went: each game's setup made with ``dataclasses.replace`` (16.6 K, which walks the
class's fields; ``GameSetup.reseeded``); ``GameStart``'s walk and sort of the cards
(the deal's own sorted deck, ``Game.deck``); the fast deal's comprehension of pops.
Tried and left: a player's state parts made on first read through ``Player.__getattr__``
(7 of 8 seats never keep any: -12 K) cost more than it saved, as CPython 3.11 does not
specialise the attribute reads of a class with ``__getattr__``, so every ``p.alive``
of the rules got dearer (the deal 0.269 M -> 0.285 M with it, 200 games).

Taken back in review (2026-12-07), for idiom over a few percent: ``Event`` and
``Decision`` are made by calling their classes again (not ``object.__new__`` and the
fields set in ``Game.emit``/``Game.ask``), ``GameSetup.reseeded`` is
``dataclasses.replace``, and the fast deal pops its cards in a comprehension.
``python benchmarks/engine_instructions.py --games 100``: 8 players 2.348 M -> 2.479 M
instructions a game (+5.6%), 12 players 4.905 M -> 5.222 M (+6.5%); play unchanged
(1000 of 1000 transcripts identical).

Why 0.2 M is out of reach with play unchanged: each piece alone (valgrind, per game):

    the engine's stream, ``Random(seed)``                          34.9 K
    the random seats' stream, ``Random(f"{seed}:random seats")``   43.9 K
    the deck's shuffle (``random.shuffle``, 7 draws)               ~21 K
    8 players (slots dataclass, its state parts, its camp)         44.3 K  (parts 13.8 K)
    8 random seats' agents (``RandomAgent``)                       40.3 K
    8 card notices (``Role`` payloads and audiences)               22.5 K  (their ``emit``s apart)

That is ~207 K before the ``Game`` itself, ``GameStart``, night 1's events and its first
question. The first three (~100 K) are the streams: a cheaper seeding or shuffle changes
every deal and every random seat's draws, a second change of streams this step did not
make. The rest is an object a seat that the record and the runner read (a ``Player``,
its card's event, its agent), each a Python class call (~2 K before its fields on 3.11).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from agents.random_agent import RandomAgent  # noqa: E402
from arena.gamefile import default_game  # noqa: E402
from arena.runner import run_sync  # noqa: E402
from arena.simulate import default_processes  # noqa: E402
from engine.game import Game  # noqa: E402

# One contender's games, in its own process (its tree first on the path). ``games=0``
# is the baseline the instruction counts subtract: interpreter, imports, warm-up.
OURS = """
import json, resource, sys, time
sys.path.insert(0, {tree!r})
from arena.simulate import simulate
simulate(games=20, agents="random", players={players}, processes=1, seed=10**6)
t0, c0 = time.perf_counter(), time.process_time()
r = simulate(games={games}, agents="random", players={players}, processes={processes}) if {games} else None
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({{"wall": wall, "cpu": cpu + kids.ru_utime + kids.ru_stime,
                  "report": [r.wins, r.days] if r else None}}))
"""
PEER = """
import json, sys, time
sys.path.insert(0, {here!r})
import reference_werewolf_engine as ref
deck = getattr(ref, {deck!r})
for s in range(20):
    ref.play(10**6 + s, deck)
t0, c0 = time.perf_counter(), time.process_time()
for s in range({games}):
    ref.play(s, deck)
print(json.dumps({{"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}}))
"""

# Issue 42's like-for-like table: the peer's deck and rules played by ours (two wolves,
# a Seer, a Protector for its Doctor, four villagers; no Sheriff, no speeches, no pack
# talk, the first wolf to name a victim names the pack's), as
# ``werewolf simulate --agents random --processes 1 --roles ... --option ...`` runs it.
LIKE_ROLES = "werewolf,werewolf,seer,protector,villager,villager,villager,villager"
LIKE_OPTIONS = ("sheriff=false", "discussion_rounds=0", "wolf_chat_rounds=0", "last_words=none", "wolf_pack=first_named")
LIKE = """
import json, sys, time
sys.path.insert(0, {tree!r})
from arena.command import parse_option_pairs, parse_roles
from arena.simulate import simulate
table = dict(agents="random", players=8, processes=1, roles=parse_roles({roles!r}), options=parse_option_pairs({options!r}))
simulate(games=20, seed=10**6, **table)
t0, c0 = time.perf_counter(), time.process_time()
r = simulate(games={games}, **table) if {games} else None
print(json.dumps({{"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}}))
"""

# Issue 42's fixed cost of a like-for-like game, ``part`` being ``deal`` (``Game(setup)``:
# the cards, the players, the rules up to night 1's first question) or ``seats`` (that
# and the seats' agents, as ``simulate`` builds them): each game's setup is the table's
# under the game's seed, as the tree's ``simulate`` makes it (``GameSetup.reseeded``, or
# ``dataclasses.replace`` in a tree from before it). ``games=0`` is the baseline.
FIXED = """
import json, sys
sys.path.insert(0, {tree!r})
from dataclasses import replace
from arena.command import parse_option_pairs, parse_roles
from arena.gamefile import default_game
from arena.runner import run_sync
from engine.game import Game
spec = default_game(players=8, agent="random", roles=parse_roles({roles!r}), options=parse_option_pairs({options!r}))
spec.check()
setup, makers = spec.setup(), spec.bot_makers()
seeded = setup.reseeded if hasattr(setup, "reseeded") else lambda s: replace(setup, seed=s)
for s in range(10**6, 10**6 + 20):  # warm-up: the first games' lazy loading is no game's
    run_sync(*spec.build_checked(seeded(s), makers=makers))
for s in range({games}):
    if {part!r} == "deal":
        Game(seeded(s))
    else:
        spec.build_checked(seeded(s), makers=makers)
print(json.dumps({{}}))
"""


# The whole command as a user runs it, start-up included: ``werewolf simulate`` in one
# process printing JSON, and the peer's import and games.
WHOLE = """
import sys
sys.path.insert(0, {tree!r})
sys.argv = ["werewolf", "simulate", "--agents", "random", "--players", "8", "--games", "{games}", "--processes", "1", "--json"]
from arena.cli import main
main()
"""
WHOLE_PEER = """
import sys
sys.path.insert(0, {here!r})
import reference_werewolf_engine as ref
for s in range({games}):
    ref.play(s)
"""


def child_cpu(code: str, tree: Path = ROOT) -> float:
    """CPU seconds (user and system) of a whole ``python -c code`` process."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def whole_process(trees: list[Path], games: int, repeat: int, count: bool) -> None:
    """The command from start to exit, which is what a user waits for: a run of a few
    hundred games pays its start-up (the imports) as much as its games."""
    table = {f"simulate ({'this tree' if t == ROOT else t})": (WHOLE, t) for t in trees}
    if peer_installed():
        table["werewolf-engine 0.1.0"] = (WHOLE_PEER, ROOT)
    best: dict[str, float] = {}
    for _ in range(repeat):
        for label, (code, tree) in table.items():
            cpu = child_cpu(code.format(tree=str(tree), here=str(HERE), games=games), tree)
            best[label] = min(best.get(label, float("inf")), cpu)
    peer = best.get("werewolf-engine 0.1.0")
    print(f"\nthe whole process, {games} games, one core: best CPU time of {repeat} (load {os.getloadavg()[0]:.1f})")
    for label, cpu in best.items():
        vs = f"   {peer / cpu:.2f}x the peer's games/s" if peer and not label.startswith("werewolf-engine") else ""
        print(f"  {label:<42} {cpu:6.2f} s  {games / cpu:7.0f} games/s{vs}")
    if not count or not shutil.which("valgrind"):
        return
    print("  machine instructions (valgrind): start-up (a process of one game) and the whole process")
    for label, (code, tree) in table.items():
        start = instructions(code.format(tree=str(tree), here=str(HERE), games=1), tree)
        whole = instructions(code.format(tree=str(tree), here=str(HERE), games=games), tree)
        print(f"  {label:<42} {start / 1e6:7.0f} M start-up  {whole / 1e6:7.0f} M for {games} games")


def peer_installed() -> bool:
    try:
        import werewolf_engine  # noqa: F401
    except ImportError:
        return False
    return True


def run(code: str, tree: Path = ROOT) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def instructions(code: str, tree: Path = ROOT) -> int:
    env = dict(os.environ, PYTHONPATH=str(tree))
    err = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
        capture_output=True, text=True, check=True, env=env,
    ).stderr  # fmt: skip
    m = re.search(r"Collected : (\d+)", err)
    if not m:
        raise RuntimeError("valgrind printed no instruction count")
    return int(m.group(1))


def contenders(trees: list[Path]) -> dict[str, tuple[str, Path, str]]:
    """label -> (code template, tree, kind) for every contender of this run."""
    out = {f"simulate ({'this tree' if t == ROOT else t})": (OURS, t, "ours") for t in trees}
    if peer_installed():
        out["werewolf-engine 0.1.0"] = (PEER, ROOT, "peer")
    return out


def one_core(trees: list[Path], games: int, repeat: int, count: bool) -> None:
    table = contenders(trees)
    best: dict[str, float] = {}
    for _ in range(repeat):  # in turns: a burst of load hits every contender alike
        for label, (code, tree, _kind) in table.items():
            r = run(code.format(tree=str(tree), here=str(HERE), games=games, players=8, processes=1, deck="WITCH"), tree)
            best[label] = min(best.get(label, float("inf")), r["cpu"])
    peer = best.get("werewolf-engine 0.1.0")
    print(f"one core, 8 players, random bots, {games} games, best CPU time of {repeat} turns (load {os.getloadavg()[0]:.1f})")
    for label, cpu in best.items():
        vs = f"   {peer / cpu:.2f}x the peer's games/s" if peer and not label.startswith("werewolf-engine") else ""
        print(f"  {label:<42} {games / cpu:8.0f} games/s{vs}")
    if not peer:
        print("  werewolf-engine 0.1.0 not installed (pip install werewolf-engine==0.1.0)")
    if not count:
        return
    if not shutil.which("valgrind"):
        print("  (valgrind not installed: no instruction counts)")
        return
    n = max(50, games // 10)
    print(f"\nmachine instructions per 8-player game (valgrind, {n} games)")
    counts: dict[str, float] = {}
    for label, (code, tree, _kind) in table.items():
        base = instructions(code.format(tree=str(tree), here=str(HERE), games=0, players=8, processes=1, deck="WITCH"), tree)
        full = instructions(code.format(tree=str(tree), here=str(HERE), games=n, players=8, processes=1, deck="WITCH"), tree)
        counts[label] = (full - base) / n
    peer_count = counts.get("werewolf-engine 0.1.0")
    for label, c in counts.items():
        vs = f"   the peer's games/s at the same cost: {peer_count / c:.2f}x" if peer_count and not label.startswith("werewolf") else ""
        print(f"  {label:<42} {c / 1e6:8.2f} M{vs}")


def fixed_cost(trees: list[Path], games: int) -> None:
    """Issue 42's fixed cost of a game on the like-for-like table (goal: at most 0.2 M
    instructions): what a game spends before its first decision, the deal and the seats'
    agents, per game by valgrind, each tree in the same run."""
    if not shutil.which("valgrind"):
        print("\nthe fixed cost needs valgrind")
        return
    print(f"\nlike-for-like fixed cost (valgrind, {games} games, M instructions a game; goal 0.2 M)")
    for t in trees:
        code = partial(FIXED.format, tree=str(t), roles=LIKE_ROLES, options=list(LIKE_OPTIONS))
        deal, seats = ((instructions(code(games=games, part=p), t) - instructions(code(games=0, part=p), t)) / games for p in ("deal", "seats"))
        label = "this tree" if t == ROOT else str(t)
        print(f"  {label:<40} the deal {deal / 1e6:.3f} M, the seats' agents {(seats - deal) / 1e6:.3f} M: {seats / 1e6:.3f} M")


def like_for_like(trees: list[Path], games: int, repeat: int, count: bool) -> None:
    """Issue 42's second goal: the peer's own deck and rules played by ours, one process
    each, against the peer's games with its Doctor (the Protector's counterpart) and with
    its Witch (the deck the benchmarks have always measured it on)."""
    table: dict[str, tuple[Callable[[int], str], Path]] = {}
    for t in trees:
        table[f"simulate, like-for-like ({'this tree' if t == ROOT else t})"] = (
            partial(LIKE.format, tree=str(t), roles=LIKE_ROLES, options=list(LIKE_OPTIONS)), t)
    if peer_installed():
        for deck in ("DOCTOR", "WITCH"):
            table[f"werewolf-engine 0.1.0, {deck.lower()}"] = (partial(PEER.format, here=str(HERE), deck=deck), ROOT)
    best: dict[str, float] = {}
    for _ in range(repeat):
        for label, (code, tree) in table.items():
            r = run(code(games=games), tree)
            best[label] = min(best.get(label, float("inf")), r["cpu"])
    print(f"\nlike-for-like (issue 42), one core, {games} games, best CPU time of {repeat} (load {os.getloadavg()[0]:.1f})")
    peers = {k: v for k, v in best.items() if k.startswith("werewolf-engine")}
    for label, cpu in best.items():
        vs = "" if label in peers else "   " + ", ".join(f"{p / cpu:.2f}x the {k.split(', ')[1]} peer's" for k, p in peers.items())
        print(f"  {label:<52} {games / cpu:8.0f} games/s{vs}")
    if not count or not shutil.which("valgrind"):
        return
    n = max(50, games // 10)
    counts = {label: (instructions(code(games=n), tree) - instructions(code(games=0), tree)) / n for label, (code, tree) in table.items()}
    print(f"  machine instructions a game (valgrind, {n} games)")
    peer_counts = {k: v for k, v in counts.items() if k in peers}
    for label, c in counts.items():
        vs = "" if label in peers else "   " + ", ".join(f"{p / c:.2f}x the {k.split(', ')[1]} peer's" for k, p in peer_counts.items())
        print(f"  {label:<52} {c / 1e6:8.3f} M{vs}")


# What a game spends before its first decision, and its decisions: ``part`` is ``deal``
# (``Game(setup)``: the cards, the players, the rules up to night 1's first batch),
# ``seats`` (the game and its seats' agents: the random seats share one stream seeded
# from the game's seed, ``arena.gamefile.random_seats_stream``) or ``play`` (the whole
# game as ``simulate`` plays it); ``games=0`` is the baseline.
PIECES = """
import json, sys
sys.path.insert(0, {tree!r})
from arena.gamefile import default_game
from arena.runner import run_sync
from engine.game import Game
spec = default_game(players=8, agent="random")
spec.check()
setup, makers = spec.setup(), spec.bot_makers()
for s in range(10**6, 10**6 + 20):  # warm-up: the first games' lazy loading is no game's
    run_sync(*spec.build_checked(setup.reseeded(s), makers=makers))
decisions = 0
for s in range({games}):
    if {part!r} == "deal":
        Game(setup.reseeded(s))
    else:
        game, seats = spec.build_checked(setup.reseeded(s), makers=makers)
        if {part!r} == "play":
            run_sync(game, seats)
            decisions += len(game.answer_log)
print(json.dumps({{"decisions": decisions}}))
"""
# The peer's games with its decisions counted: each night action or skip and each day vote.
PEER_DECISIONS = """
import json, sys
sys.path.insert(0, {here!r})
import reference_werewolf_engine as ref
from werewolf_engine import Game
count = [0]
for name in ("night_action", "night_skip", "day_vote"):
    def counted(self, *a, _f=getattr(Game, name), **k):
        count[0] += 1
        return _f(self, *a, **k)
    setattr(Game, name, counted)
for s in range({games}):
    ref.play(s)
print(json.dumps({{"decisions": count[0]}}))
"""


def budget(games: int) -> None:
    """What matching the peer's games/s would ask of each decision, from this run's
    counts: the peer's whole game, less what ours spends before its first decision,
    spread over our decisions, against what a decision costs ours and the peer's. The
    gap is the rules we play that the peer does not (speeches, the Sheriff, the
    Witch's two potions asked apart, the wolves' pack vote), not a slower decision."""
    if not peer_installed() or not shutil.which("valgrind"):
        print("\nthe budget needs the peer and valgrind")
        return

    def per_game(part: str) -> float:
        base = instructions(PIECES.format(tree=str(ROOT), games=0, part=part))
        return (instructions(PIECES.format(tree=str(ROOT), games=games, part=part)) - base) / games

    deal, seats, play = per_game("deal"), per_game("seats"), per_game("play")
    ours = run(PIECES.format(tree=str(ROOT), games=games, part="play"))["decisions"] / games
    peer_code = PEER.format(here=str(HERE), games=games, deck="WITCH")
    peer = (instructions(peer_code) - instructions(PEER.format(here=str(HERE), games=0, deck="WITCH"))) / games
    peer_decisions = run(PEER_DECISIONS.format(here=str(HERE), games=games))["decisions"] / games
    left = peer - seats
    print(f"\nthe peer's games/s as a budget (valgrind, {games} games, M instructions a game)")
    print(f"  ours: {play / 1e6:.2f} M for {ours:.0f} decisions; before the first: the deal {deal / 1e6:.2f} M,")
    print(f"  the seats' agents {(seats - deal) / 1e6:.2f} M (the random seats' one stream seeded from the game's seed)")
    print(f"  the peer: {peer / 1e6:.2f} M for {peer_decisions:.0f} decisions, {peer / peer_decisions / 1e3:.1f} K a decision all in")
    print(f"  a decision of ours, the play after the deal and seats: {(play - seats) / ours / 1e3:.1f} K")
    print(
        f"  to match the peer's games/s a decision of ours could cost {max(left, 0.0) / ours / 1e3:.1f} K"
        f" ({max(left, 0.0) / ours / (peer / peer_decisions):.2f}x the peer's own)"
    )


class _Reader(RandomAgent):
    """The random bot reading its whole view at every decision, as a thinking bot does."""

    def decide(self, view, decision):  # type: ignore[no-untyped-def]
        view.events  # noqa: B018  (the read is the point)
        return super().decide(view, decision)


def rebuilt_view(self: Game, seat: str, since: int = 0) -> list:
    """The view as it was computed before issue 18: every event checked at every decision."""
    return [e for e in self.events[since:] if e.visible_to(seat)]


def per_decision(players: int, games: int, reading: bool, rebuild: bool = False) -> tuple[float, float]:
    """(CPU microseconds per decision, decisions per game), ``simulate``'s table and bots."""
    kept = Game.observation
    if rebuild:
        Game.observation = rebuilt_view  # type: ignore[method-assign]
    decisions = 0
    cpu = 0.0
    try:
        for seed in range(games):
            game, seats = default_game(players=players, seed=seed, agent="random").build()
            if reading:
                readers = {}
                for name, bot in seats.items():
                    readers[name] = _Reader(name)
                    readers[name].rng = bot.rng  # type: ignore[attr-defined]  (the same bot, reading)
                seats = readers
            c0 = time.process_time()
            run_sync(game, seats)
            cpu += time.process_time() - c0
            decisions += len(game.answer_log)
    finally:
        Game.observation = kept  # type: ignore[method-assign]
    return 1e6 * cpu / decisions, decisions / games


SIZED = """
import sys
sys.path.insert(0, {tree!r})
from arena.gamefile import default_game
from arena.runner import run_sync
decisions = 0
for seed in range({games}):
    game, seats = default_game(players={players}, seed=seed, agent="random").build()
    run_sync(game, seats)
    decisions += len(game.answer_log)
print('{{"decisions": %d}}' % decisions)
"""


def decision_instructions(tree: Path, players: int, games: int) -> float:
    """Machine instructions per decision of a whole random game (deal and bots included)."""
    code = SIZED.format(tree=str(tree), games=games, players=players)
    decisions = run(code, tree)["decisions"]
    return (instructions(code, tree) - instructions(SIZED.format(tree=str(tree), games=0, players=players), tree)) / decisions


def sizes(ns: list[int], games: int, count: bool) -> None:
    print("\ncost per decision, CPU µs (random bots; fewer games at larger tables)")
    head = f"  {'players':>7} {'decisions/game':>15} {'as simulate':>12} {'view read, kept':>16} {'rebuilt':>8}"
    print(head + (f" {'K instr (simulate)':>19}" if count else ""))
    first = None
    for n in ns:
        g = max(20, games * 8 // (n * 4))
        plain, dpg = per_decision(n, g, reading=False)
        kept, _ = per_decision(n, g, reading=True)
        rebuilt, _ = per_decision(n, g, reading=True, rebuild=True)
        line = f"  {n:>7} {dpg:>15.0f} {plain:>12.1f} {kept:>16.1f} {rebuilt:>8.1f}"
        if count:
            k = decision_instructions(ROOT, n, max(10, g // 4)) / 1e3
            first = first or k
            line += f" {k:>12.1f} ({k / first:.2f}x)"
        print(line)


def side_by_side(code: str, n: int) -> list[dict]:
    """``n`` copies of ``code`` started together, each one's figures (its wall and CPU
    time over its games only, so the interpreters' start and imports are left out as
    they are for one process). Independent processes share nothing but the machine,
    so their scaling is the most any pool of workers can reach here."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env) for _ in range(n)]
    outs = [p.communicate()[0] for p in procs]
    if any(p.returncode for p in procs):
        raise RuntimeError("a side-by-side copy failed")
    return [json.loads(o.strip().splitlines()[-1]) for o in outs]


def forked_instructions(code: str) -> int:
    """Machine instructions of a run and all its forked workers. A forked child starts
    with its parent's count so far, so each child's total counts the parent's part
    again: callers compare two run lengths, in which that part cancels."""
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/cg.%p", sys.executable, "-c", code],
            capture_output=True, text=True, check=True, env=env,
        )  # fmt: skip
        total = 0
        for f in Path(d).glob("cg.*"):
            m = re.search(r"^summary: (\d+)", f.read_text(errors="replace"), re.M)
            total += int(m.group(1)) if m else 0
        return total


def cores(games: int, count: bool) -> None:
    """``--processes N`` against one process, beside N independent one-process runs.

    The pool's own cost is what it loses against the independent runs: both play the
    same games, so what the independent runs lose against N times one process is the
    machine's (cores sharing caches, memory and, on a virtual machine, the host's
    threads), which no worker pool can win back."""
    n = default_processes()
    if n < 2:
        print("\none core only: --processes not measured")
        return
    total = games * n
    code = {k: OURS.format(tree=str(ROOT), here=str(HERE), games=g, players=8, processes=k) for k, g in ((1, total), (n, total))}
    one, many = run(code[1]), run(code[n])
    copies = side_by_side(OURS.format(tree=str(ROOT), here=str(HERE), games=games, players=8, processes=1), n)
    alone = run(OURS.format(tree=str(ROOT), here=str(HERE), games=games, players=8, processes=1))
    print(f"\n{total} games, 8 players (load {os.getloadavg()[0]:.1f}): 1 process {one['wall']:.2f} s wall, "
          f"{n} processes {many['wall']:.2f} s wall = {one['wall'] / many['wall']:.2f}x of an ideal {n}x; "
          f"same report: {one['report'] == many['report']}")  # fmt: skip
    print(f"  CPU time {one['cpu']:.2f} s in one process against {many['cpu']:.2f} s in all {n}: "
          f"{n * one['cpu'] / many['cpu']:.2f}x of an ideal {n}x with {n} free cores")  # fmt: skip
    copies_cpu = sum(c["cpu"] for c in copies)
    copies_wall = max(c["wall"] for c in copies)  # their games overlap: each started its own after its imports
    print(f"  the machine's own ceiling, {n} independent runs of {games} games side by side: {n * alone['wall'] / copies_wall:.2f}x "
          f"by wall ({alone['wall']:.2f} s alone, {copies_wall:.2f} s for {n}), CPU time {alone['cpu']:.2f} s alone against "
          f"{copies_cpu / n:.2f} s each side by side (+{100 * (copies_cpu / n / alone['cpu'] - 1):.0f}%)")  # fmt: skip
    if not count:
        return
    small = max(200, total // 10)
    per: dict[int, float] = {}
    for k in (1, n):
        runs = [forked_instructions(OURS.format(tree=str(ROOT), here=str(HERE), games=g, players=8, processes=k)) for g in (small, 2 * small)]
        per[k] = (runs[1] - runs[0]) / small
    print(f"  machine instructions a game (valgrind, {small} games more): one process {per[1] / 1e6:.3f} M, "
          f"{n} processes {per[n] / 1e6:.3f} M, all processes counted (+{100 * (per[n] / per[1] - 1):.1f}%)")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3, help="turns of the one-core race (best CPU time kept)")
    ap.add_argument("--sizes", default="8,12,18,24,30")
    ap.add_argument("--against", action="append", default=[], metavar="TREE", help="another checkout measured in the same run (repeatable)")
    ap.add_argument("--instructions", action="store_true", help="also count machine instructions (valgrind; minutes)")
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: one_core,like,fixed,whole,budget,sizes,cores")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    if "one_core" not in skip:
        one_core([ROOT, *(Path(t).resolve() for t in args.against)], args.games, args.repeat, args.instructions)
    if "like" not in skip:
        like_for_like([ROOT, *(Path(t).resolve() for t in args.against)], args.games, args.repeat, args.instructions)
    if "fixed" not in skip and args.instructions:
        fixed_cost([ROOT, *(Path(t).resolve() for t in args.against)], max(50, args.games // 10))
    if "whole" not in skip:
        whole_process([ROOT, *(Path(t).resolve() for t in args.against)], args.games, args.repeat, args.instructions)
    if "budget" not in skip and args.instructions:
        budget(max(50, args.games // 10))
    if "sizes" not in skip:
        sizes([int(x) for x in args.sizes.split(",")], args.games, args.instructions)
    if "cores" not in skip:
        cores(args.games, args.instructions)


if __name__ == "__main__":
    main()
