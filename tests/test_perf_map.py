"""benchmarks/perf_map.py: perf's map names numba's machine code (a session profiling tool)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import sys
from benchmarks import perf_map
perf_map.install()
from numba import njit

@njit
def summed(n):
    s = 0
    for i in range(n):
        s += i * i
    return s

@njit
def outer(n):
    return summed(n) + 1

outer(10)
address = outer.overloads[outer.signatures[0]].library.get_pointer_to_function(
    outer.overloads[outer.signatures[0]].fndesc.llvm_func_name)
rows = [line.split(" ", 2) for line in open(perf_map.write_map(sys.argv[1])).read().splitlines()]
hits = [r[2] for r in rows if int(r[0], 16) <= address < int(r[0], 16) + int(r[1], 16)]
print(address > 0, len(rows), hits)
"""


def test_the_map_names_the_compiled_function_at_its_address(tmp_path):
    """The map written after a call has a line whose address range holds the function's entry
    point, named by its mangled numba name; without ``install`` the map would be empty."""
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "perf.map")], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split(" ", 2)
    assert out[0] == "True" and int(out[1]) >= 2
    assert "outer" in out[2] and "summed" not in out[2]
