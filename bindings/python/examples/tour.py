# %% [markdown]
# # A tour of bdtree from Python
#
# Two deformable bodies built from NumPy arrays, moved frame by frame, their contacts, distance
# and contact proxies — checked against a NumPy brute force on the explicitly deformed meshes.
# Run it as a script (`python tour.py`) or cell by cell (`# %%`) in an editor.

# %%
import numpy as np

import bdtree


def box(n=2):
    """A closed box [-1, 1]^3 with n x n quads per face: (V, F)."""
    V, F = [], []
    for axis in range(3):
        for side in (-1.0, 1.0):
            base = len(V)
            u, v = [(axis + 1) % 3, (axis + 2) % 3]
            for i in range(n + 1):
                for j in range(n + 1):
                    p = [0.0, 0.0, 0.0]
                    p[axis] = side
                    p[u] = -1 + 2 * i / n
                    p[v] = -1 + 2 * j / n
                    V.append(p)
            for i in range(n):
                for j in range(n):
                    a, b = base + i * (n + 1) + j, base + (i + 1) * (n + 1) + j
                    quad = [[a, b, b + 1], [a, b + 1, a + 1]]
                    F += quad if side > 0 else [t[::-1] for t in quad]
    return np.array(V), np.array(F)


V, F = box()
# Two modes: a bend along x (z moves with x²) and a twist about z.
U = np.zeros((len(V), 3, 2))
U[:, 2, 0] = V[:, 0] ** 2
U[:, 0, 1], U[:, 1, 1] = -V[:, 1] * V[:, 2], V[:, 0] * V[:, 2]
tree = bdtree.Tree.build(V, F, modes=U, nested=True)
print(tree, tree.info())

# %% The bodies: one flexing, one rigid, approaching each other.
a, b = bdtree.Body(tree), bdtree.Body(bdtree.Tree.build(V, F, nested=True))


def world(q, translation):
    return V + (U @ q) + translation


def brute_force(P, Q):
    """Triangle pairs whose triangles intersect: a slow, independent NumPy check."""
    def hits(p0, p1, A, B, C):
        n = np.cross(B - A, C - A)
        s0, s1 = (p0 - A) @ n, (p1 - A) @ n
        if s0 * s1 > 0 or s0 == s1:
            return False
        x = p0 + (p1 - p0) * (s0 / (s0 - s1))
        c = [np.cross(B - A, x - A) @ n, np.cross(C - B, x - B) @ n, np.cross(A - C, x - C) @ n]
        return min(c) >= 0
    found = []
    for i, s in enumerate(F):
        for j, t in enumerate(F):
            S, T = P[s], Q[t]
            if any(hits(S[k], S[(k + 1) % 3], *T) for k in range(3)) or any(
                hits(T[k], T[(k + 1) % 3], *S) for k in range(3)
            ):
                found.append((i, j))
    return found


for step, gap in enumerate([2.6, 2.05, 1.9]):
    q = np.array([0.05 * step, 0.1 * step])
    a.set_state(q=q)
    b.set_state(translation=(gap, 0.3, 0.2))
    pairs = bdtree.collide(a, b)
    truth = brute_force(world(q, 0.0), world(np.zeros(2), np.array([gap, 0.3, 0.2])))
    missed = set(truth) - {tuple(p) for p in pairs.tolist()}
    d = bdtree.distance(a, b)
    print(f"step {step}: gap {gap}: {len(pairs)} pairs ({len(truth)} by brute force, "
          f"{len(missed)} missed), distance {d.distance:.4f}")
    assert not missed

# %% Contact proxies for a penalty response: spheres and penetration depths.
P = bdtree.collide_proxies(a, 3, b, 3)
print(len(P["depth"]), "proxy pairs, deepest", P["depth"].max() if len(P["depth"]) else None)

# %% Many frames at once, without the GIL.
frames = 50
t = np.linspace(0, 1, frames)
rot = np.tile([1.0, 0, 0, 0], (frames, 1))
per_frame = bdtree.collide_frames(
    a, b, rot, np.zeros((frames, 3)), rot, np.c_[2.6 - 0.8 * t, 0.3 + 0 * t, 0.2 + 0 * t],
    q_a=np.c_[0.1 * t, 0.2 * t],
)
print("pairs per frame:", [len(p) for p in per_frame][::10])
print("tour done")
