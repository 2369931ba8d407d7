"""Game-agnostic analysis of results shards: balance metrics, comparisons, sweeps.

Reads only the common results schema (docs/results_schema.md); no plotting here (see
``reports``). One module per job:

* ``load``       find, check and lazily scan an experiment's shards (``open_results``)
* ``intervals``  Wilson, Newcombe (unpaired and paired), t and Welch intervals, Holm
* ``winrates``   win rates by any column(s), equal-rates test, seat advantage, Ludii's Balance, shared wins
* ``scores``     score summaries, components, margin of victory, game length, end reasons
* ``ratings``    Plackett-Luce (Bradley-Terry with two players) ratings with intervals
* ``balance``    the balance summary: the numbers of a report's detail page
* ``verdicts``   the verdict page: out of balance / balanced within ±δ / undecided, one family per page
* ``metrics``    every metric of one variant in one call (reports, ``summary``, ``bench``)
* ``compare``    paired / unpaired comparison of two variants: changed by more than δ / no change / undecided
* ``sprt``, ``sequential``   sequential probability ratio tests and the round-by-round loop
* ``sequential_oc``  the sequential comparison's error rates and average games, by simulation
* ``sweep``      metrics against swept parameters
* ``features``   features in play (tiles, goals a game draws): which values shift the outcome
* ``synthetic``  schema-conforming results with a known truth, for tests
* ``bench``      ``bench_metrics(n_rows)``: time of the metric pass over n synthetic rows
* ``fmt``        printed numbers: no nan, -0 or "<1e-4"
* ``cli``        the ``report``, ``compare`` and ``summary`` commands

See docs/analyses.md for the methods and how to read the output.
"""
