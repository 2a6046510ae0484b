//! `bdtree boxes`: a tree image's box table written for a device — the bytes of
//! `bdtree_std::build::box_file` (the C API's tests validate those against the image and query
//! with them), in f32 and f64; bad input named with the file and the problem.

use bdtree_core::query::boxes::BoxTable;
use bdtree_std::build::{box_file, box_table};
use bdtree_std::io::ImageBuf;

use crate::binary::{fails_with, fixtures, succeeds};
use crate::support::Scratch;

#[test]
fn boxes_writes_the_box_table_file_of_an_image() {
    let dir = Scratch::new("cli-boxes");
    let mesh = fixtures().join("meshes/demo-ball.obj");
    let modes = fixtures().join("modes/demo-ball.npy");
    let (mesh, modes) = (mesh.to_str().unwrap(), modes.to_str().unwrap());
    for precision in ["f32", "f64"] {
        let image = dir.join(format!("ball-{precision}.bdt"));
        let table = dir.join(format!("ball-{precision}.box"));
        succeeds(&[
            "build",
            mesh,
            "--modes",
            modes,
            "--precision",
            precision,
            "-o",
            image.to_str().unwrap(),
        ]);
        let text = succeeds(&[
            "boxes",
            image.to_str().unwrap(),
            "-o",
            table.to_str().unwrap(),
        ]);
        let bytes = std::fs::read(&table).expect("table written");
        assert!(text.contains(&format!("{} bytes", bytes.len())), "{text}");
        let buf = ImageBuf::read(&image).expect("image");
        let header = buf.header().expect("header");
        let (nodes, m) = (header.nodes as usize, header.modes as usize);
        assert_eq!(&bytes[..8], b"BDTBOXES");
        let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let scalar = header.scalar_bytes;
        assert_eq!(
            [word(0), word(1), word(2), word(3), word(4)],
            [1, scalar, header.nodes, header.modes, header.checksum]
        );
        assert_eq!(word(5), bdtree_core::crc32(&bytes[32..]));
        assert_eq!(bytes.len(), 32 + nodes * (m + 1) * 4 * scalar as usize);
        // The rows are the host's table, which the kernel accepts for this tree.
        match precision {
            "f32" => {
                let im = buf.parse::<f32>().expect("parse");
                assert_eq!(Some(bytes.clone()), box_file(&im));
                let rows = box_table(&im);
                let stored: Vec<f32> = bytes[32..]
                    .chunks(4)
                    .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                    .collect();
                assert_eq!(stored, rows.iter().flatten().copied().collect::<Vec<_>>());
                BoxTable::new(&rows, &im.tree).expect("valid table");
            }
            _ => {
                let im = buf.parse::<f64>().expect("parse");
                assert_eq!(Some(bytes.clone()), box_file(&im));
                let rows = box_table(&im);
                let stored: Vec<f64> = bytes[32..]
                    .chunks(8)
                    .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
                    .collect();
                assert_eq!(stored, rows.iter().flatten().copied().collect::<Vec<_>>());
                BoxTable::new(&rows, &im.tree).expect("valid table");
            }
        }
    }

    // Bad input: a missing image, a corrupt one, a bounded-depth one, an unwritable output.
    let out = dir.join("out.box");
    let out = out.to_str().unwrap();
    let missing = dir.join("missing.bdt");
    fails_with(
        &["boxes", missing.to_str().unwrap(), "-o", out],
        &["missing.bdt"],
    );
    let good = dir.join("ball-f32.bdt");
    let mut bytes = std::fs::read(&good).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    let corrupt = dir.join("corrupt.bdt");
    std::fs::write(&corrupt, &bytes).unwrap();
    fails_with(
        &["boxes", corrupt.to_str().unwrap(), "-o", out],
        &["corrupt.bdt", "checksum"],
    );
    let bounded = dir.join("bounded.bdt");
    succeeds(&[
        "build",
        mesh,
        "--modes",
        modes,
        "--depth",
        "4",
        "-o",
        bounded.to_str().unwrap(),
    ]);
    fails_with(
        &["boxes", bounded.to_str().unwrap(), "-o", out],
        &["bounded.bdt", "bounded-depth", "no box table"],
    );
    let nowhere = dir.join("no-such-dir/out.box");
    fails_with(
        &[
            "boxes",
            good.to_str().unwrap(),
            "-o",
            nowhere.to_str().unwrap(),
        ],
        &["out.box", "cannot write"],
    );
    assert!(
        !std::path::Path::new(out).exists(),
        "nothing written on failure"
    );
}
