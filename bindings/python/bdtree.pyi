"""Exact collision detection between reduced deformable models (BD-Trees).

NumPy arrays in (any float dtype, C or Fortran order), NumPy arrays out. A world vertex of a
body is ``R (p + U q) + t``: ``p`` its rest position, ``U`` the displacement basis (3N, M),
``q`` the reduced coordinates, ``R`` the rotation of the unit quaternion ``(w, x, y, z)`` and
``t`` the translation. Every error of the library is a :class:`Error` carrying its message.
"""

from os import PathLike
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, TypedDict, Union, final

import numpy as np
import numpy.typing as npt

__version__: str
QUATERNION_TOLERANCE: float
"""How far a rotation quaternion's norm may be from 1 (1e-6), on every surface."""

__all__ = [
    "__version__",
    "QUATERNION_TOLERANCE",
    "Body",
    "Distance",
    "Error",
    "Interruptible",
    "Modes",
    "Primitive",
    "SweptFront",
    "Tree",
    "World",
    "closer_than",
    "collide",
    "collide_frames",
    "collide_primitive",
    "collide_primitive_proxies",
    "collide_proxies",
    "collide_self",
    "collide_swept",
    "contacts",
    "distance",
    "export",
    "load_basis",
    "load_mesh",
    "modes",
    "penalty_forces",
    "within",
]

_Path = Union[str, PathLike]
_Floats = npt.ArrayLike
_Vec = Union[Sequence[float], npt.ArrayLike]

class Error(ValueError):
    """A bad file (its path, place and problem), a bad argument (its parameter and value) or a
    bad state."""

def load_mesh(path: _Path) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Reads ``.obj``, ``.ply`` or ``.stl``: vertices (N, 3) float64, triangles (F, 3) int64."""

def load_basis(path: _Path, vertices: Optional[int] = None) -> npt.NDArray[np.float64]:
    """Reads a ``.npy`` displacement basis of shape (3N, M); checks N when ``vertices`` is given."""

class _TreeInfo(TypedDict):
    nodes: int
    depth: int
    modes: int
    bytes: int
    triangles: int
    vertices: int
    precision: str
    nested: bool

@final
class Tree:
    """A BD-Tree image (the file ``bdtree build`` writes and the C API reads)."""

    @staticmethod
    def build(
        vertices: _Floats,
        faces: npt.ArrayLike,
        modes: Optional[_Floats] = None,
        precision: str = "f64",
        nested: bool = False,
        tree: str = "median",
        self_cull: bool = False,
    ) -> "Tree":
        """Builds the tree of a mesh and its basis ((3N, M), (N, 3, M) or None for rigid);
        ``tree`` "median" or "medial" (closed meshes only); ``self_cull`` stores the
        self-collision culling data in the image."""
    @staticmethod
    def load(path: _Path) -> "Tree": ...
    def save(self, path: _Path) -> None: ...
    def to_bytes(self) -> bytes: ...
    def info(self) -> _TreeInfo: ...
    @property
    def modes(self) -> int: ...
    @property
    def precision(self) -> str: ...

@final
class Body:
    """A body over a tree: pose, reduced coordinates and cached world spheres."""

    def __new__(cls, tree: Tree) -> "Body": ...
    def set_state(
        self,
        rotation: Optional[_Vec] = None,
        translation: Optional[_Vec] = None,
        q: Optional[_Floats] = None,
    ) -> None:
        """Pose (unit quaternion (w, x, y, z), scalar first, | norm - 1 | <= 1e-6; translation
        (x, y, z)) and q (length = the tree's modes). Omitted: identity, zero, q = 0."""
    def sphere(self, node: int = 0) -> Tuple[float, float, float, float]:
        """World sphere [x, y, z, r] of a node (0: the whole body) in the current state."""
    @property
    def tree(self) -> Tree: ...

@final
class Distance:
    """The nearest points of two bodies (world coordinates); ``distance == 0.0`` and
    ``intersecting`` when they meet (then ``normal`` is zero)."""

    distance: float
    point_a: Tuple[float, float, float]
    point_b: Tuple[float, float, float]
    triangles: Tuple[int, int]
    normal: Tuple[float, float, float]
    intersecting: bool

class _Proxies(TypedDict):
    nodes: npt.NDArray[np.int64]
    sphere_a: npt.NDArray[np.float64]
    sphere_b: npt.NDArray[np.float64]
    depth: npt.NDArray[np.float64]

class _Contacts(TypedDict):
    pairs: npt.NDArray[np.int64]
    points: npt.NDArray[np.float64]
    normals: npt.NDArray[np.float64]
    depths: npt.NDArray[np.float64]
    jacobian_a: npt.NDArray[np.float64]
    jacobian_b: npt.NDArray[np.float64]

class _Within(TypedDict):
    pairs: npt.NDArray[np.int64]
    distances: npt.NDArray[np.float64]
    points_a: npt.NDArray[np.float64]
    points_b: npt.NDArray[np.float64]

class _PrimitiveContacts(TypedDict):
    triangles: npt.NDArray[np.int64]
    points: npt.NDArray[np.float64]
    normals: npt.NDArray[np.float64]
    depths: npt.NDArray[np.float64]

class _Penalty(TypedDict):
    nodes: npt.NDArray[np.int64]
    points: npt.NDArray[np.float64]
    forces: npt.NDArray[np.float64]
    force_a: npt.NDArray[np.float64]
    torque_a: npt.NDArray[np.float64]
    q_a: npt.NDArray[np.float64]
    force_b: npt.NDArray[np.float64]
    torque_b: npt.NDArray[np.float64]
    q_b: npt.NDArray[np.float64]

class _PrimitiveProxies(TypedDict):
    nodes: npt.NDArray[np.int64]
    spheres: npt.NDArray[np.float64]
    depths: npt.NDArray[np.float64]

class _Export(TypedDict):
    vertices: int
    triangles: int
    spheres: int
    points: int
    pairs: int

@final
class Primitive:
    """A rigid primitive in world coordinates (a half-space, a sphere, a capsule, a box)."""

    @staticmethod
    def plane(normal: _Vec, offset: float) -> "Primitive":
        """The solid half-space n . x <= offset (normal normalised, pointing out)."""
    @staticmethod
    def sphere(center: _Vec, radius: float) -> "Primitive": ...
    @staticmethod
    def capsule(a: _Vec, b: _Vec, radius: float) -> "Primitive":
        """The points within radius of the segment a b."""
    @staticmethod
    def box(center: _Vec, rotation: _Vec, half_extents: _Vec) -> "Primitive":
        """A box centred at center, its axes the columns of the unit quaternion's matrix."""
    @property
    def kind(self) -> str:
        """"plane", "sphere", "capsule" or "box"."""

@final
class Modes:
    """The result of `modes`."""

    frequencies_hz: npt.NDArray[np.float64]
    basis: npt.NDArray[np.float64]
    masses: npt.NDArray[np.float64]
    stiffnesses: npt.NDArray[np.float64]
    units: str
    normalization: str
    held_vertices: int

def collide(
    a: Body, b: Body, bounds: Optional[Literal["spheres", "boxes15", "boxes6"]] = None
) -> npt.NDArray[np.int64]:
    """Intersecting triangle pairs (K, 2) [triangle of a, triangle of b], rows sorted.
    Conservative; in f32 the pairs are re-tested in f64 on the stored model, so an extra pair
    is closer than the model's f32 storage rounding (~1e-6 on unit-size bodies). The pair is
    placed at its own floating origin (the centre of the two translations). `bounds`: the node
    bound the search prunes with, the tree's spheres (default) or oriented boxes tested on 15
    or 6 separating axes; the same pairs either way."""

@final
class SweptFront:
    """Where a pair of objects' last swept query stopped, carried to the next tick
    (``collide_swept(..., front=...)``); one per pair of objects."""

    def __new__(cls) -> "SweptFront": ...
    @property
    def len(self) -> int: ...
    @property
    def certified(self) -> int: ...
    @property
    def retested(self) -> int: ...
    @property
    def overflowed(self) -> bool: ...
    def reset(self) -> None: ...

def collide_swept(
    a_before: Body,
    a_now: Body,
    b_before: Body,
    b_now: Body,
    front: Optional[SweptFront] = None,
) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Triangle pairs (K, 2) of two moving bodies that may touch at some time between two
    steps, rows sorted, and their conservative earliest times tau in [0, 1] (K,): each object
    as two bodies over one tree (its state at the previous step and at this one); q and the
    translation linear in tau, the rotation by slerp. Never misses a pair that touches.
    ``front``: a SweptFront carried from the last tick (pass the last call's now-bodies as
    this call's before-bodies): in slow or resting contact only the node pairs whose margins
    ran out are walked again."""

def collide_self(body: Body) -> npt.NDArray[np.int64]:
    """Intersecting pairs of non-adjacent triangles of one body (K, 2), a < b, rows sorted."""

def collide_frames(
    a: Body,
    b: Body,
    rotation_a: _Floats,
    translation_a: _Floats,
    rotation_b: _Floats,
    translation_b: _Floats,
    q_a: Optional[_Floats] = None,
    q_b: Optional[_Floats] = None,
) -> List[npt.NDArray[np.int64]]:
    """``collide`` over F frames of stacked states (rotations (F, 4), translations (F, 3),
    q (F, M) or None), computed without the GIL: a list of F (K, 2) int64 arrays. The bodies
    are left in the last frame's state."""

def distance(a: Body, b: Body) -> Distance:
    """Exact minimum distance (0 when intersecting) with witnesses and the normal a -> b."""

def closer_than(a: Body, b: Body, distance: float) -> bool:
    """Whether a and b come within `distance` (touching counts at 0): True whenever the f64
    brute force puts them within it (never a false False), True only when a triangle pair is
    within `distance` plus the pair's rounding bound. Early exit: cheaper than `distance`."""

def contacts(a: Body, b: Body) -> _Contacts:
    """The pairs of `collide` with their contacts: points (K, 3) world, unit normals (K, 3)
    from a's triangle to b's, depths (K,) >= 0, and jacobian_a (K, M_a), jacobian_b (K, M_b):
    d depth / d q of each body, the normal turning with the triangle features that define it
    (not the derivative at a feature switch or at depth 0: see the Python reference)."""

def within(a: Body, b: Body, distance: float) -> _Within:
    """Triangle pairs at most `distance` apart (conservative), with distances and witnesses."""

def collide_proxies(a: Body, depth_a: int, b: Body, depth_b: int) -> _Proxies:
    """Overlapping contact proxies with spheres and penetration depths (nested trees)."""

def penalty_forces(
    a: Body, depth_a: int, b: Body, depth_b: int, stiffness: float
) -> _Penalty:
    """Penalty forces stiffness * depth on the overlapping proxies, and each body's force,
    torque (about its translation) and generalized force on q (nested trees)."""

def collide_primitive(body: Body, primitive: Primitive) -> _PrimitiveContacts:
    """Triangles touching a primitive, with points, normals (triangle -> primitive), depths."""

def collide_primitive_proxies(body: Body, depth: int, primitive: Primitive) -> _PrimitiveProxies:
    """Contact proxies at `depth` whose spheres may reach into a primitive: nodes (K,), world
    spheres (K, 4), depths (K,). Every touching triangle lies under one (nested tree)."""

def export(
    path: _Path,
    bodies: Sequence[Body],
    contacts: bool = False,
    spheres: Optional[int] = None,
    self_pairs: bool = False,
) -> _Export:
    """The bodies in their current states as PLY or OBJ (as `bdtree export` writes a scene
    frame): contact triangles red, spheres at a tree level, contact points."""

def modes(
    vertices: _Floats,
    faces: npt.ArrayLike,
    k: int = 10,
    young: float = 1000000.0,
    poisson: float = 0.45,
    density: float = 1000.0,
    resolution: Optional[int] = None,
    max_cells: int = 200000,
    fixed: Optional[Sequence[str]] = None,
    fixed_vertices: Optional[npt.ArrayLike] = None,
    units: str = "m",
    normalization: str = "peak",
) -> Modes:
    """The k lowest vibration modes of a closed mesh (young in Pa, density in kg/m^3, the mesh
    in `units`), free or clamped (`fixed`: half-spaces like "x<-0.499"; `fixed_vertices`):
    frequencies, the basis (3N, k), modal masses and stiffnesses (m q'' + k q = U^T F)."""

_WorldAnswer = Dict[str, Any]
"""A world answer: ``bodies`` int64 (K, 2) (``[i, j]``, ``[i, i]`` for self pairs, ``[i, n + p]``
for primitive ``p``) and the arrays of the matching two-body function."""

@final
class World:
    """Many bodies (copied with their states) and rigid primitives; every body pair answered at
    its own floating origin, a broad phase first."""

    def __new__(
        cls, bodies: Sequence[Body], primitives: Optional[Sequence[Primitive]] = None
    ) -> "World": ...
    @property
    def body_count(self) -> int: ...
    @property
    def primitive_count(self) -> int: ...
    def set_state(
        self,
        index: int,
        rotation: Optional[_Vec] = None,
        translation: Optional[_Vec] = None,
        q: Optional[_Floats] = None,
    ) -> None:
        """Body.set_state for body ``index``."""
    def set_primitive(self, index: int, primitive: Primitive) -> None:
        """Replaces primitive ``index``."""
    def collide(self, self_pairs: bool = False) -> _WorldAnswer:
        """bodies, pairs: body pairs, self pairs (with self_pairs), triangles on primitives."""
    def contacts(self) -> _WorldAnswer:
        """bodies, pairs, points, normals, depths (body pairs and primitives)."""
    def primitive_contacts(self) -> _WorldAnswer:
        """bodies, pairs ([t, 0]), points, normals, depths (primitives only)."""
    def contact_forces(self, stiffness: float) -> _WorldAnswer:
        """contacts with each body's force, torque (n, 3) and q (list of n arrays)."""
    def within(self, distance: float) -> _WorldAnswer:
        """bodies, pairs, distances, points_a, points_b."""
    def distances(self) -> _WorldAnswer:
        """One row per body pair: bodies, distances, points_a, points_b, normals, triangles,
        intersecting."""
    def proxies(self, depth: int) -> _WorldAnswer:
        """bodies, nodes, sphere_a, sphere_b, depth (nested trees)."""
    def proxy_forces(self, depth: int, stiffness: float) -> _WorldAnswer:
        """bodies, nodes, points, forces of pushing proxy pairs, and each body's force,
        torque (n, 3) and q (list of n arrays)."""
    def primitive_proxies(self, depth: int) -> _WorldAnswer:
        """bodies ([i, n + p]), nodes, spheres, depths (nested trees)."""

class _Run(TypedDict):
    done: bool
    status: str
    pairs: npt.NDArray[np.int64]
    pending: npt.NDArray[np.int64]

@final
class Interruptible:
    """An interruptible, budgeted, resumable query between two bodies in their current states:
    complete, the pairs of collide(a, b); interrupted, a conservative cover (confirmed triangle
    pairs and pending node pairs)."""

    def __new__(
        cls, a: Body, b: Body, order: str = "breadth", capacity: int = 65536
    ) -> "Interruptible": ...
    def run(self, tests: Optional[int] = None, seconds: Optional[float] = None) -> _Run:
        """Refines within a budget of tests or seconds (neither: no limit); resumes."""
