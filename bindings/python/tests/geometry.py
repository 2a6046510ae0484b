"""NumPy closest-point geometry in float64 for the oracles of the Python tests: point–triangle
and segment–segment distances (vectorised over rows), triangle–triangle distance, and the
primitives' touching tests. Independent of the library: textbook formulas (Ericson, *Real-Time
Collision Detection*, 5.1.5 and 5.1.9)."""

import numpy as np

import bdtree
from test_oracle import random_quaternion, segments_hit_triangles


def dot(a, b):
    return np.einsum("ij,ij->i", a, b)


def closest_on_triangles(P, A, B, C):
    """The point of triangle k nearest to P[k], for every row k (Ericson's regions)."""
    P, A, B, C = (np.asarray(x, float) for x in (P, A, B, C))
    ab, ac, ap = B - A, C - A, P - A
    d1, d2 = dot(ab, ap), dot(ac, ap)
    bp = P - B
    d3, d4 = dot(ab, bp), dot(ac, bp)
    cp = P - C
    d5, d6 = dot(ab, cp), dot(ac, cp)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    out = np.empty_like(P)
    done = np.zeros(len(P), dtype=bool)

    def take(mask, value):
        nonlocal done
        m = mask & ~done
        out[m] = value[m]
        done |= m

    take((d1 <= 0) & (d2 <= 0), A)
    take((d3 >= 0) & (d4 <= d3), B)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = d1 / (d1 - d3)
        take((vc <= 0) & (d1 >= 0) & (d3 <= 0), A + v[:, None] * ab)
        take((d6 >= 0) & (d5 <= d6), C)
        w = d2 / (d2 - d6)
        take((vb <= 0) & (d2 >= 0) & (d6 <= 0), A + w[:, None] * ac)
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        take((va <= 0) & ((d4 - d3) >= 0) & ((d5 - d6) >= 0), B + w[:, None] * (C - B))
        denom = 1.0 / (va + vb + vc)
        v, w = vb * denom, vc * denom
        inside = A + v[:, None] * ab + w[:, None] * ac
    # Zero-area triangles give NaN inside: fall back to the nearest point of their edges.
    bad = ~np.isfinite(inside).all(axis=1)
    if bad.any():
        best = np.full(len(P), np.inf)
        edge_best = np.zeros_like(P)
        for p, q in ((A, B), (B, C), (C, A)):
            x = closest_on_segments(P, p, q)
            d = np.linalg.norm(P - x, axis=1)
            better = d < best
            best[better], edge_best[better] = d[better], x[better]
        inside[bad] = edge_best[bad]
    take(np.ones(len(P), dtype=bool), inside)
    return out


def closest_on_segments(P, A, B):
    d = B - A
    len2 = dot(d, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(len2 > 0, dot(P - A, d) / np.where(len2 > 0, len2, 1.0), 0.0)
    return A + np.clip(t, 0.0, 1.0)[:, None] * d


def point_triangle_distance(P, T):
    """Distance from P[k] to triangle T[k] ((K, 3, 3))."""
    P, T = np.asarray(P, float), np.asarray(T, float)
    X = closest_on_triangles(P, T[:, 0], T[:, 1], T[:, 2])
    return np.linalg.norm(P - X, axis=1)


def segment_segment_distance(P1, Q1, P2, Q2):
    """Distance between segments P1Q1[k] and P2Q2[k] (Ericson 5.1.9, clamped)."""
    d1, d2, r = Q1 - P1, Q2 - P2, P1 - P2
    a, e, f = dot(d1, d1), dot(d2, d2), dot(d2, r)
    c, b = dot(d1, r), dot(d1, d2)
    denom = a * e - b * b
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(denom > 1e-300, np.clip((b * f - c * e) / denom, 0, 1), 0.0)
        t = np.where(e > 0, (b * s + f) / np.where(e > 0, e, 1.0), 0.0)
        s = np.where(t < 0, np.where(a > 0, np.clip(-c / np.where(a > 0, a, 1.0), 0, 1), 0.0), s)
        s = np.where(t > 1, np.where(a > 0, np.clip((b - c) / np.where(a > 0, a, 1.0), 0, 1),
                                     0.0), s)
        t = np.clip(t, 0, 1)
    X = P1 + s[:, None] * d1
    Y = P2 + t[:, None] * d2
    return np.linalg.norm(X - Y, axis=1)


def triangle_distances(TA, TB):
    """Distance between triangle TA[k] and TB[k] ((K, 3, 3) each): 0 when they intersect."""
    TA, TB = np.asarray(TA, float), np.asarray(TB, float)
    best = np.full(len(TA), np.inf)
    for k in range(3):
        best = np.minimum(best, point_triangle_distance(TA[:, k], TB))
        best = np.minimum(best, point_triangle_distance(TB[:, k], TA))
        for m in range(3):
            best = np.minimum(best, segment_segment_distance(
                TA[:, k], TA[:, (k + 1) % 3], TB[:, m], TB[:, (m + 1) % 3]))
    hit = np.zeros(len(TA), dtype=bool)
    for k in range(3):
        hit |= segments_hit_triangles(TA[:, k], TA[:, (k + 1) % 3], TB[:, 0], TB[:, 1], TB[:, 2])
        hit |= segments_hit_triangles(TB[:, k], TB[:, (k + 1) % 3], TA[:, 0], TA[:, 1], TA[:, 2])
    return np.where(hit, 0.0, best)


def all_pair_distances(PA, FA, PB, FB):
    """(len(FA), len(FB)) distances between every triangle of A and every triangle of B."""
    ia, ib = np.meshgrid(np.arange(len(FA)), np.arange(len(FB)), indexing="ij")
    d = triangle_distances(PA[FA[ia.ravel()]], PB[FB[ib.ravel()]])
    return d.reshape(len(FA), len(FB))


def triangle_box_overlap(T, center, axes, half):
    """Whether each triangle T[k] meets the box (separating axes: 3 box axes, the normal, 9
    crosses), touching counts."""
    T = np.asarray(T, float) - center
    L = T @ np.asarray(axes)  # coordinates along the box's axes (columns)
    edges = [L[:, 1] - L[:, 0], L[:, 2] - L[:, 1], L[:, 0] - L[:, 2]]
    cands = [np.tile(np.eye(3)[i], (len(T), 1)) for i in range(3)]
    cands.append(np.cross(edges[0], edges[1]))
    for e in edges:
        for i in range(3):
            cands.append(np.cross(np.tile(np.eye(3)[i], (len(T), 1)), e))
    apart = np.zeros(len(T), dtype=bool)
    for n in cands:
        p = np.einsum("kij,kj->ki", L, n)
        r = np.abs(n) @ np.asarray(half)
        apart |= (p.min(axis=1) > r) | (p.max(axis=1) < -r)
    return ~apart


def sheet_grid(n, h, ox, oy):
    """A flat sheet of n × n squares of side h in the plane z = 0, two triangles each, its
    corner at (ox h, oy h): vertices float64 (N, 3) and faces int64 (2 n², 3)."""
    V = np.array([[(ox + i) * h, (oy + j) * h, 0.0]
                  for j in range(n + 1) for i in range(n + 1)])
    at = lambda i, j: j * (n + 1) + i
    F = [[at(i, j), at(i + 1, j), at(i + 1, j + 1)] for j in range(n) for i in range(n)]
    F += [[at(i, j), at(i + 1, j + 1), at(i, j + 1)] for j in range(n) for i in range(n)]
    return V, np.array(F, dtype=np.int64)


def shared_point_pairs(VA, FA, VB, FB):
    """The triangle pairs of two rest meshes that share a point: the truth of coplanar sheets
    touching (the segment oracle does not see coplanar contact)."""
    return {(i, j) for i in range(len(FA)) for j in range(len(FB))
            if set(map(tuple, VA[FA[i]])) & set(map(tuple, VB[FB[j]]))}


def touching_sheets(n, h, offset):
    """Two coplanar sheets (`sheet_grid`) sharing part of their area, b's corner `offset`
    squares from a's: (VA, FA), (VB, FB) and their touching pairs (`shared_point_pairs`)."""
    A, B = sheet_grid(n, h, 0, 0), sheet_grid(n, h, *offset)
    return A, B, shared_point_pairs(*A, *B)


def sheet_bodies(meshes, precision):
    """A body of each (V, F) mesh, its tree built in `precision`."""
    return [bdtree.Body(bdtree.Tree.build(V, F, precision=precision)) for V, F in meshes]


def far_states(rng, times, decades):
    """`times` states far from the origin, as (r, t): a random rotation and a translation in a
    random direction, 1 to 10^decades long."""
    for _ in range(times):
        r = random_quaternion(rng)
        d = rng.normal(size=3)
        yield r, d / np.linalg.norm(d) * 10 ** rng.uniform(0, decades)
