"""Issue 18's remaining figures, side by side for this tree and an earlier revision.

1. the heuristic bot's cost per game against the engine's (valgrind instruction
   counts, 8 players; goal: at most 4x);
2. a bot tournament with ``processes: 2`` against one process (wall clock in the
   same run; goal: within 10% of 2x), and the parent process's own CPU seconds
   (what it spends unpickling and storing each game);
3. ``werewolf leaderboard`` on that tournament's database (goal: < 1 s at 600 games);
4. ``werewolf metrics`` over its transcripts: seconds and peak memory (goal: < 2 s
   and 100 MiB at 600 transcripts).

Every figure runs in a fresh interpreter whose ``sys.path`` starts with the tree
measured, so ``--before REV`` (extracted with ``git archive`` into a temporary folder)
and this tree are measured alike, one after the other in one run. The machine is
shared: read the ratios; the instruction counts do not move between runs.

    python benchmarks/bot_workloads.py [--before main] [--games 200] [--heuristic-games 10]

Figures (2026-12-01, shared 2-core machine, --games 100 --heuristic-games 10,
``--before`` = main before issue 18's second step):

                                          before    after
    heuristic game / engine game (instr)   19.0x    18.7x   (51.6M -> 50.7M; goal 4x)
    tournament parent CPU per game         5.2 ms   1.9 ms  (share of all CPU 16% -> 7%)
    leaderboard, 100 games                 2.2 s    1.9 s   (unchanged code: noise)
    metrics, 100 transcripts               3.3 s    1.1 s   (peak 88 -> 53 MiB)

Issue 18's third step (suspicion sums carried across events, EventData.get, seat
views' inline visibility test, names checked once, metrics' per-game work done once),
measured with valgrind on snapshots of main (4d82735) and the branch, 20 heuristic and
200 engine games after one warm game each (so both include the same GC):

    heuristic game 25.57M -> 21.79M instructions (engine game 2.51M): 10.2x -> 8.7x
    with gc.freeze() after the warm game:  24.68M -> 21.02M (GC is not what costs)
    metrics, 60 transcripts, in-process CPU: 0.49 s -> 0.36 s; 600 transcripts (CLI,
    /usr/bin/time on a machine at load 14): 5.7 s user both runs (noise), peak 85 -> 69 MB

After rebasing on main (whose ``werewolf metrics`` now also checks each game for
malformed records by measuring it): 200 transcripts, ``/usr/bin/time``, 5.6 s wall,
3.7 s user, 135 MB peak -> 2.5 s, 1.9 s user, 62 MB.

Issue 18's metrics step (payload classes checked once per class, a game's events of a
kind listed once, orjson, sums kept as they come with the per-game check as the step
that works out a game's contribution, no pydantic loaded): ``werewolf metrics --json``
over bots.yaml's 600 transcripts, main (2bbbf43) and the branch alternating on a
machine at load 6-8, best of the runs (CPU s of the whole process, peak RSS):

    600 transcripts   7.35 s -> 4.34 s CPU (1.7x), peak 89.6 -> 64.7 MB; output byte-identical
    100 transcripts   4548M -> 2484M instructions (callgrind, start-up included, both
                      trees byte-compiled first: 1.8x)
    import arena.metrics.cli alone   1.15 s -> 0.65 s CPU

Issue 18's fourth step (a first plain "villager" claim no longer forces the suspicion
model to rebuild its sums: 259 of 676 rebuilds in 20 games were only that; speeches'
claims parsed once for all seats; the living listed once per death; no noise
generator or options validation for noiseless seats), ``--before main --games 20
--heuristic-games 20`` (main at 51b6997, this branch rebased on it):

    heuristic game 23.6M -> 21.2M instructions (engine game 2.55M / 2.54M): 9.3x -> 8.3x

Issue 18's fifth step (one shared default of the heuristic options instead of a
pydantic model per seat; a wolf's ``threat`` counts the pack's accusers once per
decision instead of scanning the game's accusations per candidate), ``--before main
--games 10 --heuristic-games 20`` (main at 33a4831):

    heuristic game 21.3M -> 20.9M instructions (engine game 2.51M): 8.5x -> 8.3x

Issue 18's sixth step (normalise's largest share known without a pass, capped rounds
reusing the shares computed; the memory's event loop without a call per event; the
judge's certain players listed once per rebuild; deck counts read once, Counter misses
avoided; the characters' secrets skipped when the seat holds none), ``--before main
--games 10 --heuristic-games 20`` (main at 563f4b7):

    heuristic game 21.0M -> 20.2M instructions (engine game 2.51M): 8.4x -> 8.1x
    after one warm game (first game's lazy loading left out): 18.69M -> 17.98M

Where the rest goes (20 games, 8 players): 46 judgements and 21 rebuilds of the
suspicion sums per game, of which 7.4 are each seat's first judgement and the others
follow deaths; only 8 are of the public perspective, so sharing those across seats
saves at most ~4 rebuilds a game. The loops themselves are short (per game: 316
accusations and 91 votes replayed, 275 players normalised): the judge's cost is its
fixed cost per call, not its sums.

Issue 18's process-pool step (workers get batches of up to 4 games, two batches queued
per worker; ``run.bot_batches``): 300-game tournaments (8 and 10 players, heuristic
and random), main (ecbd2a0) and the branch alternating, 4 rounds, load 1-2. Each
worker timed its games (time.monotonic around each) and the parent's threads were
read from /proc/self/task/*/stat:

                                          main          branch
    worker idle between two games         1.0-1.5 ms    0.04-0.05 ms (median)
      all idle / busy, per worker         0.35 / 1.57 s 0.05 / 1.57 s (18% -> 3%)
    parent CPU per game after setup       0.75-0.95 ms  0.45 ms
      the pool's manager thread           0.20-0.27 ms  0.07-0.10 ms
      its queue feeder thread             0.07-0.13 ms  0.03 ms
    workers' voluntary context switches   433-458       120-121 (per 300 games)
    2 processes against 1 (best wall)     1.68x         1.98x (same-round: 1.63-1.68x, 1.73-2.09x)

Valgrind does not see this: the parent's user-space instructions per game are the
same (3.5M) in both; what went is waiting and waking (futexes, pipes, the GIL
handed between the parent's threads), which costs CPU time and workers' idle time
but few instructions. Left serial: building the schedule and the jobs before the
first game (~0.3 ms a game, ~4% of a 300-game run on 2 cores).

Issue 18's metrics, second step (2026-12-02; the votes and powers measures replay the
truth over the events that change it, listed once per game; the cards shown listed
only when a seat gave beliefs; seat summaries read once for their three sums; the
collector's passes ten times rarer, the objects alive before frozen, while games are
measured): ``werewolf metrics --json`` over bots.yaml's 600 transcripts (played anew,
/tmp), main (ecbd2a0) and this branch, both byte-compiled (PYTHONPYCACHEPREFIX), output
byte-identical (``--json`` and the terminal tables):

    600 transcripts   10623M -> 9611M instructions (callgrind, start-up included: 1.11x)
    100 transcripts    2486M -> 2233M (start-up alone, imports: 852M)
    user CPU s of the process, /usr/bin/time, alternating, load 1-4.5: 1.05-1.38 ->
    0.93-1.49 (this machine's speed moves more than the change); peak 47 MB both

Left: the start-up (~0.85G instructions: ``engine/__init__`` imports every role and
the game for the payload classes), a game's typed events (``EventData.from_json``'s set
difference and the dataclass ``__init__``, ~1 of ~15M instructions a game), json.dumps
of the per-game figures (7.4 MB, the C encoder), and freeing each game's dicts.

Issue 18's seventh step (a speech's language kept with its shared parse, so English
speeches no longer cost each seat a ``language_of`` call; the memory sets day and
phase once per read; ``Situation.best`` compares its (score, draw) pair without
tuples, same draws; one shared empty deck before the game starts), ``--before main
--games 10 --heuristic-games 20`` (main at ecbd2a0, load ~1.2):

    heuristic game 20.2M -> 20.1M instructions (engine game 2.51M): 8.0x -> 8.0x
    (per_game alone, 20 games: 20.33M -> 20.16M)

Where it goes, measured by doing one part twice per game under valgrind (10 games,
23.3M a game with the first game's loading): a second full ``judge`` call at every
judgement +2.4M (~52K instructions a call: normalise, credibility, the copy of the
sums, without any rebuild); a second rebuild of the carried sums at every rebuild
+2.5M (~115K a rebuild, 22 a game); a second memory reading the same events +2.1M
(0.23M of it the memories' construction); the speech policy run twice (its judgement
cached) +2.8M (~134K a speech, 20 a game), the largest share no profile had named:
its wording (``words``) +0.8M, choosing what to say (``_village_speech``,
``_wolf_speech``) +1.8M, though the same speeches replayed outside a game cost
~13 us each (allocations inside a game also pay for its larger heap's collections).
Seeding a seat's ``random.Random`` from its string costs 44K instructions, a
``Memory`` 29K: seat setup is ~0.6M a game.

Issue 18's eighth step (2026-12-02; a bot line's choices resolved once per language
and situation instead of walking the loaded mapping for each line; a speech's
``heat`` counted in place instead of listing the last day's rounds and today's
accusers; each vote round built once for all seats, as a speech's claims are),
per_game of 20 heuristic games under valgrind, main (c418841) and this
branch:

    heuristic game 20.09M -> 19.86M instructions (engine game 2.51M): 8.0x -> 7.9x
    (the lines and heat alone: 19.96M; the shared vote rounds: -0.10M more)

What made the speeches look costly in a game: the garbage collector, not the policy.
The imports leave the collector one gen1 pass short of a full collection (counts
(622, 2, 10) after importing the runner), and the heuristic games allocate enough
containers to reach it: in 20 games 19 young, 1 middle and 1 full collection of the
~48K-object start-up heap, around the 8th game. ``gc.disable()`` after the imports
(a measurement only) takes 20 games from 2838.96M to 2796.09M instructions: 2.14M a
game of the 20.1M figure is the collector, most of it that one full pass (15.5M for a
``gc.collect()`` right after the imports, more with a game's objects alive). The
engine's 10 games make 1 young collection and no full one, so the 8.0x compares a
heuristic figure that carries the start-up heap's full pass with an engine figure
that does not: without the collector the ratio is ~7.1x. In wall time the share is
larger (the passes walk memory): 30 warm games 0.154 s with the collector, 0.110 s
without. The replayed speeches' ~13 us is itself ~70K instructions at this machine's
~5 instructions a ns, so the in-game ~134K a speech is the policy plus its share of
the young passes its allocations trigger. Left for the runner (arena/, not here): a
``gc.freeze()`` after setup in the tournament worker and both benchmark templates
(as ``werewolf metrics`` does while it measures), which takes the start-up heap out
of every full pass; and games that keep fewer containers alive per seat, which
makes the young passes rarer.

Measured per game in a running process (2026-12-02, ``per_game`` now subtracts a run
of ``WARM`` = 2 games instead of 0, so the first games' lazy loading and the
collector's first full pass over the start-up heap, paid once a process, are no
longer averaged into the games; main at 42e02bd, valgrind):

    20 heuristic / 200 engine games   17.84M / 2.50M   7.1x   (was 19.9M: 7.9x)
    60 heuristic / 600 engine games   16.72M / 2.50M   6.7x
    ``simulate --agents heuristic``, 60 games less 10: 15.9M a game (6.3x; the
    simulate path builds the table once), random 3.77M; ``gc.freeze`` of the
    start-up heap saves one full pass a run (~20M instructions), nothing a game

Issue 18's ninth step (2026-12-02, the suspicion model). Where its cost goes: the
same 20 games with every judgement replaced by its recorded result (the games checked
unchanged) cost 11.67M a game instead of 18.04M, though part of that is the collector's
one full pass falling outside the run; the judge alone, replayed on deep copies of the
926 memories it judged in 20 games, 121.0K instructions a call (5.60M a game): ~36%
rebuilding the carried sums' inputs (known camps, liars, standing, pool), ~27% adding
votes and accusations, ~35% the rest of a call (normalise, credibility, ``Beliefs``).
Of the accusations added in a game, 193 are re-added at rebuilds, 67 were re-added
after vote rounds that moved no sum, 56 are news; of the 269 rebuilds after a seat's
first, only 35 keep the known camps (the others follow deaths and Seer results, which
change the terms of every vote and accusation about that player), so per-player indexes
would save at most the re-adding at rebuilds (~13% of the judge's time): not built. Cuts: a vote round
that adds no term keeps the sheriff and accusation layers above it; a claim's lies
found in the loop it already makes (no ``any`` generator, no throwaway sets); the pool
and the certain players listed in one pass, the deck's werewolf cards counted once
(``Memory.wolf_cards``). Judge alone 121.0K -> 106.0K instructions a call (5.60M ->
4.91M a game); per_game, main (f37d29f) and this branch:

    20 heuristic / 200 engine games   18.04M -> 17.57M / 2.49M   7.24x -> 7.05x
    60 heuristic games                16.83M -> 16.38M (engine 2.50M): 6.7x -> 6.55x

Issue 18's tenth step (2026-12-02, beside the ninth; the heuristic bot's choices and speeches: scores
rounded only when close to the leader's, today's accusations counted from the end,
the living pack and its Seer claimant listed once per decision), per_game of 20
heuristic and 200 engine games under valgrind, main (f37d29f) and this branch:

    heuristic game 17.95M -> 16.90M instructions (engine game 2.49M): 7.2x -> 6.8x
    (the accusations and the pack alone: 17.40M)

What paid: ``round(x, 6)`` costs ~3K instructions (it goes through the decimal
digits, ~30x a comparison) and ``Situation.best`` rounded every option of every
choice, ``consensus`` and the wolves' vote too: 205 roundings to 6 places and 36 to
2 a game, now 21 and 1 (rounding keeps the order of two scores and moves each by at
most half a unit, so only close, unequal scores need it). A speech replayed outside
the game (judgement cached, same draws): 167K -> 141K instructions, ~29K of it the
replay's own ``setstate``; counting lines executed, 235 -> 207 a speech. Left in a
speech (~100K, 21 a game): the interpreter over ~200 lines, no part above ~10%
(``best``'s loop and the judge's ``rank`` per option, two line draws through
``random.choice``'s two Python frames, the Speech and Situation objects). The
collector: with ``WARM`` = 2 its first full pass over the start-up heap still falls
inside the 20 games (game 9 of 22, both trees, ``gc.callbacks``): the collector's
functions are ~2.0M of a game's 17.2M in callgrind's profile of 10 games.

Issue 18, the collector in the bot workers (2026-12-02): the ``gc.freeze()`` proposed
above is done in ``arena.gc_tuning``: the tournament's bot worker processes
(``run._bot_worker``) and ``simulate``'s workers call ``tune_bot_worker()`` once
(freeze, young threshold 700 -> 7000, for the worker's lifetime), ``simulate()`` in
process, and a tournament of bot games only played in its own process, use
``many_games()``, which puts the caller's settings back. This file's
templates play in a fresh process with the defaults, so ``per_game`` is unchanged;
measured through ``simulate`` (valgrind, 160 less 10 heuristic games, main 4cb62d3):
15.03M -> 14.66M a game (-2.4%), no young, middle or full pass left after the
imports in 1000 games (were 1000 / 90 / 8), peak RSS 50.9 -> 51.1 MB.
A bot-only tournament in one process (``run_tournament``, the tests' three bots, 60
less 10 games, transcripts and rows written): 64.29M -> 63.20M a game (-1.7%); 300
games peak RSS 77.3 -> 78.0 MB. The ~10 cyclic objects a
game the collector found in a tournament, with or without the tuning, were
``importlib.metadata``'s (found and cut in the next paragraph).

A tournament game against a simulated one (2026-12-02, the lead, valgrind, one
process, 8 players, heuristic and random seats, 30 less 10 games): a tournament game
cost 63.5M instructions against ``simulate``'s 14.6M for the same kind of game. 2.3M
of it was ``software_version()`` asking ``importlib.metadata`` for every game's header
(~0.2 ms, a scan of the path's distributions, which also left the ~10 cyclic objects a
game noted above): read once a process now, 61.2M. Where the rest goes (cProfile of 40
games, proportions only): the transcript writer 36% (each record a pydantic model,
dumped twice, once for the line and once for the chain's canonical form, and two
``json.dumps``), the bots 24%, the finished game's metrics read back from its file 19%,
the game's set-up 12%. The next cut for tournaments by the thousand is the writer: one
dump per record, the canonical form derived from it (the chain's bytes must stay the
same, or every signed transcript stops verifying).

Issue 18, the public facts shared between seats (2026-12-03): a game's public events
read once for all of its heuristic seats (``heuristic_memory.PublicTable``: each seat
keeps its private knowledge on top, and reads alone after any private event that
touches public facts, a fork, or a view behind the table's), and the public
perspective's judgement made once per public moment and day for every seat that
shares the table and overheard nothing, its sums carried in the table. per_game of 20
heuristic games under valgrind, main (cd4b9d8) and the branch's steps (engine game
2.50M), with the collector disabled after the imports in brackets:

    main                        16.53M (15.20M)   6.6x
    the shared table            16.24M (15.19M)   the reading moved into each seat's sync
    + the shared public judge   16.02M (14.73M)   6.4x; public rebuilds 8.0 -> 5.7 a game, 15.4 public judgements computed once per moment
    + containers taken once     15.70M (14.54M)   6.3x (a seat re-takes the table's containers only
                                                  after a game start; the bot's commonest answer
                                                  checked without ``Decision.validate``'s call)

Issue 18, after the shared table was merged (2026-12-03, main 560fc34): per_game of 20
heuristic and 200 engine games under valgrind, 15.71M / 2.49M instructions: 6.30x. No
seat of 40 default games (8 players) reads alone: the sharing holds all game long. Tried
and not kept: a seat's judgement returned again while nothing it reads moved (the same
facts, day, votes, accusations and secrets): only 31 of 1739 judgements in 40 games
could be (between two of a seat's decisions someone nearly always accuses someone), so
the key would cost about what it saves; ``normalise``'s comprehensions rewritten
(``map``, a dict built directly, an appending loop): no difference beyond the noise.
In the village preset the Buildings and MovedIn events (``heuristic_village``'s
handlers, neither the table's nor ``_SEAT_ONLY``) send every seat reading alone from
the first night: the next place the sharing could reach, outside this benchmark. A test
(``tests/test_heuristic_shared.py``) now has each seat in turn make the table's public
judgement first: every seat's judgements stay those it would make alone.

Issue 18, the tournament's transcript writer (2026-12-03): each record dumped once
for its line and its canonical form (``chain.canonical_of_dump`` leaves the fields at
their defaults out as ``exclude_defaults`` does, nested models included, comparing
the field's value with its default), both texts written by orjson where its text is
``json.dumps``'s (``chain.dumps``: 64-bit+ integers and non-string keys fall back,
as do texts holding ``0.0000`` or ``e-``, orjson's other spelling of small floats,
and records with float fields, whose NaN orjson would write as ``null``). The chain and lines are
byte-identical (``tests/test_chain_canonical.py`` against the old definitions,
hypothesis included; transcript_identity 1000 of 1000). valgrind, one process,
8 players, heuristic and random seats, 40 less 10 games, ``PYTHONHASHSEED=0``
(without it a run's count moves by hundreds of millions: the string hashes reorder
sets and dicts, so two run lengths can give a negative difference), main before the
shared table (cd4b9d8), after it (560fc34) and with the writer (fcfd808): 62.00M
(61.38M again), 62.01M -> 48.84M a game (-21%);
the writer's ``_write`` over a game's 137 records x 20 (process time, best of 5):
16.2 -> 15.2 us a record. Left: the metrics read back from each finished game's file (parse 2.8M,
typed events 2.4M a game) and ``make_jobs`` (0.38M).

Issue 18, events and answers written without their models (2026-12-03): nearly all
of a bot game's records are events and answers (155 of 157), and each was still a pydantic model built
(its validation building the event's payload again from its ``data``), dumped and
stripped of its defaults: a fifth of a tournament game (cProfile). The writer now lays
out their lines itself: an event's line is its engine event's ``to_json()`` behind
``"type": "event"``, an answer's the decision's fields in the record's order, and
their canonical forms the same fields less the defaults (``type``, an empty ``data``,
a ``count`` of 1). The other records still go through their models. Whole signed
files of every preset are byte-identical to the old writer's (the test's
``OldWriter`` builds every record's model); transcript_identity 1000 of 1000. Same
measure as above (PYTHONHASHSEED=0, 40 less 10 games), main (4acab59) and the branch
in one run: 49.15M -> 38.70M instructions a game (-21%).

Valgrind counts no system calls, and the writer made one a line: every line was
flushed so that whatever stops a game leaves it on disk. A tournament's bot game is
played again whole if it is cut off (its part file is overwritten), so its writer
keeps the lines in the file's buffer until it closes (``flush=False``); model games
still flush each line. ``strace -c`` of a one-process tournament, 40 less 10 games:
155 -> 5.2 ``write`` calls a game; system CPU time 1.25 -> 0.60 ms a game (best of
4 runs of 70 less 10 games on the loaded machine).

The finished game's measures (2026-12-03) still come from its file, but its event
records are taken as the game's own typed events (``load_transcript(path, played=
game.events)``, each checked to be the record's event by number and kind) instead of
being read again from their ``data``: the measures of 24 games of every preset are
identical both ways (``tests/test_metrics_handover.py``). Same measure, main (b743b96)
and the branch in one run: 38.39M -> 36.93M instructions a game (-3.8%).

Issue 18, the heuristic memory's reading at each decision (2026-12-03): a decision's
new events read in one pass (the public ones counted and the last kept for the check
against the table, the private ones listed: no comprehension frames, no reversed
scan, no second loop over the private ones; nothing read when nothing is new), and
``Memory`` with slots (55 fields: more than an instance dict shares its keys for, so
every read of one, the judge's included, went through a dict of its own). The
memories' updates replayed alone (the 10 games' views fed to fresh memories,
valgrind): 1.62M -> 1.43M -> 1.27M instructions a game. per_game of 20 heuristic and
200 engine games under valgrind, ``PYTHONHASHSEED=0``, main (4acab59) and the branch
in one run:

    heuristic game 15.82M -> 15.37M instructions (engine game 2.49M): 6.35x -> 6.16x

Tried and not kept (under 1% of a game): ``Situation.best`` with the leader's range
test kept as the leader changes and the difference taken once (15.359M -> 15.352M);
``PublicTable`` with slots (replayed updates 1.27M -> 1.23M). Where the rest of the
per-decision path goes (opcodes traced over 10 games: 195K a game, the suspicion model
64K): the memory 39K (its updates 29K, of which the first seat's reading of the news
for the table ~5K), ``Situation`` 15K (``best`` 8.8K over ~350 options), the speeches
10K, ``decide`` 2.5K; a game's seat setup pays a string-seeded ``random.Random`` per
seat (~44K instructions each, the Mersenne Twister's own seeding).

Issue 18, the suspicion model's fixed costs (2026-12-03). Doubling one part of the
judge in 10 games (valgrind, collector off) gives its cost: a judgement with nothing
new to add ~51K instructions (44 a game: 2.27M), ``normalise`` ~30K of it (26K for a
pool of 6, ~15K of that fixed: on this interpreter a comprehension costs ~2.7K, a
``zip`` 2.4K, ``max`` of 6 2.4K, ``dict(zip(..))`` of 6 6.2K, a keyword dataclass call
6.5K against 3.7K positional); a rebuild of the carried sums (18.5 a game) 61K (known
camps 12K, liars 16K, standing 15K) plus 40K re-adding the votes and accusations: 1.9M
a game. Cut: ``normalise``'s odds read by one ``itemgetter`` call and the usual case's
shares built into the dict; the certain players added with one ``update``;
``Beliefs`` built positionally; the known wolves listed once per rebuild (the sheriff
voters skipped while there are none); no throwaway set per accusation for today's
voices; a plain villager's claim skipped by the liar test; ``judged`` without
``judge``'s extra frame. A no-news judgement 2.27M -> 2.02M a game after the first
step; per_game of 20 heuristic and 200 engine games under valgrind,
``PYTHONHASHSEED=0``, main (dcce50c) and the branch in one run:

    heuristic game 15.20M -> 14.80M instructions (engine game 2.31M): 6.57x -> 6.39x (-2.7%)
    collector off after the imports, 20 games: 14.01M -> 13.59M (-3.0%)

Tried and not kept: ``normalise`` with its weights in a dict (24.8K) or its shares
through ``dict(zip(..))`` (23.9K) against the kept 22.5K. Left: rebuilds follow
deaths, whose revealed card changes the terms of every vote and accusation about
the dead (the accusations are re-added at every change of day anyway), so fewer
rebuilds need per-player indexes of the terms; a private rebuild recomputes the
public known camps the table's carried judgement already holds (~5K of 12K).
Issue 18, the suspicion model's loops (2026-12-03, branch hm24): on this interpreter
each builtin call and comprehension frame costs ~2.5K instructions before its first
element, so ``normalise`` (capped rounds too), the rebuilds' known camps, pool,
wolves and vote rounds are plain loops; ``_add_secrets`` and ``_credibility`` are
called only when the seat holds a secret or a claimant reported checks; the role
holders are listed only for a unique role claimed; ``Beliefs`` has no defaults;
``Situation.best``/``consensus`` keep the leader's range test. The judge replayed on
the 423 memories of 10 games (valgrind): 38.44M -> 31.72M instructions (3.84M ->
3.17M a game); a no-news judgement 40.7K -> 34.6K; ``normalise`` for a pool of 6
23.6K -> 18.8K. per_game of 20 heuristic games, valgrind, ``PYTHONHASHSEED=0``: main
(b0e462c) 14.82M (engine 2.32M, 6.40x; this tree unchanged in the same run 14.77M),
this branch at its third step 13.93M (~6.0x, a separate run); all seven steps,
one run against main 736db14: 13.92M -> 12.95M (-7.0%; engine 2.31M: 6.02x ->
5.60x). Left: rebuilds
(~18 a game, ~75K each beyond a judgement) replay every vote and accusation, which
only per-player indexes of the terms would avoid.

Issue 18, the suspicion model's rebuilds (2026-12-03, branch hs26). Where the judge's
cost goes, replayed on deep copies of the 425 memories it judged in 10 games
(valgrind, ``setarch -R`` so that two runs agree to a few hundred instructions):
3.28M a game, of which building the carried sums 1.03M (19 builds a game, 49.6K each:
known camps 9.6K, liars 7.8K, standing 15.1K), the builds' replay of the game's votes
and accusations 0.6M (32K a build) and the rest of the 43.5 judgements 1.65M (39K
each, ``normalise`` ~17K of it); counted in bytecodes, ``normalise`` is 34% of the
model and the accusations 17%. Of the 19 builds, 6.25 are a perspective's first;
of the 12.8 rebuilds, 10.5 follow a change of the known camps (a death's card), the
standing is unchanged in 11.4 and the pack's victims in 4.5, and all three in only
1.8: taking the previous sums over in those (tried) measured -10K a game, not kept.
At a rebuild the final sums of 47% of the players (private) and 70% (public) are
unchanged, but finding them takes per-player indexes of the terms (a scan costs what
the replay does), for at most half the accusations' replay (~0.2M a game): not
built. A public judgement repeating the previous one's inputs: 0.78 of 12.5 a game.
Cut: the rebuilds' two ``max`` and the victims' ``set`` (builtin calls) written out,
the confirmed Seers summed in ``_standing``'s loop (no call, no dict), the dead's
camps read from ``is_wolf_role``'s kept answers inline (~43 calls a game), no loop
over an empty credibility dict. The judge replayed: 32.83M -> 31.58M (3.28M -> 3.16M
a game); per_game of 20 heuristic games, ``PYTHONHASHSEED=0``, main (7be6590) and the
branch in one run: 12.94M -> 12.82M (-0.9%; engine 2.28M: 5.7x -> 5.6x). Then
``normalise``'s capped rounds (a fifth of the calls, ~28% of its bytecodes) without a
tuple and a list call per player and round, and the dead wolves counted in the loop
listing the known wolves: the judge replayed 31.58M -> 31.07M -> 31.00M (3.10M a
game, -5.6% in all). All steps, main (7be6590) and the branch in one run: heuristic
game 12.98M -> 12.79M (-1.5%), engine game 2.31M: 5.62x -> 5.54x. Left in the
model (~3.1M a game): ``normalise``'s usual pass (~17K a call, 50 calls, already
plain loops), a judgement's fixed costs (~20K: the carried sums' copy, ``Beliefs``
2.7K, the secrets' call) and the rebuilds, which follow deaths: the ratio's goal
(9.1M a game) is 3.7M away, more than the whole model costs.

Issue 18, the heuristic bot outside its suspicion model (2026-12-03, branch hm26).
Where a game goes, measured inside the game (valgrind with collection switched on
only inside one function, through a callgrind client request, 20 games after 2 warm
ones, ``PYTHONHASHSEED=0``; each figure includes ~2.4K instructions a call of the
switch itself): the whole game 12.59M; ``HeuristicAgent.decide`` 9.06M, of which
reading the view 2.40M (``SeatView.events`` 0.73M, ``Game.observation`` 0.65M of it;
``Memory.update`` 1.80M: the table's reading 0.73M, a speech's parse 0.41M of that,
``_sync`` 0.34M) and the judge 3.28M (43.5 judgements a game, 25 of them plain
villagers' private ones: 12.3 speeches, 8.0 votes, 4.4 sheriff votes); the policies
without the judge: speeches 2.0M (village 48K, wolf 95K, wording 28K each, a line
~7.5K), votes and the rest ~1.5M, ``Situation.best`` 1.17M with its scores; a seat's
setup 61K (``random.Random(str)`` 46K of it: sha512 and the Mersenne Twister's own
seeding; seeding one shared generator again instead saves only 3.6K a call). Outside
the bots: ``Game.submit`` 1.78M and the build 1.69M a game (differences of run lengths).
Cut: a speech's claims parsed with plain loops (~19K -> ~11K a speech) and news read
by the table in one pass over the new events; the memories' updates replayed alone
(10 games, fresh memories and parses) 1.594M -> 1.367M; per_game of 20 heuristic
games, main (7be6590) and the branch in one run:

    heuristic game 12.947M -> 12.735M instructions (engine game 2.31M): 5.60x -> 5.51x

Tried and not kept: the seat's pass counting its private events instead of its public
ones (the last public event found from the end: +0.005M replayed); the pack's dice
reseeding one generator (1.25 calls a game); ``line``'s ``lru_cache`` read as a plain
dict (~0.35K a line, ~16K a game: within the noise). Left: what the 4x needs is
mostly outside these files: the judge (3.28M), the engine's submit and observation
(2.4M), the build (1.69M, the seats' generators 0.37M of it inherent); the memory's
fixed cost a decision (~25K over ~54 decisions a game) and the policies' Python
(~200 instructions a line executed, spread thin: no line of theirs above ~1%).

This script on an idle machine (2026-12-04, ``--before 7be6590 --games 600
--heuristic-games 20``, ``PYTHONHASHSEED=0``, load 0.1), hs26 and hm26 together:

                                            7be6590       main e497cb8
    heuristic game / engine game (instr)    13.0M 5.6x    12.6M 5.4x   (engine 2.31M; goal 4x)
    tournament, 600 games, 2 processes      1.98x         1.82x        (3.2 s -> 1.6-1.7 s; goal 1.8x)
      parent CPU a game / its share         0.6 ms 10.6%  0.6 ms 9.9%
    leaderboard, 600 games                  0.34 s        0.32 s       (goal < 1 s)
    metrics, 600 transcripts                0.70 s 43 MiB 0.81 s 43 MiB (goal < 2 s, 100 MiB)

The two tournament ratios are one run each (the same code for the pool): read them
as ~1.8-2.0x on two idle cores.

The same heuristic games as ``simulate`` plays them (``SIMULATED``: the table checked
once, not every game as the game-file loop does), main 87f84a0, valgrind, 100 less 50
games, PYTHONHASHSEED=0: 11.60 M instructions a game, 5.0x the engine game (the goal's
4x needs 9.2 M). Compiling the bot's modules with mypyc (a scratch build; see
``benchmarks/simulate_throughput.py``) gives 9.72 M (4.2x); a judgement kept while its
inputs (facts, votes, sheriff votes, accusations, day, secrets) stand would be reused
146 times in 8834: between two of a seat's decisions the table has almost always moved.

Issue 18, session 16 (2026-12-05; main 14f9a49 and the merged branches, CPython 3.11.7,
valgrind, ``PYTHONHASHSEED=0``; "simulate" is ``SIMULATED``, 60 less 10 games):

    the heuristic game as simulate plays it        11.329M -> 10.764M (-5.0%)
    the engine game (220 less 20 games)             2.325M -> 2.325M
    ratio                                           4.87x -> 4.63x  (goal 4x: 9.30M)
    this script, --before 14f9a49 --games 600 --heuristic-games 20, load ~1:
      heuristic game 12.6M -> 12.0M (5.4x -> 5.2x), as simulate plays it 11.7M -> 11.1M
      (5.1x -> 4.8x; 20 games carry the collector's one full pass); tournament, 600
      games, 2 processes against 1: 1.83x / 1.80x; leaderboard 0.43 s / 0.38 s; metrics
      over 600 transcripts 1.02 s / 0.95 s, peak 43 MiB both

What paid: a bot's memory takes only the events after the last it read
(``SeatView.since``: ``Game.observation`` from that event on, tested in a plain loop,
a private audience asked for the seat at once) instead of a copy of its whole view at
every decision, and reads the table's news in the pass that counts its public events
(-3.0%); a bot line without braces is not formatted and the fill is passed as its dict
(-0.13M), the wolves' vote scores each option once and rounds only close scores
(``as_rounded``; 69.5K -> 48.7K a vote). Tried and not kept: a plain seat's private
sums taken from the table's public ones, only the rows touching the seat summed again
from per-player lists of its votes and accusations (bit-identical, -1.7%, for ~240 lines
of a second way to build the carried sums beside the first); separate per-seat rows
merged into each judgement (+0.3%); the same for the Seer and a caught Little Girl
(worse than the plain seats alone); ``Game.news`` beside ``observation`` (-0.3%, a second
API); ``_legal`` inlined in ``decide`` (-6K a game). Where the 10.76M goes now (a switch
that counts inside one function): the judge ~2.7-2.9M (``normalise`` a third of it,
mostly ``math.exp``; 48 calls a game), the policies ~3.5M (speeches 2.0M: village 46K,
wolf 97K, wording 24K each; ``Situation.best`` 0.72M; votes 0.58M; the night chat
0.24M), the memory's reading ~1.5M (the table's public events 0.47M, a speech's parse
~15K), the engine's own play and the deal ~2.6M with the seats' generators and memories
(~75K a seat). No part left is above ~1% of a game that a change of how it is computed
would remove; the 1.46M to the goal is more than the speeches, or half the judge.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

HEURISTIC = """
import sys
sys.path.insert(0, {root!r})
from arena.gamefile import default_game
from arena.runner import run_sync
for s in range({games}):
    game, seats = default_game(players=8, seed=s, agent="heuristic").build()
    run_sync(game, seats)
"""

# The same games as ``werewolf simulate --agents heuristic`` plays them: the table (its
# options, names, deck and the seats' agent makers) checked once, then each game only
# dealt and seated, under the simulation's collector settings. A run of many bot games
# pays this; the loop above also pays a game file's checks every game.
SIMULATED = """
import sys
sys.path.insert(0, {root!r})
from arena.simulate import simulate
simulate(games={games}, agents="heuristic", players=8, processes=1, seed=0)
"""

ENGINE = """
import sys
sys.path.insert(0, {root!r}); sys.path.insert(0, {root!r} + "/benchmarks")
from engine_throughput import TABLES, play
names = [f"P{{i}}" for i in range(8)]
for s in range({games}):
    play(names, TABLES[8], s)
"""

TOURNAMENT = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
import logging
from arena.tournament.config import load_config
from arena.tournament.run import run_tournament
cfg = load_config({config!r})
t, cpu = time.perf_counter(), time.process_time()
run_tournament(cfg, {db!r}, progress=False)
wall, cpu = time.perf_counter() - t, time.process_time() - cpu
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({{"seconds": wall, "parent_cpu": cpu, "workers_cpu": kids.ru_utime + kids.ru_stime}}))
"""

TIMED = """
import json, resource, sys, time, io, contextlib
sys.path.insert(0, {root!r})
from arena.cli import main
t = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main({argv!r})
    except SystemExit as e:
        if e.code not in (0, None):
            raise
wall = time.perf_counter() - t
use = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"seconds": wall, "cpu": use.ru_utime + use.ru_stime, "peak_mib": use.ru_maxrss / 1024}}))
"""


def instructions(code: str) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
        capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(),
    ).stderr  # fmt: skip
    m = re.search(r"Collected : (\d+)", out)
    if not m:
        raise RuntimeError("valgrind printed no instruction count")
    return int(m.group(1))


WARM = 2  # games played in both runs of ``per_game``: what a process pays once is not a game's


def per_game(template: str, root: str, games: int) -> float:
    """M instructions a game costs in a running process: the difference between runs of
    ``WARM + games`` and ``WARM`` games, over ``games``. So the interpreter's start, the
    imports, the first games' lazy loading and the collector's first full pass over the
    start-up heap (2.1M a game of a 20-game heuristic run, once a process: issue 18's
    eighth step) are all left out, for the heuristic bots and the engine alike."""
    base = instructions(template.format(root=root, games=WARM))
    full = instructions(template.format(root=root, games=WARM + games))
    return (full - base) / games / 1e6


def run_json(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tempfile.gettempdir())
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def tournament(root: str, folder: Path, games: int, processes: int) -> tuple[dict, Path]:
    import yaml

    config = folder / f"t{processes}.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "name": "bench", "seed": 3, "games": games, "concurrency": {"processes": processes},
                "tables": [{"players": 8}, {"players": 10}],
                "participants": [{"name": "H", "agent": "heuristic"}, {"name": "R", "agent": "random"}],
            }
        )
    )  # fmt: skip
    db = folder / f"t{processes}" / "results.sqlite"
    db.parent.mkdir()
    return run_json(TOURNAMENT.format(root=root, config=str(config), db=str(db))), db


def measure(root: str, args: argparse.Namespace) -> dict:
    out: dict = {}
    if shutil.which("valgrind") and args.heuristic_games:
        h = per_game(HEURISTIC, root, args.heuristic_games)
        e = per_game(ENGINE, root, args.heuristic_games * 10)
        out["heuristic"] = (h, e, per_game(SIMULATED, root, args.heuristic_games))
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        one, _ = tournament(root, Path(tmp), args.games, 1)
        two, db = tournament(root, Path(tmp), args.games, 2)
        out["tournament"] = (one, two)
        out["leaderboard"] = run_json(TIMED.format(root=root, argv=["leaderboard", "--db", str(db)]))
        out["metrics"] = run_json(TIMED.format(root=root, argv=["metrics", "--json", str(db.parent)]))
    if args.metrics_dir:
        out["metrics_dir"] = run_json(TIMED.format(root=root, argv=["metrics", "--json", args.metrics_dir]))
    return out


def report(label: str, m: dict, games: int) -> list[str]:
    rows = []
    if "heuristic" in m:
        h, e, sim = m["heuristic"]
        rows.append(f"heuristic game {h:.1f}M instr, engine game {e:.2f}M: {h / e:.1f}x (goal <= 4x)")
        rows.append(f"  as simulate plays it (table checked once) {sim:.1f}M instr: {sim / e:.1f}x")
    one, two = m["tournament"]
    share = two["parent_cpu"] / max(1e-9, two["parent_cpu"] + two["workers_cpu"])
    rows.append(
        f"tournament {games} games: 1 process {one['seconds']:.1f}s, 2 processes {two['seconds']:.1f}s:"
        f" {one['seconds'] / two['seconds']:.2f}x (goal >= 1.8x; wall clock, shared machine)"
    )
    rows.append(
        f"  with 2 processes: parent {1000 * two['parent_cpu'] / games:.1f} ms CPU per game, workers"
        f" {1000 * two['workers_cpu'] / games:.1f} ms: parent share {100 * share:.1f}% (bound on N processes: {1 / max(share, 1e-9):.0f}x)"
    )
    rows.append(f"leaderboard on {games} games: {m['leaderboard']['seconds']:.2f}s")
    rows.append(f"metrics over {games} transcripts: {m['metrics']['seconds']:.2f}s, peak {m['metrics']['peak_mib']:.0f} MiB")
    if "metrics_dir" in m:
        d = m["metrics_dir"]
        rows.append(
            f"metrics over --metrics-dir: {d['seconds']:.2f}s wall, {d['cpu']:.2f}s CPU (whole process), peak {d['peak_mib']:.0f} MiB"
            " (goal at 600 transcripts: < 2 s, < 100 MiB)"
        )
    return [f"{label:>8}: {r}" for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="a git revision to measure first (e.g. main)")
    ap.add_argument("--games", type=int, default=200, help="tournament games (the leaderboard and metrics read them)")
    ap.add_argument("--heuristic-games", type=int, default=10, help="heuristic games under valgrind (0: skip)")
    ap.add_argument("--metrics-dir", help="also time `werewolf metrics` over this folder (e.g. 600 transcripts made once)")
    args = ap.parse_args()
    lines: list[str] = []
    if args.before:
        with tempfile.TemporaryDirectory(prefix="before-") as tmp:
            tar = subprocess.run(["git", "-C", str(ROOT), "archive", args.before], capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
            # Compiled now, so that the first timed command does not pay for it.
            subprocess.run([sys.executable, "-m", "compileall", "-q", tmp], check=True, capture_output=True)
            lines += report(args.before, measure(tmp, args), args.games)
    lines += report("this", measure(str(ROOT), args), args.games)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
