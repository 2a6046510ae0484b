//! Reading a mesh file, the reader chosen by the file's extension.

use std::path::Path;

use super::mesh::Mesh;
use super::obj::parse_obj;
use super::ply::parse_ply;
use super::stl::parse_stl;
use crate::error::LoadError;

/// Reads a mesh file, choosing the format by the extension `.obj`, `.ply` or `.stl` (in any
/// case).
pub fn load_mesh(path: &Path) -> Result<Mesh, LoadError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let parse: fn(&[u8], &Path) -> Result<Mesh, LoadError> =
        match ext.as_deref() {
            Some("obj") => parse_obj,
            Some("ply") => parse_ply,
            Some("stl") => parse_stl,
            Some(other) => {
                return Err(LoadError::new(
                    path,
                    format!(
                    "unknown mesh format '.{other}': supported extensions are .obj, .ply and .stl"
                ),
                ))
            }
            None => return Err(LoadError::new(
                path,
                "the file name has no extension: supported mesh extensions are .obj, .ply and .stl",
            )),
        };
    let bytes = std::fs::read(path).map_err(|e| LoadError::io(path, &e))?;
    parse(&bytes, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::error::testing::{assert_err, err_text};
    use crate::io::obj::tests::TRI;
    use crate::io::ply::tests::{ply_ascii, ply_binary};
    use crate::io::stl::tests::{stl_binary, STL_ASCII};
    use crate::rng::Rng;

    #[test]
    fn load_mesh_dispatches_on_extension() {
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let cases: [(&str, Vec<u8>); 3] = [
            ("OBJ", format!("{TRI}f 1 2 3\n").into_bytes()),
            ("Ply", ply_ascii()),
            ("stl", stl_binary(b"solid", None)),
        ];
        for (ext, bytes) in cases {
            let path = dir.join(format!("bdtree-mesh-test-{id}.{ext}"));
            std::fs::write(&path, &bytes).unwrap();
            let loaded = load_mesh(&path);
            std::fs::remove_file(&path).unwrap();
            let mesh = loaded.unwrap();
            assert!(!mesh.triangles.is_empty(), "{ext}");
        }
        assert_err(
            load_mesh(Path::new("model.off")),
            "model.off",
            &["unknown mesh format '.off'", ".obj, .ply and .stl"],
        );
        assert_err(load_mesh(Path::new("model")), "model", &["no extension"]);
        let missing = dir.join(format!("bdtree-mesh-test-{id}-missing.obj"));
        let text = err_text(load_mesh(&missing));
        assert!(
            text.contains("missing.obj") && text.contains("cannot read"),
            "{text}"
        );
    }

    /// A random byte string or a mutation (flips, cuts, insertions, splices) of a seed.
    fn garbage(rng: &mut Rng, seeds: &[Vec<u8>], alphabet: &[u8]) -> Vec<u8> {
        let pick = |rng: &mut Rng| -> u8 {
            if rng.below(2) == 0 {
                alphabet[rng.below(alphabet.len())]
            } else {
                u8::try_from(rng.below(256)).unwrap()
            }
        };
        if rng.below(5) == 0 {
            let len = rng.below(300);
            return (0..len).map(|_| pick(rng)).collect();
        }
        let mut bytes = seeds[rng.below(seeds.len())].clone();
        for _ in 0..=rng.below(4) {
            match rng.below(4) {
                0 if !bytes.is_empty() => {
                    let i = rng.below(bytes.len());
                    bytes[i] = pick(rng);
                }
                1 => bytes.truncate(rng.below(bytes.len() + 1)),
                2 => {
                    let i = rng.below(bytes.len() + 1);
                    let n = rng.below(8);
                    let ins: Vec<u8> = (0..n).map(|_| pick(rng)).collect();
                    bytes.splice(i..i, ins);
                }
                _ if !bytes.is_empty() => {
                    let a = rng.below(bytes.len());
                    let b = a + rng.below(bytes.len() - a);
                    let chunk = bytes[a..b].to_vec();
                    let at = rng.below(bytes.len() + 1);
                    bytes.splice(at..at, chunk);
                }
                _ => {}
            }
        }
        bytes
    }

    #[test]
    fn garbage_never_panics_and_ok_means_valid() {
        type Parser = fn(&[u8], &Path) -> Result<Mesh, LoadError>;
        type Case = (Parser, Vec<Vec<u8>>, &'static [u8]);
        let obj = format!("{TRI}v 1 1 1\nf 1 2 3 4\nf -1 -2 -3\nvt 0 0\n").into_bytes();
        let parsers: [Case; 3] = [
            (parse_obj, vec![obj], b"vf /-0123456789.e# \n"),
            (
                parse_ply,
                vec![
                    ply_ascii(),
                    ply_binary(false, false),
                    ply_binary(true, false),
                ],
                b"0123456789 -\n.ply",
            ),
            (
                parse_stl,
                vec![
                    STL_ASCII.as_bytes().to_vec(),
                    stl_binary(b"solid", None),
                    stl_binary(b"x", None),
                ],
                b"0123456789 .\nsolidfacetvertex",
            ),
        ];
        let mut rng = Rng::from_state(0x9E37_79B9_7F4A_7C15);
        let path = Path::new("garbage.bin");
        let mut outcomes = [0_usize; 2];
        for (parse, seeds, alphabet) in &parsers {
            for _ in 0..3000 {
                let bytes = garbage(&mut rng, seeds, alphabet);
                match parse(&bytes, path) {
                    Ok(mesh) => {
                        assert_eq!(mesh.validate(path), Ok(()));
                        outcomes[0] += 1;
                    }
                    Err(e) => {
                        assert!(e.to_string().starts_with("garbage.bin: "), "{e}");
                        outcomes[1] += 1;
                    }
                }
            }
        }
        assert!(
            outcomes[0] > 0 && outcomes[1] > 0,
            "both outcomes should occur: {outcomes:?}"
        );
    }
}
