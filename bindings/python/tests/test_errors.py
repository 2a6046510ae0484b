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
    with pytest.raises(bdtree.Error, match=r"translation\[1\] = NaN: every entry must be finite"):
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
    with pytest.raises(bdtree.Error, match=r"collide_proxies: proxy queries need trees built "
                                           r"with nested=True"):
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
    with pytest.raises(bdtree.Error, match="vertices = 'not an array': expected an array of numbers"):
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
    with pytest.raises(bdtree.Error, match=r"node = 999: expected a node index, 0 to 6 \(the tree has 7 nodes\)"):
        body.sphere(999)


def test_state_vectors_of_the_wrong_shape():
    body = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F, modes=np.ones((12, 2))))
    with pytest.raises(bdtree.Error, match=r"q: expected a vector of numbers, got shape \[2, 1\]"):
        body.set_state(q=np.zeros((2, 1)))
    with pytest.raises(bdtree.Error, match="translation: expected 3 numbers, got 2"):
        body.set_state(translation=(1.0, 2.0), q=[0, 0])
    with pytest.raises(bdtree.Error, match="q = 'zero': expected a vector of numbers"):
        body.set_state(q="zero")
    body.set_state(q=np.array([0.1, 0.2], dtype=np.float32))


# Issue 39: every bad argument raises bdtree.Error naming the Python parameter and the value.

def two_bodies(**build):
    t = bdtree.Tree.build(TRI_V, TRI_F, **build)
    return bdtree.Body(t), bdtree.Body(t)


@pytest.mark.parametrize("call, message", [
    (lambda a, b: bdtree.collide_proxies(a, -1, b, 3), r"depth_a = -1: expected a tree depth"),
    (lambda a, b: bdtree.collide_proxies(a, 1, b, 2**64), r"depth_b = 18446744073709551616: "),
    (lambda a, b: bdtree.collide_proxies(a, 1.5, b, 1), r"depth_a = 1.5: expected a tree depth"),
    (lambda a, b: bdtree.collide_proxies(a, True, b, 1), r"depth_a = True: expected a tree depth"),
    (lambda a, b: a.sphere(-1), r"node = -1: expected a node index, 0 to 6"),
    (lambda a, b: a.sphere("root"), r"node = 'root': expected a node index"),
    (lambda a, b: bdtree.collide(a, 5), r"b = 5: expected a bdtree.Body"),
    (lambda a, b: bdtree.distance("a", b), r"a = 'a': expected a bdtree.Body"),
    (lambda a, b: bdtree.collide_self(None), r"body = None: expected a bdtree.Body"),
    (lambda a, b: bdtree.contacts(a, a), r"a and b are the same body"),
    (lambda a, b: bdtree.within(a, b, -1.0), r"distance = -1.0: expected a finite distance ≥ 0"),
    (lambda a, b: bdtree.within(a, b, float("nan")), r"distance = nan: expected a finite"),
    (lambda a, b: bdtree.penalty_forces(a, 1, b, 1, -3), r"stiffness = -3: expected a finite"),
    (lambda a, b: bdtree.collide_primitive(a, "floor"), r"primitive = 'floor': expected a "
                                                       r"bdtree.Primitive"),
    (lambda a, b: bdtree.collide_swept(a, b, 3, a), r"b_before = 3: expected a bdtree.Body"),
    (lambda a, b: bdtree.Body("tree"), r"tree = 'tree': expected a bdtree.Tree"),
    (lambda a, b: bdtree.Tree.build(TRI_V, TRI_F, precision=5), r"precision = 5: expected "
                                                                r"\"f32\" or \"f64\""),
    (lambda a, b: bdtree.Tree.build(TRI_V, TRI_F, nested="yes"), r"nested = 'yes': expected "
                                                                 r"True or False"),
    (lambda a, b: bdtree.load_basis(FIXTURES / "modes" / "thin-bar.npy", -1),
     r"vertices = -1: expected a vertex count"),
    (lambda a, b: bdtree.Primitive.sphere((0, 0, 0), -1), r"radius = -1: expected a finite "
                                                          r"radius ≥ 0"),
    (lambda a, b: bdtree.Primitive.plane((0, 0, 0), 1.0), r"normal = \(0, 0, 0\): a plane's "
                                                          r"normal must not be zero"),
    (lambda a, b: bdtree.Primitive.box((0, 0, 0), (2, 0, 0, 0), (1, 1, 1)),
     r"rotation = \(2, 0, 0, 0\): expected a unit quaternion"),
    (lambda a, b: bdtree.Primitive.capsule((0, 0, 0), (1, 0, float("inf")), 1.0),
     r"b\[2\] = inf: every entry must be finite"),
    (lambda a, b: bdtree.export("out.stl", [a, b]), r"out.stl.*\.ply or \.obj"),
    (lambda a, b: bdtree.export("out.ply", [a, 7]), r"bodies\[1\] = 7: expected a bdtree.Body"),
    (lambda a, b: bdtree.export("out.ply", [a], spheres=-2), r"spheres = -2: expected a tree "
                                                             r"level"),
])
def test_bad_arguments_name_the_parameter_and_value_issue_39(call, message, tmp_path,
                                                            monkeypatch):
    monkeypatch.chdir(tmp_path)
    a, b = two_bodies(nested=True)
    with pytest.raises(bdtree.Error, match=message):
        call(a, b)


def test_proxies_of_a_tree_not_nested_say_how_to_build_it_issue_39():
    a, b = two_bodies()
    for call in (lambda: bdtree.collide_proxies(a, 1, b, 1),
                 lambda: bdtree.penalty_forces(a, 1, b, 1, 10.0)):
        with pytest.raises(bdtree.Error, match=r"nested=True") as e:
            call()
        assert "NotNested" not in str(e.value)


@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_absurd_translations_are_out_of_range_in_both_precisions_issue_39(precision):
    a, b = two_bodies(precision=precision)
    # Alone, a body is placed at its own translation: any finite one is fine.
    a.set_state(translation=(1e300, 0.0, 0.0))
    assert np.isclose(a.sphere()[0], 1e300)
    # With b at the origin, the pair's origin is 5e299 from each: beyond f32's range, and
    # beyond what f64 can bound the rounding of. Out of range, with the values, in both.
    with pytest.raises(bdtree.Error, match=rf"state out of range for a {precision} body .*"
                                           r"\|t\| up to 1e300"):
        bdtree.collide(a, b)
    if precision == "f32":
        # f32's own range ends at 3.4e38.
        a.set_state(translation=(1e39, 0.0, 0.0))
        with pytest.raises(bdtree.Error, match=r"state out of range for a f32 body"):
            bdtree.distance(a, b)


def test_one_quaternion_tolerance_with_the_value_in_the_message_issue_39(tmp_path, cli):
    import json
    import subprocess
    assert bdtree.QUATERNION_TOLERANCE == 1e-6
    a, b = two_bodies()
    a.set_state(rotation=(1 + 5e-7, 0, 0, 0))
    with pytest.raises(bdtree.Error, match=r"rotation = \(1.000002, 0, 0, 0\): a quaternion "
                                           r"of norm 1.000002.*\| norm − 1 \| ≤ 1e-6"):
        a.set_state(rotation=(1 + 2e-6, 0, 0, 0))
    with pytest.raises(bdtree.Error, match=r"norm 1.0009"):
        a.set_state(rotation=(1 + 9e-4, 0, 0, 0))  # accepted before issue 39 (1e-3)
    # Scene files (and so the CLI) draw the same line.
    (tmp_path / "t.obj").write_text(
        "".join(f"v {x} {y} {z}\n" for x, y, z in TRI_V)
        + "".join(f"f {i + 1} {j + 1} {k + 1}\n" for i, j, k in TRI_F))
    for w, ok in ((1 + 5e-7, True), (1 + 2e-6, False)):
        scene = {"bodies": [{"name": "a", "mesh": "t.obj"}, {"name": "b", "mesh": "t.obj"}],
                 "frames": [{"bodies": [{"rotation": [w, 0, 0, 0], "translation": [0, 0, 0]},
                                        {"rotation": [1, 0, 0, 0], "translation": [3, 0, 0]}]}]}
        (tmp_path / "s.json").write_text(json.dumps(scene))
        run = subprocess.run([str(cli), "collide", str(tmp_path / "s.json"), "--json"],
                             capture_output=True, text=True)
        assert (run.returncode == 0) == ok, run.stderr
        if not ok:
            assert "≤ 1e-6" in run.stderr and "has norm 1.000002" in run.stderr


def test_a_refused_frame_leaves_the_bodies_in_their_states_before_the_call():
    a = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F, modes=np.ones((12, 2))))
    b = bdtree.Body(bdtree.Tree.build(TRI_V, TRI_F))
    a.set_state(translation=(0.5, 0.0, 0.0), q=[0.0, 0.0])
    before = bdtree.collide(a, b).tolist()
    assert before, "the bodies must touch: the test would be vacuous"
    rot, tr, q = np.tile([1.0, 0, 0, 0], (3, 1)), np.tile([9.0, 0, 0], (3, 1)), np.zeros((3, 2))
    q[2, 0] = np.nan
    with pytest.raises(bdtree.Error, match="frame 2, body a"):
        bdtree.collide_frames(a, b, rot, tr, rot, np.zeros((3, 3)), q_a=q)
    assert bdtree.collide(a, b).tolist() == before
    assert a.sphere()[0] < 2.0
