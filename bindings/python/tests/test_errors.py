"""Bad inputs raise bdtree.Error with the library's message (file, place, problem)."""

import numpy as np
import pytest

import bdtree
from conftest import FIXTURES

TRI_V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
TRI_F = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])


def test_error_is_a_value_error():
    assert issubclass(bdtree.Error, ValueError)


def test_missing_file_names_it(tmp_path):
    with pytest.raises(bdtree.Error, match="nowhere.obj"):
        bdtree.load_mesh(tmp_path / "nowhere.obj")


def test_bad_obj_names_file_and_line(tmp_path):
    p = tmp_path / "bad.obj"
    p.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n")
    with pytest.raises(bdtree.Error, match=r"bad\.obj.*line 4|line 4.*bad\.obj"):
        bdtree.load_mesh(p)


def test_basis_of_the_wrong_vertex_count():
    with pytest.raises(bdtree.Error, match="vertices"):
        bdtree.load_basis(FIXTURES / "modes" / "thin-bar.npy", 3)


def test_wrong_shapes():
    with pytest.raises(bdtree.Error, match=r"vertices: expected shape \(N, 3\)"):
        bdtree.Tree.build(TRI_V[:, :2], TRI_F)
    with pytest.raises(bdtree.Error, match=r"faces: expected shape \(F, 3\)"):
        bdtree.Tree.build(TRI_V, TRI_F[:, :2])
    with pytest.raises(bdtree.Error, match="faces\\[0, 2\\] = 9"):
        bdtree.Tree.build(TRI_V, np.array([[0, 1, 9]]))
    with pytest.raises(bdtree.Error, match=r"modes: expected shape"):
        bdtree.Tree.build(TRI_V, TRI_F, modes=np.zeros((5, 2)))
    with pytest.raises(bdtree.Error, match="precision"):
        bdtree.Tree.build(TRI_V, TRI_F, precision="f16")


def test_nan_inputs():
    V = TRI_V.copy()
    V[2, 1] = np.nan
    with pytest.raises(bdtree.Error, match="finite|NaN"):
        bdtree.Tree.build(V, TRI_F)
    U = np.zeros((12, 1))
    U[3, 0] = np.inf
    with pytest.raises(bdtree.Error, match="finite"):
        bdtree.Tree.build(TRI_V, TRI_F, modes=U)
    body = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F, modes=np.ones((12, 1))))
    with pytest.raises(bdtree.Error, match="q"):
        body.set_state(q=[np.nan])
    with pytest.raises(bdtree.Error, match="rotation"):
        body.set_state(translation=[0, np.nan, 0], q=[0.0])


def test_wrong_q_length_and_bad_pose():
    body = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F, modes=np.ones((12, 2))))
    with pytest.raises(bdtree.Error, match="q:.*2"):
        body.set_state(q=[0.0, 0.0, 0.0])
    with pytest.raises(bdtree.Error, match="rotation: expected 4 numbers"):
        body.set_state(rotation=[1, 0, 0], q=[0, 0])
    with pytest.raises(bdtree.Error, match="rotation"):
        body.set_state(rotation=[2, 0, 0, 0], q=[0, 0])


def test_same_body_twice_and_mixed_precisions():
    t64 = bdtree.Tree.build(TRI_V, TRI_F)
    t32 = bdtree.Tree.build(TRI_V, TRI_F, precision="f32")
    a = bdtree.Body(t64)
    with pytest.raises(bdtree.Error, match="same body"):
        bdtree.collide(a, a)
    with pytest.raises(bdtree.Error, match="precision"):
        bdtree.collide(a, bdtree.Body(t32))


def test_proxies_need_a_nested_tree():
    a = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F))
    b = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F))
    with pytest.raises(bdtree.Error, match="NotNested"):
        bdtree.collide_proxies(a, 2, b, 2)


def test_corrupt_image_is_refused(tmp_path):
    tree = bdtree.Tree.build(TRI_V, TRI_F)
    p = tmp_path / "t.bdt"
    tree.save(p)
    assert bdtree.Tree.load(p).to_bytes() == tree.to_bytes()
    data = bytearray(p.read_bytes())
    data[-1] ^= 0xFF
    p.write_bytes(bytes(data))
    with pytest.raises(bdtree.Error, match="t.bdt.*checksum|checksum.*t.bdt"):
        bdtree.Tree.load(p)


def test_missing_basis_and_tree_files_name_them(tmp_path):
    with pytest.raises(bdtree.Error, match="absent.npy"):
        bdtree.load_basis(tmp_path / "absent.npy")
    with pytest.raises(bdtree.Error, match="absent.bdt"):
        bdtree.Tree.load(tmp_path / "absent.bdt")


def test_non_integral_or_negative_faces_and_non_arrays():
    with pytest.raises(bdtree.Error, match=r"faces\[0, 1\] = 1.5"):
        bdtree.Tree.build(TRI_V, np.array([[0.0, 1.5, 2.0]]))
    with pytest.raises(bdtree.Error, match=r"faces\[0, 0\] = -1"):
        bdtree.Tree.build(TRI_V, np.array([[-1, 1, 2]]))
    with pytest.raises(bdtree.Error, match=r"vertices: expected shape \(N, 3\), got \[12\]"):
        bdtree.Tree.build(TRI_V.ravel(), TRI_F)
    with pytest.raises(bdtree.Error, match="vertices: expected an array of numbers"):
        bdtree.Tree.build("not an array", TRI_F)


def test_collide_frames_checks_its_arrays():
    a = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F, modes=np.ones((12, 2))))
    b = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F))
    rot, tr = np.tile([1.0, 0, 0, 0], (3, 1)), np.zeros((3, 3))
    q = np.zeros((3, 2))
    with pytest.raises(bdtree.Error, match=r"rotation_a: expected shape \(F, 4\)"):
        bdtree.collide_frames(a, b, rot[0], tr, rot, tr, q_a=q)
    with pytest.raises(bdtree.Error, match="rotations must have shape"):
        bdtree.collide_frames(a, b, rot[:, :3], tr, rot, tr, q_a=q)
    with pytest.raises(bdtree.Error, match="one row per frame"):
        bdtree.collide_frames(a, b, rot, tr[:2], rot, tr, q_a=q)
    with pytest.raises(bdtree.Error, match="a has 3 frames and b 2"):
        bdtree.collide_frames(a, b, rot, tr, rot[:2], tr[:2], q_a=q)
    # q of the wrong length, NaN in a later frame: the kernel's message with the frame.
    with pytest.raises(bdtree.Error, match="frame 0, body a: q"):
        bdtree.collide_frames(a, b, rot, tr, rot, tr, q_a=np.zeros((3, 3)))
    bad = q.copy()
    bad[2, 1] = np.nan
    with pytest.raises(bdtree.Error, match="frame 2, body a"):
        bdtree.collide_frames(a, b, rot, tr, rot, tr, q_a=bad)
    # Fortran-ordered and float32 states are read as they are.
    got = bdtree.collide_frames(a, b, np.asfortranarray(rot), tr.astype(np.float32), rot, tr,
                                q_a=np.asfortranarray(q + 0.01))
    assert len(got) == 3 and all(p.shape[1] == 2 for p in got)


def test_sphere_of_a_missing_node():
    body = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F))
    assert len(body.sphere()) == 4
    with pytest.raises(bdtree.Error, match="node 999 does not exist"):
        body.sphere(999)


def test_state_vectors_of_the_wrong_shape():
    body = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F, modes=np.ones((12, 2))))
    with pytest.raises(bdtree.Error, match=r"q: expected a vector of numbers, got shape \[2, 1\]"):
        body.set_state(q=np.zeros((2, 1)))
    with pytest.raises(bdtree.Error, match="translation: expected 3 numbers, got 2"):
        body.set_state(translation=(1.0, 2.0), q=[0, 0])
    with pytest.raises(bdtree.Error, match="q: expected a vector of numbers"):
        body.set_state(q="zero")
    body.set_state(q=np.array([0.1, 0.2], dtype=np.float32))
