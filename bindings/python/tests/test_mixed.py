"""Millimetre bodies beside a 1000-unit body 250 units away (issue 39): from Python, the answers
of the host layer the CLI uses — each body pair at its own floating origin, so the f32 distance
of the two small bodies is within 1e-6 of the f64 one wherever the large body is, f32
contacts are refined (no negative depth, one per refined pair), witnesses lie on their
triangles within the pair's bound — and equal to the CLI's on the same scene, frame by frame."""

import json
import subprocess

import numpy as np
import pytest

import bdtree
from geometry import all_pair_distances, point_triangle_distance
from test_oracle import brute_force, smooth_basis, sphere_mesh, world

U32 = 2.0 ** -24
# The bound of bdtree_std::host::placing: an f32 extra or witness of bodies a and b is closer
# than 256 u32 (x_a + x_b + |t_a - t_b|).
BOUND = 256.0


def rotation_about(axis, angle):
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def mixed_scene():
    """Two 1 mm balls (the second with two modes) at the origin, a 1000-unit ball whose
    surface is 250 units from them; frames: 0.36 mm apart, 0.2 mm into each other, and the
    first again with everything 10^4 units away."""
    V, F = sphere_mesh()
    small = V * 0.5e-3
    # Modes moving the small ball by a few hundredths of a millimetre per unit of q.
    U = smooth_basis(V, 2, np.random.default_rng(39)) * 0.05e-3
    big = V * 500.0
    direction = np.array([-126.0, 201.0, 111.0])
    far = direction / np.linalg.norm(direction) * 750.0
    turn = rotation_about([0.3, 1.0, 0.2], 0.7)
    bodies = [("ball", small, F, None), ("cross", small, F, U), ("big", big, F, None)]
    frames = []
    for gap, shift in ((0.36e-3, 0.0), (-0.2e-3, 0.0), (0.36e-3, 1e4)):
        at = np.array([shift, -shift, 0.5 * shift])
        frames.append([
            ((1.0, 0.0, 0.0, 0.0), at, None),
            (tuple(turn), at + [1.0e-3 + gap, 0.0, 0.0], np.array([0.3, -0.2])),
            ((1.0, 0.0, 0.0, 0.0), at + far, None),
        ])
    return bodies, frames


def write_scene(tmp_path, bodies, frames):
    spec = {"bodies": [], "frames": []}
    for name, V, F, U in bodies:
        lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in V.tolist()]
        lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in F.tolist()]
        (tmp_path / f"{name}.obj").write_text("\n".join(lines) + "\n")
        body = {"name": name, "mesh": f"{name}.obj"}
        if U is not None:
            np.save(tmp_path / f"{name}.npy", U)
            body["modes"] = f"{name}.npy"
        spec["bodies"].append(body)
    for frame in frames:
        states = []
        for r, t, q in frame:
            state = {"rotation": [float(x) for x in r], "translation": [float(x) for x in t]}
            if q is not None:
                state["q"] = [float(x) for x in q]
            states.append(state)
        spec["frames"].append({"bodies": states})
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(spec))
    return path


def cli_lines(cli, *args):
    out = subprocess.run([str(cli), *args], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def python_bodies(bodies, precision):
    return [bdtree.Body(bdtree.Tree.build(V, F, modes=U, precision=precision))
            for _, V, F, U in bodies]


def set_frame(handles, frame):
    for body, (r, t, q) in zip(handles, frame):
        body.set_state(rotation=r, translation=t, q=q)


def extent(V, U, q):
    """max |p_i| + sum_j max_i |U_ij| |q_j| (the bound's x)."""
    x = np.linalg.norm(V, axis=1).max()
    if U is not None:
        Ui = U.reshape(len(V), 3, -1)
        x += (np.linalg.norm(Ui, axis=1).max(axis=0) * np.abs(q)).sum()
    return x


def test_millimetre_bodies_keep_their_own_precision_beside_a_far_large_body_issue_39():
    bodies, frames = mixed_scene()
    f32, f64 = python_bodies(bodies, "f32"), python_bodies(bodies, "f64")
    checked = 0
    for f, frame in enumerate(frames):
        set_frame(f32, frame)
        set_frame(f64, frame)
        P = [world(V, U, r, t, q) for (_, V, _, U), (r, t, q) in zip(bodies, frame)]
        F = bodies[0][2]
        for i, j in ((0, 1), (0, 2), (1, 2)):
            d32, d64 = bdtree.distance(f32[i], f32[j]), bdtree.distance(f64[i], f64[j])
            truth = all_pair_distances(P[i], F, P[j], F).min()
            _, Vi, _, Ui = bodies[i]
            _, Vj, _, Uj = bodies[j]
            ti, tj = np.asarray(frame[i][1]), np.asarray(frame[j][1])
            bound = BOUND * U32 * (extent(Vi, Ui, frame[i][2]) + extent(Vj, Uj, frame[j][2])
                                   + np.linalg.norm(ti - tj))
            assert abs(d64.distance - truth) <= 1e-9 * max(truth, 1e-3), (f, i, j)
            if (i, j) == (0, 1) and d64.distance > 0:
                # Issue 39: this came back 0 ("intersecting") where they are 0.36 mm apart.
                assert abs(d32.distance - d64.distance) <= 1e-6 * d64.distance, \
                    (f, d32.distance, d64.distance)
                checked += 1
            for point, body, tri in ((d32.point_a, i, d32.triangles[0]),
                                     (d32.point_b, j, d32.triangles[1])):
                off = point_triangle_distance([point], P[body][F[[tri]]])[0]
                assert off <= bound, (f, i, j, off, bound)
        # The small bodies' f32 pairs: none missed, every extra within the pair's bound, and
        # f32 contacts one per pair, none with a negative depth.
        pairs = {tuple(p) for p in bdtree.collide(f32[0], f32[1]).tolist()}
        truth = set(brute_force(P[0], F, P[1], F))
        assert truth <= pairs, (f, sorted(truth - pairs)[:4])
        contacts = bdtree.contacts(f32[0], f32[1])
        assert {tuple(p) for p in contacts["pairs"].tolist()} == pairs
        assert (contacts["depths"] >= 0).all()
        if f == 1:
            assert truth, "the overlapping frame has no contact: the test would be vacuous"
    assert checked == 2


@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_python_answers_equal_the_clis_on_the_mixed_scene_issue_39(precision, tmp_path, cli):
    bodies, frames = mixed_scene()
    path = write_scene(tmp_path, bodies, frames)
    names = [b[0] for b in bodies]
    handles = python_bodies(bodies, precision)
    distances = cli_lines(cli, "distance", str(path), "--precision", precision, "--json")
    collide = cli_lines(cli, "collide", str(path), "--precision", precision, "--json", "--self")
    touching = cli_lines(cli, "collide", str(path), "--precision", precision, "--json",
                         "--contacts")
    assert len(collide) == len(touching) == len(frames) and len(distances) == 3 * len(frames)
    contacts_seen = 0
    for f, frame in enumerate(frames):
        set_frame(handles, frame)
        for line in (x for x in distances if x["frame"] == f):
            i, j = (names.index(n) for n in line["bodies"])
            d = bdtree.distance(handles[i], handles[j])
            assert d.distance == pytest.approx(line["distance"], rel=1e-12, abs=1e-300), (f, i, j)
            assert list(d.triangles) == line["triangles"], (f, i, j)
            assert np.allclose(d.point_a, line["point_a"], rtol=0, atol=1e-12 * (1 + 1e4))
        want = sorted(tuple(p) for p in collide[f]["pairs"])
        got, contacts = [], {}
        for i in range(len(handles)):
            got += [(names[i], names[i], int(p), int(q))
                    for p, q in bdtree.collide_self(handles[i]).tolist()]
            for j in range(i + 1, len(handles)):
                got += [(names[i], names[j], int(p), int(q))
                        for p, q in bdtree.collide(handles[i], handles[j]).tolist()]
                C = bdtree.contacts(handles[i], handles[j])
                for p, depth in zip(C["pairs"].tolist(), C["depths"].tolist()):
                    contacts[(names[i], names[j], p[0], p[1])] = depth
        assert sorted(got) == want, f"frame {f}"
        assert len(touching[f]["contacts"]) == len(contacts), f"frame {f}"
        for pair, contact in zip(touching[f]["pairs"], touching[f]["contacts"]):
            assert contacts[tuple(pair)] == pytest.approx(contact["depth"], rel=1e-9,
                                                          abs=1e-15), (f, pair)
            assert contact["depth"] >= 0
            contacts_seen += 1
    assert contacts_seen > 0
