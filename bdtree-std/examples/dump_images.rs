//! Writes images built and compacted from the fixture scenes, for a byte comparison.
use bdtree_core::Encoding;
use bdtree_std::build::compact;
use bdtree_std::build::{build, BuildOptions, Grouping, ModeCenter, Precision, SphereFit};
use bdtree_std::io::Scene;
use std::path::Path;

fn main() {
    let out = Path::new(&std::env::args().nth(1).expect("out dir")).to_path_buf();
    std::fs::create_dir_all(&out).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scenes");
    let mut n = 0;
    for name in ["demo", "fold", "rigid", "thin", "touching"] {
        let scene = Scene::load(&root.join(format!("{name}.json"))).unwrap();
        for (b, body) in scene.bodies.iter().enumerate() {
            for (k, options) in [
                BuildOptions::default(),
                BuildOptions {
                    nested: true,
                    ..BuildOptions::default()
                },
                BuildOptions {
                    precision: Precision::F64,
                    ..BuildOptions::default()
                },
                BuildOptions {
                    grouping: Grouping::Rest,
                    mode_center: ModeCenter::Mean,
                    sphere: SphereFit::BoxCenter,
                    ..BuildOptions::default()
                },
                BuildOptions {
                    precision: Precision::F64,
                    nested: true,
                    motion_weight: 0.3,
                    ..BuildOptions::default()
                },
            ]
            .into_iter()
            .enumerate()
            {
                let (image, _) =
                    build(&body.mesh, body.basis.as_ref(), options, &mut |_| {}).unwrap();
                std::fs::write(out.join(format!("{name}-{b}-{k}.bdt")), image.as_bytes()).unwrap();
                n += 1;
                if options.precision != Precision::F32 {
                    continue;
                }
                let full = image.parse::<f32>().unwrap();
                for (c, (enc, depth, m16)) in [
                    (Encoding::Float, None, false),
                    (Encoding::Q16, None, false),
                    (Encoding::Q8, None, false),
                    (Encoding::Float, None, true),
                    (Encoding::Q16, None, true),
                    (Encoding::Float, Some(3), false),
                    (Encoding::Q8, Some(2), false),
                    (Encoding::Q16, Some(4), false),
                ]
                .into_iter()
                .enumerate()
                {
                    if depth.is_some() && !options.nested {
                        continue;
                    }
                    match compact(&full, enc, depth, m16) {
                        Ok((small, _)) => {
                            std::fs::write(
                                out.join(format!("{name}-{b}-{k}-c{c}.bdt")),
                                small.as_bytes(),
                            )
                            .unwrap();
                            n += 1;
                        }
                        Err(e) => {
                            std::fs::write(
                                out.join(format!("{name}-{b}-{k}-c{c}.err")),
                                e.to_string(),
                            )
                            .unwrap();
                            n += 1;
                        }
                    }
                }
            }
        }
    }
    println!("{n} images written");
}
