"""What the randomized scene tests share: every scene kind in both precisions, and each case's
scenes drawn from one generator seeded by the test, the kind and the precision."""

import numpy as np
import pytest

PRECISIONS = ["f32", "f64"]


def every_kind_and_precision(kinds):
    """Runs the test once per scene kind of `kinds` and precision (`kind`, `precision`)."""
    def mark(test):
        by_precision = pytest.mark.parametrize("precision", PRECISIONS)(test)
        return pytest.mark.parametrize("kind", kinds)(by_precision)
    return mark


def scenes(make, kinds, seed, kind, precision, count, **options):
    """`count` scenes `make(rng, kind, precision, **options)`, each with the case's generator
    `rng` (seeded by `seed`, the kind's place in `kinds` and the precision), which the test
    may draw from between them."""
    rng = np.random.default_rng(seed + kinds.index(kind) + 10 * (precision == "f32"))
    for _ in range(count):
        yield rng, make(rng, kind, precision, **options)
