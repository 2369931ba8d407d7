"""bench_metrics builds a sharded synthetic set and times the metric pass (no timing asserted)."""
from analyses.bench import bench_metrics, build
from analyses.load import open_results


def test_bench_metrics_runs_on_a_small_set(tmp_path):
    seconds = bench_metrics(40_000)
    assert seconds > 0
    res = open_results(build(tmp_path, 8_000))
    assert res.variants["base"].rows == 8_000 and res.variants["base"].players == (4,)
