//! Mesh and basis files: the same bytes go to `parse_obj`, `parse_ply`, `parse_stl` and
//! `parse_npy`. Nothing may panic; a mesh that a loader returns must pass `Mesh::validate` (the
//! loaders promise it) and a basis must hold `3 · vertices · modes` entries, all finite.
#![no_main]

use std::path::Path;

use bdtree_std::io::{parse_npy, parse_obj, parse_ply, parse_stl, Mesh};
use bdtree_std::LoadError;
use libfuzzer_sys::fuzz_target;

fn check_mesh(result: Result<Mesh, LoadError>, path: &Path) {
    match result {
        Ok(mesh) => {
            if let Err(e) = mesh.validate(path) {
                panic!("{} returned a mesh that fails validate: {e}", path.display());
            }
        }
        Err(e) => {
            std::hint::black_box(e.to_string());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let obj = Path::new("fuzz.obj");
    check_mesh(parse_obj(data, obj), obj);
    let ply = Path::new("fuzz.ply");
    check_mesh(parse_ply(data, ply), ply);
    let stl = Path::new("fuzz.stl");
    check_mesh(parse_stl(data, stl), stl);
    let npy = Path::new("fuzz.npy");
    match parse_npy(data, npy) {
        Ok(basis) => {
            assert!(basis.vertices > 0, "parse_npy returned a basis with no vertices");
            assert_eq!(
                Some(basis.data.len()),
                basis
                    .vertices
                    .checked_mul(3)
                    .and_then(|r| r.checked_mul(basis.modes)),
                "parse_npy: data length does not match the shape"
            );
            assert!(
                basis.data.iter().all(|x| x.is_finite()),
                "parse_npy returned a non-finite entry"
            );
        }
        Err(e) => {
            std::hint::black_box(e.to_string());
        }
    }
});
