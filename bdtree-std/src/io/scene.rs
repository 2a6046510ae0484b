//! Scene files: which bodies take part, and where each of them is, frame by frame.
//!
//! A scene is a JSON file; mesh and basis paths in it are relative to the scene file's folder
//! (absolute paths are kept as they are):
//!
//! ```json
//! {
//!   "bodies": [
//!     {"name": "arm", "mesh": "arm.obj", "modes": "arm.modes.npy"},
//!     {"name": "table", "mesh": "table.stl"}
//!   ],
//!   "frames": [
//!     {"bodies": [
//!       {"rotation": [1, 0, 0, 0], "translation": [0, 0, 0.5], "q": [0.1, -0.02]},
//!       {"rotation": [1, 0, 0, 0], "translation": [0, 0, 0]}
//!     ]}
//!   ]
//! }
//! ```
//!
//! Frame entries follow the order of `bodies`. Body `b` in frame `f` has its vertices at
//! `R (p + U q) + t`, with `R` the rotation of the unit quaternion `rotation = (w, x, y, z)`
//! and `t = translation`. A body without `modes` is rigid: its `q` is empty or absent.
//!
//! A mesh body may name the partition its tree is built on: `"tree": "medial"` (the
//! medial-axis partition, closed meshes only) or `"tree": "median"` (the median split); a body
//! without `"tree"` takes the command's choice (`--tree`, median by default). Any other value
//! is refused with its place (`bodies[1].tree`).
//!
//! A body may instead be a rigid **primitive** — `"plane"`, `"sphere"`, `"capsule"` or `"box"`
//! in place of `"mesh"` (see [`primitive`] for the fields and the local frames), posed by the
//! same `rotation` and `translation`, without `q`:
//!
//! ```json
//! {"name": "floor", "plane": {"normal": [0, 0, 1], "offset": 0}}
//! ```
//!
//! A loaded [`Scene`] keeps the mesh bodies in [`Scene::bodies`] (and their states in
//! [`Scene::frames`]) and the primitives apart in [`Scene::primitives`]; in answers a
//! primitive has the index `bodies.len() + p` ([`Scene::name`]).
//!
//! [`SceneFile::parse`] checks everything the text alone can tell (syntax, field names and
//! types, counts, unit quaternions, finiteness); [`Scene::load`] also reads every mesh and basis
//! and checks them against each other and against every frame. Each error names the scene file
//! and the JSON place of the problem, e.g.
//!
//! ```text
//! scenes/grasp.json: frames[3].bodies[1].rotation: quaternion (w, x, y, z) = (1, 0.1, 0, 0) has norm 1.004987562112089; rotations must be unit quaternions (|norm − 1| ≤ 1e-6)
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub mod primitive;

pub use primitive::{PrimitiveShape, ScenePrimitive, PRIMITIVE_KINDS};

use super::basis::Basis;
use super::load::load_mesh;
use super::mesh::Mesh;
use super::npy::load_npy;
use super::pose::{quaternion_problem, state_problem, Pose, StateProblem};
use crate::error::LoadError;

pub use super::pose::QUATERNION_NORM_TOLERANCE;

/// The values of a mesh body's `"tree"`: the names of the tree builder's partitions
/// (`bdtree_std::build::TreeKind`, which parses each of them).
pub const TREE_NAMES: [&str; 2] = ["median", "medial"];

/// The contents of a scene file, as written (paths not yet resolved, files not yet read).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneFile {
    /// The bodies, in the order frame entries refer to them.
    pub bodies: Vec<BodySpec>,
    /// The frames: where every body is at each step.
    pub frames: Vec<FrameSpec>,
}

/// One body of a scene file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BodySpec {
    /// A unique, non-empty name (used in messages and reports).
    pub name: String,
    /// A mesh with an optional basis, or a rigid primitive.
    #[serde(flatten)]
    pub shape: BodyShape,
}

/// What a body of a scene file is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BodyShape {
    /// A triangle mesh, deformable when it has a basis.
    Mesh {
        /// The mesh file (`.obj`, `.ply` or `.stl`), relative to the scene file's folder.
        mesh: PathBuf,
        /// The displacement basis (`.npy`, shape `(3N, M)`), relative to the scene file's
        /// folder; `None` for a rigid body.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        modes: Option<PathBuf>,
        /// The partition the body's tree is built on, one of [`TREE_NAMES`]; `None` takes the
        /// command's choice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tree: Option<String>,
    },
    /// A rigid primitive (see [`primitive`]).
    Primitive(PrimitiveShape),
}

impl BodySpec {
    /// A mesh body.
    pub fn mesh(name: impl Into<String>, mesh: impl Into<PathBuf>, modes: Option<PathBuf>) -> Self {
        Self {
            name: name.into(),
            shape: BodyShape::Mesh {
                mesh: mesh.into(),
                modes,
                tree: None,
            },
        }
    }

    /// A primitive body.
    pub fn primitive(name: impl Into<String>, shape: PrimitiveShape) -> Self {
        Self {
            name: name.into(),
            shape: BodyShape::Primitive(shape),
        }
    }

    /// Whether the body has a basis (its frames carry `q`).
    pub fn has_modes(&self) -> bool {
        matches!(self.shape, BodyShape::Mesh { modes: Some(_), .. })
    }
}

/// One frame of a scene file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameSpec {
    /// The state of every body, in the order of [`SceneFile::bodies`].
    pub bodies: Vec<BodyFrame>,
}

/// The state of one body in one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyFrame {
    /// Unit quaternion `(w, x, y, z)`.
    pub rotation: [f64; 4],
    /// Translation, applied after the rotation.
    pub translation: [f64; 3],
    /// Reduced coordinates, one per mode of the body's basis; empty for a rigid body.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub q: Vec<f64>,
}

/// A loaded scene: meshes and bases read and checked against each other and against every
/// frame, so that `frames[f][b].1.len()` is the mode count of body `b` (0 when rigid).
///
/// Mesh bodies and primitives are kept apart: `bodies` and `frames` hold the mesh bodies (in
/// file order, primitives skipped), `primitives` the rigid primitives with their poses. Answers
/// number a primitive `p` as body `bodies.len() + p` ([`Scene::name`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// The scene file this was read from.
    pub path: PathBuf,
    /// The mesh bodies, in file order.
    pub bodies: Vec<SceneBody>,
    /// `frames[f][b] = (pose, q)` of mesh body `b` in frame `f`.
    pub frames: Vec<Vec<(Pose, Vec<f64>)>>,
    /// The rigid primitive bodies, in file order, each with its pose per frame.
    pub primitives: Vec<ScenePrimitive>,
}

/// One body of a loaded scene.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneBody {
    /// The body's name from the scene file.
    pub name: String,
    /// The mesh file, resolved against the scene file's folder.
    pub mesh_path: PathBuf,
    /// The rest mesh.
    pub mesh: Mesh,
    /// The displacement basis (its vertex count equals the mesh's), `None` for a rigid body.
    pub basis: Option<Basis>,
    /// The partition named by the body's `"tree"` (one of [`TREE_NAMES`]); `None` takes the
    /// command's choice.
    pub tree: Option<String>,
}

impl Scene {
    /// Reads a scene file and every mesh and basis it names, and checks them all.
    ///
    /// Besides the checks of [`SceneFile::parse`]: every mesh and basis must load (their
    /// loaders' errors are wrapped so that the message names the scene, the body and the file),
    /// every basis must have as many vertices as its mesh, and every frame's `q` must have one
    /// entry per mode of its body.
    pub fn load(path: &Path) -> Result<Scene, LoadError> {
        let text = std::fs::read_to_string(path).map_err(|e| LoadError::io(path, &e))?;
        let file = SceneFile::parse(&text, path)?;
        let folder = path.parent().unwrap_or_else(|| Path::new(""));

        let mut bodies = Vec::with_capacity(file.bodies.len());
        // File indices of the mesh bodies.
        let mut meshes = Vec::with_capacity(file.bodies.len());
        let mut primitives = Vec::new();
        for (i, spec) in file.bodies.iter().enumerate() {
            let (mesh, modes, tree) = match &spec.shape {
                BodyShape::Mesh { mesh, modes, tree } => (mesh, modes, tree),
                BodyShape::Primitive(shape) => {
                    primitives.push(ScenePrimitive {
                        name: spec.name.clone(),
                        place: i,
                        shape: *shape,
                        poses: file
                            .frames
                            .iter()
                            .map(|frame| Pose {
                                rotation: frame.bodies[i].rotation,
                                translation: frame.bodies[i].translation,
                            })
                            .collect(),
                    });
                    continue;
                }
            };
            let wrap = |field: &str, e: LoadError| {
                LoadError::at(
                    path,
                    format!("bodies[{i}].{field}"),
                    format!("body \"{}\": {e}", spec.name),
                )
            };
            let mesh_path = folder.join(mesh);
            let mesh = load_mesh(&mesh_path).map_err(|e| wrap("mesh", e))?;
            let basis = match modes {
                None => None,
                Some(modes) => {
                    let modes_path = folder.join(modes);
                    let basis = load_npy(&modes_path).map_err(|e| wrap("modes", e))?;
                    basis
                        .check_vertex_count(mesh.vertices.len(), &modes_path)
                        .map_err(|e| wrap("modes", e))?;
                    Some(basis)
                }
            };
            bodies.push(SceneBody {
                name: spec.name.clone(),
                mesh_path,
                mesh,
                basis,
                tree: tree.clone(),
            });
            meshes.push(i);
        }

        let mut frames = Vec::with_capacity(file.frames.len());
        for (f, frame) in file.frames.iter().enumerate() {
            let mut states = Vec::with_capacity(bodies.len());
            for (&b, body) in meshes.iter().zip(&bodies) {
                let state = &frame.bodies[b];
                let modes = body.basis.as_ref().map_or(0, |basis| basis.modes);
                if state.q.len() != modes {
                    return Err(LoadError::at(
                        path,
                        format!("frames[{f}].bodies[{b}].q"),
                        format!(
                            "body \"{}\" has {modes} mode{} but q has {} entr{}",
                            body.name,
                            if modes == 1 { "" } else { "s" },
                            state.q.len(),
                            if state.q.len() == 1 { "y" } else { "ies" }
                        ),
                    ));
                }
                let pose = Pose {
                    rotation: state.rotation,
                    translation: state.translation,
                };
                states.push((pose, state.q.clone()));
            }
            frames.push(states);
        }
        Ok(Scene {
            path: path.to_path_buf(),
            bodies,
            frames,
            primitives,
        })
    }

    /// The name of body `index` of an answer: a mesh body below `bodies.len()`, then the
    /// primitives (`"?"` beyond them).
    pub fn name(&self, index: usize) -> &str {
        match index.checked_sub(self.bodies.len()) {
            None => &self.bodies[index].name,
            Some(p) => self.primitives.get(p).map_or("?", |p| p.name.as_str()),
        }
    }

    /// Refuses a scene with primitive bodies for a command that does not take them: the error
    /// names the scene file, the first primitive's place and `what` cannot use it.
    pub fn without_primitives(&self, what: &str) -> Result<(), LoadError> {
        match self.primitives.first() {
            None => Ok(()),
            Some(p) => Err(LoadError::at(
                &self.path,
                format!("bodies[{}]", p.place),
                format!(
                    "body \"{}\" is a {} primitive; {what} takes mesh bodies only (primitives \
                     take part in `bdtree collide`, `collide --contacts` and `collide --depth`)",
                    p.name,
                    p.shape.kind()
                ),
            )),
        }
    }
}

impl SceneFile {
    /// Parses and checks the text of a scene file; `path` names the file in errors.
    ///
    /// Refused, with the JSON place of the problem: JSON syntax errors (with line and column;
    /// this includes `NaN`, `Infinity` and numbers too large for f64), unknown or missing
    /// fields, values of the wrong type or length, then everything [`SceneFile::validate`]
    /// checks.
    pub fn parse(text: &str, path: &Path) -> Result<SceneFile, LoadError> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            LoadError::at(
                path,
                format!("line {}, column {}", e.line(), e.column()),
                json_message(&e),
            )
        })?;
        let file = Reader { path }.scene(&value)?;
        file.validate(path)?;
        Ok(file)
    }

    /// Checks what the scene alone can tell: at least one body; names non-empty and unique;
    /// mesh paths non-empty; every frame has one entry per body; every number finite; every
    /// rotation a unit quaternion (within [`QUATERNION_NORM_TOLERANCE`], never normalised);
    /// rigid bodies have an empty `q`. `path` names the file in errors.
    pub fn validate(&self, path: &Path) -> Result<(), LoadError> {
        if self.bodies.is_empty() {
            return Err(LoadError::at(path, "bodies", "the scene has no bodies"));
        }
        for (i, body) in self.bodies.iter().enumerate() {
            if body.name.is_empty() {
                return Err(LoadError::at(
                    path,
                    format!("bodies[{i}].name"),
                    "the body name is empty",
                ));
            }
            if let Some(first) = self.bodies[..i]
                .iter()
                .position(|other| other.name == body.name)
            {
                return Err(LoadError::at(
                    path,
                    format!("bodies[{i}].name"),
                    format!(
                        "duplicate body name \"{}\" (also bodies[{first}])",
                        body.name
                    ),
                ));
            }
            match &body.shape {
                BodyShape::Mesh { mesh, modes, tree } => {
                    if let Some(tree) = tree.as_ref().filter(|t| !TREE_NAMES.contains(&t.as_str()))
                    {
                        return Err(LoadError::at(
                            path,
                            format!("bodies[{i}].tree"),
                            format!(
                                "body \"{}\": unknown tree \"{tree}\" (expected {})",
                                body.name,
                                TREE_NAMES.map(|n| format!("\"{n}\"")).join(" or ")
                            ),
                        ));
                    }
                    if mesh.as_os_str().is_empty() {
                        return Err(LoadError::at(
                            path,
                            format!("bodies[{i}].mesh"),
                            "the mesh path is empty",
                        ));
                    }
                    if modes.as_ref().is_some_and(|m| m.as_os_str().is_empty()) {
                        return Err(LoadError::at(
                            path,
                            format!("bodies[{i}].modes"),
                            "the modes path is empty",
                        ));
                    }
                }
                BodyShape::Primitive(shape) => {
                    if let Some((field, problem)) = shape.problem() {
                        let at = if field.is_empty() {
                            format!("bodies[{i}].{}", shape.kind())
                        } else {
                            format!("bodies[{i}].{}.{field}", shape.kind())
                        };
                        return Err(LoadError::at(
                            path,
                            at,
                            format!("body \"{}\": {problem}", body.name),
                        ));
                    }
                }
            }
        }
        for (f, frame) in self.frames.iter().enumerate() {
            if frame.bodies.len() != self.bodies.len() {
                return Err(LoadError::at(
                    path,
                    format!("frames[{f}].bodies"),
                    format!(
                        "the frame has {} bod{} but the scene has {} bod{}",
                        frame.bodies.len(),
                        if frame.bodies.len() == 1 { "y" } else { "ies" },
                        self.bodies.len(),
                        if self.bodies.len() == 1 { "y" } else { "ies" }
                    ),
                ));
            }
            for (b, (state, body)) in frame.bodies.iter().zip(&self.bodies).enumerate() {
                let at = |field: &str| format!("frames[{f}].bodies[{b}].{field}");
                // The library's one state check, worded with the file's place: a bad state is
                // refused here, before any tree is built (the host checks it again at its own
                // door, for callers that read no file).
                match state_problem(state.rotation, state.translation, &state.q) {
                    Some(StateProblem::NonFinite {
                        argument,
                        index,
                        value,
                    }) => {
                        return Err(LoadError::at(
                            path,
                            format!("{}[{index}]", at(argument)),
                            format!("{value} is not a finite number"),
                        ))
                    }
                    Some(StateProblem::NotUnit { .. }) => {
                        let problem = quaternion_problem(state.rotation).unwrap_or_default();
                        return Err(LoadError::at(path, at("rotation"), problem));
                    }
                    None => {}
                }
                if !body.has_modes() && !state.q.is_empty() {
                    let why = match &body.shape {
                        BodyShape::Primitive(shape) => format!("a {} primitive", shape.kind()),
                        BodyShape::Mesh { .. } => "it has no modes file".to_string(),
                    };
                    return Err(LoadError::at(
                        path,
                        at("q"),
                        format!(
                            "body \"{}\" is rigid ({why}) but q has {} entr{}",
                            body.name,
                            state.q.len(),
                            if state.q.len() == 1 { "y" } else { "ies" }
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Writes the scene as pretty-printed JSON that [`SceneFile::parse`] reads back to an equal
    /// value (f64 values are written in their shortest round-trip form).
    ///
    /// Refuses (with [`std::io::ErrorKind::InvalidData`]) a scene that [`SceneFile::validate`]
    /// rejects, since it could not be read back — JSON has no NaN, for one.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        self.validate(path)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()))?;
        let mut text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        text.push('\n');
        std::fs::write(path, text)
    }
}

/// serde_json's message without its trailing " at line L column C" (the location says it).
fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

/// Converts a parsed JSON value into a [`SceneFile`], naming the JSON place of every problem
/// (serde's derived deserializer only knows line and column).
struct Reader<'p> {
    path: &'p Path,
}

impl Reader<'_> {
    fn error(&self, location: &str, message: impl Into<String>) -> LoadError {
        if location.is_empty() {
            LoadError::new(self.path, message)
        } else {
            LoadError::at(self.path, location, message)
        }
    }

    fn scene(&self, v: &Value) -> Result<SceneFile, LoadError> {
        let root = self.object(v, "", &["bodies", "frames"])?;
        let bodies = self
            .array(self.required(root, "bodies", "")?, "bodies")?
            .iter()
            .enumerate()
            .map(|(i, b)| self.body(b, &format!("bodies[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let frames = self
            .array(self.required(root, "frames", "")?, "frames")?
            .iter()
            .enumerate()
            .map(|(f, frame)| self.frame(frame, &format!("frames[{f}]")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SceneFile { bodies, frames })
    }

    fn body(&self, v: &Value, at: &str) -> Result<BodySpec, LoadError> {
        let mut fields = vec!["name", "mesh", "modes", "tree"];
        fields.extend(PRIMITIVE_KINDS);
        let m = self.object(v, at, &fields)?;
        let name = self.string(self.required(m, "name", at)?, &format!("{at}.name"))?;
        let kinds: Vec<&str> = ["mesh"]
            .into_iter()
            .chain(PRIMITIVE_KINDS)
            .filter(|k| m.contains_key(*k))
            .collect();
        match kinds.as_slice() {
            [] => {
                return Err(self.error(
                    at,
                    format!(
                        "missing field \"mesh\" (or a primitive: {})",
                        PRIMITIVE_KINDS.join(", ")
                    ),
                ))
            }
            ["mesh"] => {}
            [kind] => {
                for field in ["modes", "tree"] {
                    if m.contains_key(field) {
                        return Err(self.error(
                            &format!("{at}.{field}"),
                            format!("body \"{name}\" is a {kind} primitive: it has no {field}"),
                        ));
                    }
                }
                let shape = self.primitive(kind, &m[*kind], &format!("{at}.{kind}"))?;
                return Ok(BodySpec::primitive(name, shape));
            }
            several => {
                return Err(self.error(
                    at,
                    format!(
                        "body \"{name}\" has both {}: a body is one mesh or one primitive",
                        several.join(" and ")
                    ),
                ))
            }
        }
        let mesh = self.string(&m["mesh"], &format!("{at}.mesh"))?;
        let modes = match m.get("modes") {
            None | Some(Value::Null) => None,
            Some(p) => Some(PathBuf::from(self.string(p, &format!("{at}.modes"))?)),
        };
        let tree = match m.get("tree") {
            None | Some(Value::Null) => None,
            Some(t) => Some(self.string(t, &format!("{at}.tree"))?),
        };
        let mut spec = BodySpec::mesh(name, mesh, modes);
        if let BodyShape::Mesh { tree: slot, .. } = &mut spec.shape {
            *slot = tree;
        }
        Ok(spec)
    }

    fn primitive(&self, kind: &str, v: &Value, at: &str) -> Result<PrimitiveShape, LoadError> {
        let vector = |m: &Map<String, Value>, field: &str| -> Result<[f64; 3], LoadError> {
            let place = format!("{at}.{field}");
            let values = self.numbers(self.required(m, field, at)?, &place)?;
            values.try_into().map_err(|v: Vec<f64>| {
                self.error(
                    &place,
                    format!("expected 3 numbers (x, y, z), found {}", v.len()),
                )
            })
        };
        let number = |m: &Map<String, Value>, field: &str| -> Result<f64, LoadError> {
            self.number(self.required(m, field, at)?, &format!("{at}.{field}"))
        };
        Ok(match kind {
            "plane" => {
                let m = self.object(v, at, &["normal", "offset"])?;
                PrimitiveShape::Plane {
                    normal: vector(m, "normal")?,
                    offset: number(m, "offset")?,
                }
            }
            "sphere" => PrimitiveShape::Sphere(self.number(v, at).map_err(|_| {
                self.error(
                    at,
                    format!(
                        "expected the sphere's radius (a number), found {}",
                        kind_of(v)
                    ),
                )
            })?),
            "capsule" => {
                let m = self.object(v, at, &["radius", "half_length"])?;
                PrimitiveShape::Capsule {
                    radius: number(m, "radius")?,
                    half_length: number(m, "half_length")?,
                }
            }
            _ => {
                let m = self.object(v, at, &["half_extents"])?;
                PrimitiveShape::Box {
                    half_extents: vector(m, "half_extents")?,
                }
            }
        })
    }

    fn number(&self, v: &Value, at: &str) -> Result<f64, LoadError> {
        v.as_f64()
            .ok_or_else(|| self.error(at, format!("expected a number, found {}", kind_of(v))))
    }

    fn frame(&self, v: &Value, at: &str) -> Result<FrameSpec, LoadError> {
        let m = self.object(v, at, &["bodies"])?;
        let bodies_at = format!("{at}.bodies");
        let bodies = self
            .array(self.required(m, "bodies", at)?, &bodies_at)?
            .iter()
            .enumerate()
            .map(|(b, state)| self.body_frame(state, &format!("{bodies_at}[{b}]")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(FrameSpec { bodies })
    }

    fn body_frame(&self, v: &Value, at: &str) -> Result<BodyFrame, LoadError> {
        let m = self.object(v, at, &["rotation", "translation", "q"])?;
        let rotation_at = format!("{at}.rotation");
        let rotation = self.numbers(self.required(m, "rotation", at)?, &rotation_at)?;
        let rotation: [f64; 4] = rotation.try_into().map_err(|r: Vec<f64>| {
            self.error(
                &rotation_at,
                format!("expected 4 numbers (w, x, y, z), found {}", r.len()),
            )
        })?;
        let translation_at = format!("{at}.translation");
        let translation = self.numbers(self.required(m, "translation", at)?, &translation_at)?;
        let translation: [f64; 3] = translation.try_into().map_err(|t: Vec<f64>| {
            self.error(
                &translation_at,
                format!("expected 3 numbers (x, y, z), found {}", t.len()),
            )
        })?;
        let q = match m.get("q") {
            None | Some(Value::Null) => Vec::new(),
            Some(q) => self.numbers(q, &format!("{at}.q"))?,
        };
        Ok(BodyFrame {
            rotation,
            translation,
            q,
        })
    }

    fn object<'v>(
        &self,
        v: &'v Value,
        at: &str,
        fields: &[&str],
    ) -> Result<&'v Map<String, Value>, LoadError> {
        let Value::Object(m) = v else {
            return Err(self.error(at, format!("expected an object, found {}", kind_of(v))));
        };
        if let Some(unknown) = m.keys().find(|k| !fields.contains(&k.as_str())) {
            return Err(self.error(
                at,
                format!(
                    "unknown field \"{unknown}\" (expected {})",
                    fields.join(", ")
                ),
            ));
        }
        Ok(m)
    }

    fn required<'v>(
        &self,
        m: &'v Map<String, Value>,
        field: &str,
        at: &str,
    ) -> Result<&'v Value, LoadError> {
        m.get(field)
            .ok_or_else(|| self.error(at, format!("missing field \"{field}\"")))
    }

    fn array<'v>(&self, v: &'v Value, at: &str) -> Result<&'v Vec<Value>, LoadError> {
        match v {
            Value::Array(a) => Ok(a),
            other => Err(self.error(at, format!("expected an array, found {}", kind_of(other)))),
        }
    }

    fn string(&self, v: &Value, at: &str) -> Result<String, LoadError> {
        match v {
            Value::String(s) => Ok(s.clone()),
            other => Err(self.error(at, format!("expected a string, found {}", kind_of(other)))),
        }
    }

    fn numbers(&self, v: &Value, at: &str) -> Result<Vec<f64>, LoadError> {
        self.array(v, at)?
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_f64().ok_or_else(|| {
                    self.error(
                        &format!("{at}[{i}]"),
                        format!("expected a number, found {}", kind_of(x)),
                    )
                })
            })
            .collect()
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests;
