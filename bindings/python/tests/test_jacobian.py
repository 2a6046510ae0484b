"""The contact Jacobians of `bdtree.contacts` against central finite differences of the depth
it reports, on thousands of random float64 contacts: unit bodies near the origin, 3-10 km from
it, and millimetre parts 250 m from it (the `Scene`s of test_queries.py)."""

import numpy as np

import bdtree
from test_queries import KINDS, Scene

# The largest relative error of a contact's rows (both bodies together) against the
# finite differences, where the depth is differentiable.
RELATIVE = 1e-3
# The step in q (the modes move the vertices ~0.3 of the body's size per unit of q).
STEP = 1e-6
# One-sided slopes that differ by more than this fraction of their size show a kink between
# q - h and q + h (the depth's features switched): such contacts are skipped and counted.
KINK = 1e-2


def depths_by_pair(C):
    return {tuple(p): d for p, d in zip(C["pairs"].tolist(), C["depths"])}


def compare(s, tally):
    C = bdtree.contacts(s.a, s.b)
    J = np.hstack([C["jacobian_a"], C["jacobian_b"]])
    at = depths_by_pair(C)
    fd = np.full(J.shape, np.nan)
    kink = np.zeros(len(C["depths"]), dtype=bool)
    column = 0
    for body, q, rotation, translation in ((s.a, s.qa, s.ra, s.ta), (s.b, s.qb, s.rb, s.tb)):
        for j in range(len(q)):
            steps = {}
            for h in (STEP, -STEP):
                moved = np.array(q, dtype=float)
                moved[j] += h
                body.set_state(rotation=rotation, translation=translation, q=moved)
                steps[h] = depths_by_pair(bdtree.contacts(s.a, s.b))
            body.set_state(rotation=rotation, translation=translation, q=q)
            for k, p in enumerate(map(tuple, C["pairs"].tolist())):
                plus, minus = steps[STEP].get(p), steps[-STEP].get(p)
                if plus is None or minus is None:
                    kink[k] = True
                    continue
                up, down = (plus - at[p]) / STEP, (at[p] - minus) / STEP
                if abs(up - down) > KINK * max(abs(up), abs(down), 1e-12):
                    kink[k] = True
                fd[k, column] = (plus - minus) / (2 * STEP)
            column += 1
    for k in range(len(C["depths"])):
        if C["depths"][k] <= 0:
            tally["touching"] += 1
            continue
        if kink[k]:
            tally["switched"] += 1
            continue
        relative = np.linalg.norm(J[k] - fd[k]) / np.linalg.norm(fd[k])
        assert relative <= RELATIVE, (C["pairs"][k], J[k], fd[k], relative)
        tally["worst"] = max(tally["worst"], relative)
        tally["compared"] += 1


def test_jacobians_are_the_derivatives_of_the_reported_depths():
    rng = np.random.default_rng(50)
    tally = {"compared": 0, "switched": 0, "touching": 0, "worst": 0.0}
    for n in range(150):
        compare(Scene(rng, KINDS[n % 3], "f64"), tally)
    print(f"{tally['compared']} contacts compared (worst relative error {tally['worst']:.2e}), "
          f"{tally['switched']} skipped at a feature switch, {tally['touching']} of depth 0")
    assert tally["compared"] >= 2000, tally
    assert tally["switched"] * 20 <= tally["compared"], tally
