"""The type stubs (bdtree.pyi) match the module: the same names, the same parameters and
defaults, and the installed package ships them."""

import ast
import inspect
from pathlib import Path

import bdtree
from conftest import ROOT

STUBS = ROOT / "bindings" / "python" / "bdtree.pyi"


def stub_tree():
    return ast.parse(STUBS.read_text())


def params(node):
    """[(name, default or inspect.Parameter.empty)] of a stub function, without self."""
    a = node.args
    positional = a.posonlyargs + a.args
    defaults = [inspect.Parameter.empty] * (len(positional) - len(a.defaults)) + [
        ast.literal_eval(d) for d in a.defaults
    ]
    out = list(zip((p.arg for p in positional), defaults))
    out += [(p.arg, inspect.Parameter.empty if d is None else ast.literal_eval(d))
            for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    return [p for p in out if p[0] not in ("self", "cls")]


def runtime_params(obj):
    return [(name, p.default) for name, p in inspect.signature(obj).parameters.items()
            if name != "self"]


def is_property(node):
    return any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)


def test_every_function_and_class_has_a_stub_and_no_stub_is_extra():
    tree = stub_tree()
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    stubbed |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign)}
    # Stub-only helper types (TypedDicts describing returned dicts) are not module members.
    helpers = {n.name for n in tree.body
               if isinstance(n, ast.ClassDef) and n.name.startswith("_")}
    public = {n for n in dir(bdtree) if not n.startswith("_") and n != "bdtree"}
    assert stubbed - helpers - {"__version__"} == public
    assert isinstance(bdtree.__version__, str)
    listed = [n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__"]
    assert sorted(ast.literal_eval(listed[0].value)) == sorted(bdtree.__all__)
    assert set(bdtree.__all__) == public | {"__version__"}


def test_functions_have_the_stubs_parameters_and_defaults():
    checked = 0
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            assert params(node) == runtime_params(getattr(bdtree, node.name)), node.name
            checked += 1
    assert checked >= 8


def test_classes_have_the_stubs_methods_and_attributes():
    checked = 0
    for node in stub_tree().body:
        if not isinstance(node, ast.ClassDef) or node.name.startswith("_") or node.name == "Error":
            continue
        cls = getattr(bdtree, node.name)
        members = {m for m in dir(cls) if not m.startswith("_")}
        stubbed = set()
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                if item.name == "__new__":
                    assert params(item) == runtime_params(cls), f"{node.name}()"
                    continue
                stubbed.add(item.name)
                if not is_property(item):
                    assert params(item) == runtime_params(getattr(cls, item.name)), \
                        f"{node.name}.{item.name}"
            elif isinstance(item, ast.AnnAssign):
                stubbed.add(item.target.id)
        assert stubbed == members, node.name
        checked += 1
    assert checked == 8


def test_the_returned_dicts_have_the_stubs_keys(tmp_path):
    import numpy as np
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    F = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])
    tree = bdtree.Tree.build(V, F, nested=True)
    keys = {n.name: [i.target.id for i in n.body if isinstance(i, ast.AnnAssign)]
            for n in stub_tree().body if isinstance(n, ast.ClassDef)}
    assert sorted(tree.info()) == sorted(keys["_TreeInfo"])
    a, b = bdtree.Body(tree), bdtree.Body(tree)
    b.set_state(translation=(0.5, 0.1, 0.1))
    returned = {
        "_Proxies": bdtree.collide_proxies(a, 1, b, 1),
        "_Contacts": bdtree.contacts(a, b),
        "_Within": bdtree.within(a, b, 0.1),
        "_PrimitiveContacts": bdtree.collide_primitive(a, bdtree.Primitive.sphere((0, 0, 0), 1)),
        "_Penalty": bdtree.penalty_forces(a, 1, b, 1, 10.0),
        "_Run": bdtree.Interruptible(a, b).run(tests=3),
        "_PrimitiveProxies": bdtree.collide_primitive_proxies(
            a, 1, bdtree.Primitive.sphere((0, 0, 0), 1)),
        "_Export": bdtree.export(tmp_path / "x.ply", [a, b]),
    }
    for name, value in returned.items():
        assert sorted(value) == sorted(keys[name]), name
    assert set(returned) | {"_TreeInfo"} == {k for k in keys if k.startswith("_")}


def test_the_installed_package_ships_the_stubs():
    installed = Path(bdtree.__file__).parent
    assert (installed / "py.typed").exists()
    assert (installed / "__init__.pyi").read_text() == STUBS.read_text()


def test_stubtest_finds_no_difference(tmp_path):
    """mypy's stubtest compares the installed stubs with the module at run time (CI installs
    mypy; skipped where it is absent). The compiled submodule `bdtree.bdtree` is maturin's
    layout, re-exported by the package: allowed."""
    import subprocess
    import sys

    import pytest

    pytest.importorskip("mypy.stubtest")
    allow = tmp_path / "allowlist.txt"
    allow.write_text("bdtree.bdtree\n")
    run = subprocess.run([sys.executable, "-m", "mypy.stubtest", "bdtree", "--allowlist",
                          str(allow)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
