"""Printed numbers: no nan, no -0, no '<1e-4' (issue 10)."""
import math

from analyses import fmt


def test_p_values_keep_their_magnitude():
    assert fmt.p_value(0.04321) == "0.0432"
    assert fmt.p_value(3.2e-7) == "3.2e-07"
    assert fmt.p_value(0.0) == "below 1e-300"
    assert fmt.p_value(float("nan")) == "n/a" and fmt.p_value(None) == "n/a"


def test_signed_numbers_never_print_minus_zero_or_nan():
    assert fmt.signed(-0.0004, 2, 100) == "-0.04"
    assert fmt.signed(-0.00004, 2, 100) == "0.00"
    assert fmt.signed(0.123, 1) == "+0.1"
    assert fmt.signed(math.nan) == "n/a" and fmt.signed(math.inf) == "n/a"
    assert fmt.interval(-0.001, 0.14, 0, 100) == "[0, +14]"
    assert fmt.number(-1e-9, 2) == "0.00" and fmt.pct(0.3333) == "33.3%"
