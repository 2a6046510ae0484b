"""Exact collision detection between reduced deformable models (BD-Trees).

NumPy arrays in (any float dtype, C or Fortran order), NumPy arrays out. A world vertex of a
body is ``R (p + U q) + t``: ``p`` its rest position, ``U`` the displacement basis (3N, M),
``q`` the reduced coordinates, ``R`` the rotation of the unit quaternion ``(w, x, y, z)`` and
``t`` the translation. Every error of the library is a :class:`Error` carrying its message.
"""

from os import PathLike
from typing import List, Optional, Sequence, Tuple, TypedDict, Union, final

import numpy as np
import numpy.typing as npt

__version__: str
__all__ = [
    "__version__",
    "Body",
    "Distance",
    "Error",
    "Tree",
    "collide",
    "collide_frames",
    "collide_proxies",
    "collide_self",
    "collide_swept",
    "distance",
    "load_basis",
    "load_mesh",
    "modes",
]

_Path = Union[str, PathLike]
_Floats = npt.ArrayLike
_Vec = Union[Sequence[float], npt.ArrayLike]

class Error(ValueError):
    """A bad file (its path, place and problem), a bad array or a bad state."""

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
    ) -> "Tree":
        """Builds the tree of a mesh and its basis ((3N, M), (N, 3, M) or None for rigid)."""
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
        """Pose (unit quaternion (w, x, y, z), scalar first; translation (x, y, z)) and q
        (length = the tree's modes). Omitted: identity, zero, q = 0."""
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

def collide(a: Body, b: Body) -> npt.NDArray[np.int64]:
    """Intersecting triangle pairs (K, 2) [triangle of a, triangle of b], rows sorted.
    Conservative; in f32 the pairs are re-tested in f64 on the stored model, so an extra pair
    is closer than the model's f32 storage rounding (~1e-6 on unit-size bodies)."""

def collide_swept(
    a_before: Body, a_now: Body, b_before: Body, b_now: Body
) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Triangle pairs (K, 2) of two moving bodies that may touch at some time between two
    steps, rows sorted, and their conservative earliest times tau in [0, 1] (K,): each object
    as two bodies over one tree (its state at the previous step and at this one); q and the
    translation linear in tau, the rotation by slerp. Never misses a pair that touches."""

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
    """Exact minimum distance (0 when intersecting) with witnesses and the normal a → b."""

def collide_proxies(a: Body, depth_a: int, b: Body, depth_b: int) -> _Proxies:
    """Overlapping contact proxies with spheres and penetration depths (nested trees)."""

def modes(
    vertices: _Floats,
    faces: npt.ArrayLike,
    k: int = 10,
    young: float = 1e6,
    poisson: float = 0.45,
    density: float = 1000.0,
    resolution: Optional[int] = None,
    max_cells: int = 200000,
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The k lowest vibration modes of a closed mesh (SI units): (frequencies in Hz (k,),
    U (3N, k)). ``resolution``: lattice cells along the longest side (None: from the body's
    thickness, at most ``max_cells`` solid cells)."""
