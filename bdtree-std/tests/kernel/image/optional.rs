//! The optional sections of a version-5 image: fitted spheres and the self-collision culling
//! data. A plain image is as small as before them; each section costs what the format says;
//! the stored tables are the ones the host makes; a corrupt or truncated optional section is
//! refused by name, never a panic.

use bdtree_core::image::{
    Optional, Section, SelfSizes, FLAG_BOUNDED, FLAG_CERTIFICATES, FLAG_FITTED, FLAG_NORMALS,
    FLAG_SELF, HEADER_LEN,
};
use bdtree_core::query::self_collision::{
    normal_row_width, sphere_row_width, vertex_signatures, CERTIFICATE_VECTORS,
};
use bdtree_core::{
    collide_self_image, self_stack_capacity, ConeSlot, Encoding, Image, ImageError, Pose,
    QueryStatus, Scalar, SelfCones, TrianglePair,
};
use bdtree_std::build::{
    build, compact, self_certificates, self_contours, with_self_data, BuildOptions, Precision,
    TreeKind,
};
use bdtree_std::io::{self, Basis, ImageBuf, Mesh};
use bdtree_std::shapes::procedural::{icosphere, sheet, smooth_basis};
use bdtree_std::{oracle, BodyStorage};

use super::corrupt::{parse_err, patched, reseal};
use crate::support::{folding_sheet, pairs_into, Rng};

fn sheet_model() -> (Mesh, Basis) {
    let mesh = sheet(1.0, 0.5, 8, 4);
    let basis = smooth_basis(&mesh.vertices, 3, 0.05);
    (mesh, basis)
}

fn built(mesh: &Mesh, basis: Option<&Basis>, options: BuildOptions) -> ImageBuf {
    build(mesh, basis, options, &mut |_| {}).expect("build").0
}

/// The sheet with its modes, built with the default options as `set` changes them.
fn sheet_image(set: impl FnOnce(&mut BuildOptions)) -> ImageBuf {
    let (mesh, basis) = sheet_model();
    let mut options = BuildOptions::default();
    set(&mut options);
    built(&mesh, Some(&basis), options)
}

/// Sets header word `word` (4-byte index) to `value` and reseals.
fn patched_word(bytes: &[u8], word: usize, value: u32) -> Vec<u8> {
    patched(bytes, 4 * word, &value.to_le_bytes())
}

/// Whatever parses must be safe to ask for its self pairs through the image's data.
fn exercise_self(bytes: &[u8]) {
    let buf = ImageBuf::from_bytes(bytes);
    let Ok(image) = buf.parse::<f32>() else {
        return;
    };
    let n = image.tree.node_count();
    let mut storage = BodyStorage::new(n);
    let Ok(mut body) = storage.body(&image) else {
        return;
    };
    let q = vec![0.7f32; image.tree.modes()];
    let _ = body.set_state(Pose::identity(), &q);
    let mut slots = vec![ConeSlot::EMPTY; n];
    let mut cones = SelfCones::new(&mut slots);
    let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
    let _ = collide_self_image(
        &mut body,
        &mut cones,
        &mut Default::default(),
        &mut stack,
        &mut |_: TrianglePair| true,
    );
}

#[test]
fn plain_images_carry_no_optional_section_and_each_costs_what_the_format_says() {
    for precision in [Precision::F32, Precision::F64] {
        let plain = sheet_image(|o| o.precision = precision);
        let header = plain.header().expect("header");
        assert_eq!(header.flags & (FLAG_FITTED | FLAG_SELF), 0);
        let layout = header.layout().expect("layout");
        for s in [
            Section::Fitted,
            Section::Signatures,
            Section::Contours,
            Section::Certificates,
            Section::Normals,
            Section::Spheres,
        ] {
            assert_eq!(layout.len_of(s), 0, "{}", s.name());
        }
        let n = header.nodes as usize;
        let m = header.modes as usize;
        let scalar = precision.bytes() as usize;
        let round = |x: usize| x.next_multiple_of(16);

        let fitted = sheet_image(|o| (o.precision, o.fitted) = (precision, true));
        assert_eq!(
            fitted.as_bytes().len(),
            plain.as_bytes().len() + round(5 * scalar * n)
        );
        let with_self = sheet_image(|o| (o.precision, o.self_cull) = (precision, true));
        let image: Image<'_, f32> = match precision {
            Precision::F32 => with_self.parse().expect("parse"),
            Precision::F64 => {
                with_self.parse::<f64>().expect("parse");
                continue;
            }
        };
        let data = *image.tree.self_data().expect("self data");
        let c = data.contours.vertices.len();
        assert!(c > 0, "a sheet's nodes have boundary loops");
        assert!(!data.certificates.weights.is_empty());
        // The normal bounds and affine spheres: an index word per node each, and their rows.
        let [normal_rows, sphere_rows] = image.header.rows.map(|r| r as usize);
        assert!(
            sphere_rows > 0,
            "the sheet's larger nodes have affine spheres"
        );
        assert_eq!(data.spheres().rows.len(), sphere_rows * sphere_row_width(m));
        assert_eq!(data.normals().rows.len(), normal_rows * normal_row_width(m));
        assert_eq!(
            with_self.as_bytes().len(),
            plain.as_bytes().len()
                + round(8 * n)
                + round(4 * (n + 1 + c))
                + round(4 * CERTIFICATE_VECTORS * m * n)
                + round(4 * (n + normal_rows * normal_row_width(m)))
                + round(4 * (n + sphere_rows * sphere_row_width(m)))
        );
        assert_eq!(
            image.header.flags & (FLAG_SELF | FLAG_CERTIFICATES | FLAG_NORMALS),
            FLAG_SELF | FLAG_CERTIFICATES | FLAG_NORMALS
        );
        assert_eq!(image.header.contour_vertices as usize, c);

        // The stored tables are the host's.
        let contours = self_contours(&image.tree, image.model.triangles());
        assert_eq!(data.contours.starts, &contours.starts[..]);
        assert_eq!(data.contours.vertices, &contours.vertices[..]);
        let certificates = self_certificates(&image.tree, &image.model, &contours);
        assert_eq!(data.certificates.weights, &certificates[..]);
        let mut storage = BodyStorage::new(n);
        let body = storage.body(&image).expect("body");
        let mut signatures = vec![[0u32; 2]; n];
        vertex_signatures(&body, &mut signatures).expect("signatures");
        assert_eq!(data.signatures, &signatures[..]);
        // Everything before the optional sections is the plain image's, byte for byte.
        let end = header.layout().expect("layout").total;
        assert_eq!(
            with_self.as_bytes()[HEADER_LEN..end],
            plain.as_bytes()[HEADER_LEN..end]
        );
    }
}

#[test]
fn a_rigid_body_gets_contours_without_certificates_and_compaction_keeps_the_data() {
    let (mesh, _) = sheet_model();
    let rigid = built(
        &mesh,
        None,
        BuildOptions {
            self_cull: true,
            ..BuildOptions::default()
        },
    );
    let header = rigid.header().expect("header");
    assert_eq!(header.flags & (FLAG_SELF | FLAG_CERTIFICATES), FLAG_SELF);
    let image: Image<'_, f32> = rigid.parse().expect("parse");
    assert!(image
        .tree
        .self_data()
        .expect("data")
        .certificates
        .weights
        .is_empty());

    // A complete compact image keeps the data (made again from it; a 16-bit model has no
    // certificates); a bounded one has no mesh, so none.
    let source = sheet_image(|o| (o.self_cull, o.nested) = (true, true));
    let src: Image<'_, f32> = source.parse().expect("parse");
    for (model_q16, depth, flags) in [
        (false, None, FLAG_SELF | FLAG_CERTIFICATES),
        (true, None, FLAG_SELF),
        (false, Some(2), 0),
    ] {
        let (out, _) = compact(&src, Encoding::Q8, depth, model_q16).expect("compact");
        let h = out.header().expect("header");
        assert_eq!(
            h.flags & (FLAG_SELF | FLAG_CERTIFICATES),
            flags,
            "{model_q16} {depth:?}"
        );
        out.parse::<f32>().expect("parse");
    }
    // Adding the data twice replaces it.
    let again = with_self_data(&source, true).expect("again");
    assert_eq!(again.as_bytes(), source.as_bytes());
    // Without certificates: the contours and signatures alone, and compaction keeps it so.
    let bare = with_self_data(&source, false).expect("without certificates");
    let h = bare.header().expect("header");
    assert_eq!(h.flags & (FLAG_SELF | FLAG_CERTIFICATES), FLAG_SELF);
    let bare_view: Image<'_, f32> = bare.parse().expect("parse");
    let (out, _) = compact(&bare_view, Encoding::Q8, None, false).expect("compact");
    assert_eq!(
        out.header().expect("header").flags & (FLAG_SELF | FLAG_CERTIFICATES),
        FLAG_SELF
    );
    // A bounded image cannot take it.
    let (bounded, _) = compact(&src, Encoding::Float, Some(2), false).expect("compact");
    assert!(with_self_data(&bounded, true).is_err());
}

#[test]
fn a_medial_tree_carries_fitted_spheres_and_a_median_one_does_not() {
    let mesh = icosphere(0.5, 1);
    let median = built(&mesh, None, BuildOptions::default());
    let medial = built(
        &mesh,
        None,
        BuildOptions {
            tree: TreeKind::Medial,
            ..BuildOptions::default()
        },
    );
    let a: Image<'_, f32> = median.parse().expect("parse");
    let b: Image<'_, f32> = medial.parse().expect("parse");
    assert!(!a.tree.has_fitted() && a.tree.fitted(0).is_none());
    assert!(b.tree.has_fitted() && b.tree.fitted(0).is_some());
    let n = a.tree.node_count();
    assert_eq!(
        medial.as_bytes().len(),
        median.as_bytes().len() + (20 * n).next_multiple_of(16)
    );
}

#[test]
fn contradicting_flags_and_corrupt_self_sections_are_refused_by_name() {
    let image = sheet_image(|o| (o.self_cull, o.fitted) = (true, true));
    let bytes = image.as_bytes().to_vec();
    let header = image.header().expect("header");
    let layout = header.layout().expect("layout");
    assert_eq!(
        layout.optional,
        Optional {
            fitted: true,
            self_cull: Some(SelfSizes {
                contour_vertices: header.contour_vertices as usize,
                certificates: true,
                rows: Some(header.rows.map(|r| r as usize)),
            })
        }
    );
    let flags = header.flags;
    // Certificates without the self data, a contour word without it, self data in a bounded
    // image: the header contradicts itself.
    for bad in [flags & !FLAG_SELF, flags | FLAG_BOUNDED] {
        assert_eq!(
            parse_err(&patched_word(&bytes, 10, bad)),
            Some(ImageError::BadOptional { flags: bad }),
            "{bad:#x}"
        );
    }
    // Row counts without the flag that names their sections.
    assert_ne!(header.rows, [0, 0], "the sheet has affine spheres");
    let no_rows = flags & !FLAG_NORMALS;
    assert_eq!(
        parse_err(&patched_word(&bytes, 10, no_rows)),
        Some(ImageError::BadOptional { flags: no_rows })
    );
    let no_self = patched_word(
        &bytes,
        10,
        flags & !(FLAG_SELF | FLAG_CERTIFICATES | FLAG_NORMALS),
    );
    assert!(matches!(
        parse_err(&no_self),
        Some(ImageError::BadOptional { .. })
    ));
    // A contour word that disagrees with the bytes.
    for word in [
        header.contour_vertices + 1,
        header.contour_vertices - 1,
        u32::MAX,
    ] {
        assert!(matches!(
            parse_err(&patched_word(&bytes, 13, word)),
            Some(
                ImageError::LengthMismatch { .. }
                    | ImageError::SizeOverflow
                    | ImageError::BadSection { .. }
                    | ImageError::ReservedNotZero
            )
        ));
    }

    let n = header.nodes as usize;
    let at = |s: Section| layout.range(s).start;
    let put = |b: &mut Vec<u8>, offset: usize, value: u32| {
        b[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    };
    let word_at = |offset: usize| u32::from_le_bytes(bytes[offset..offset + 4].try_into().unwrap());
    let contours = at(Section::Contours);
    let vertices = contours + 4 * (n + 1);
    let section = |e: Option<ImageError>| match e {
        Some(ImageError::BadSection { section, .. }) => section,
        other => panic!("expected a section error, got {other:?}"),
    };
    type Corrupt<'a> = Box<dyn Fn(&mut Vec<u8>) + 'a>;
    let cases: Vec<(&str, Corrupt)> = vec![
        // A loop vertex past the mesh.
        ("contours", Box::new(|b| put(b, vertices, u32::MAX))),
        // The first offset not 0.
        ("contours", Box::new(|b| put(b, contours, 1))),
        // Offsets out of order (node 1's start past node 2's).
        (
            "contours",
            Box::new(|b| put(b, contours + 4, word_at(contours + 12) + 1)),
        ),
        // A signature that is not the one the faces imply.
        (
            "signatures",
            Box::new(|b| {
                let o = at(Section::Signatures) + 8 * (n - 1);
                put(b, o, word_at(o) ^ 0x10)
            }),
        ),
        // A NaN and a negative certificate weight.
        (
            "certificates",
            Box::new(|b| put(b, at(Section::Certificates), f32::NAN.to_bits())),
        ),
        (
            "certificates",
            Box::new(|b| put(b, at(Section::Certificates) + 4, (-1.0f32).to_bits())),
        ),
    ];
    for (name, corrupt) in cases {
        let mut b = bytes.clone();
        corrupt(&mut b);
        reseal(&mut b);
        assert_eq!(section(parse_err(&b)), name);
        exercise_self(&b);
    }
    // A loop of two vertices: node 0's loop cut short by moving every later offset.
    let mut b = bytes.clone();
    let first = word_at(contours + 4);
    assert!(first >= 3, "the root has a loop");
    put(&mut b, contours + 4, 2);
    reseal(&mut b);
    assert_eq!(section(parse_err(&b)), "contours");
}

#[test]
fn every_truncation_flip_and_resealed_corruption_of_a_self_image_is_refused_or_safe() {
    let image = sheet_image(|o| o.self_cull = true);
    let bytes = image.as_bytes().to_vec();
    let start = image
        .header()
        .expect("header")
        .layout()
        .expect("layout")
        .range(Section::Signatures)
        .start;
    for len in (0..bytes.len()).step_by(3) {
        assert!(parse_err(&bytes[..len]).is_some(), "truncated to {len}");
    }
    for i in start..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 1 << (i % 8);
        assert!(parse_err(&b).is_some(), "flip at byte {i}");
    }
    let mut rng = Rng::new(0x5E1F);
    let mut refused = 0;
    for round in 0..2_000 {
        let mut b = bytes.clone();
        for _ in 0..1 + round % 3 {
            let i = start + rng.below(b.len() - start);
            b[i] = match rng.below(3) {
                0 => 0xFF,
                1 => b[i] ^ (1 << rng.below(8)),
                _ => rng.next_u64() as u8,
            };
        }
        reseal(&mut b);
        refused += usize::from(parse_err(&b).is_some());
        exercise_self(&b);
    }
    assert!(refused > 500, "only {refused} resealed corruptions refused");
}

/// The scalar-generic check that the f64 image's tables parse too.
#[test]
fn an_f64_self_image_parses_with_its_tables() {
    fn check<S: Scalar>(image: &ImageBuf) {
        let view: Image<'_, S> = image.parse().expect("parse");
        let data = view.tree.self_data().expect("self data");
        assert_eq!(data.contours.starts.len(), view.tree.node_count() + 1);
    }
    let image = sheet_image(|o| (o.precision, o.self_cull) = (Precision::F64, true));
    check::<f64>(&image);
}

const FOLDS: [[f32; 2]; 7] = [
    [0.0, 1.2],
    [0.0, 1.0],
    [0.0, 0.97],
    [0.0, 0.5],
    [1.0, 1.0],
    [0.2, 1.1],
    [0.0, 0.0],
];

/// The statuses of `collide_self_image` on the folding sheet's image `bytes` over [`FOLDS`] on
/// one body (each complete answer checked against the f64 brute force).
fn fold_statuses(bytes: &[u8], mesh: &Mesh, basis: &Basis) -> Vec<QueryStatus> {
    let buf = ImageBuf::from_bytes(bytes);
    let image = buf
        .parse::<f32>()
        .expect("the loader sizes these sections only");
    let n = image.tree.node_count();
    let mut storage = BodyStorage::new(n);
    let mut body = storage.body(&image).expect("body");
    let mut slots = vec![ConeSlot::EMPTY; n];
    let mut cones = SelfCones::new(&mut slots);
    let mut stack = vec![[0u32; 2]; self_stack_capacity(image.tree.depth())];
    let mut statuses = Vec::new();
    for q in FOLDS {
        body.set_state(Pose::identity(), &q).expect("state");
        let mut found = Vec::new();
        let outcome = collide_self_image(
            &mut body,
            &mut cones,
            &mut Default::default(),
            &mut stack,
            &mut pairs_into(&mut found),
        );
        if outcome.status.is_complete() {
            found.sort_unstable();
            let q64 = q.map(f64::from);
            let world = oracle::deform(&mesh.vertices, Some(basis), &q64, &io::Pose::IDENTITY);
            for t in oracle::brute_force_self_pairs(&world, &mesh.triangles) {
                assert!(found.binary_search(&t).is_ok(), "q = {q:?}: missed {t:?}");
            }
        }
        statuses.push(outcome.status);
    }
    statuses
}

/// The normal bounds and affine spheres are sized by the loader (row counts in the header) and
/// checked where `collide_self_image`, their one reader, reads them: a row number past the
/// rows or impossible for its node, a NaN, a negative spread, extent or residual ends the query
/// with `QueryStatus::BadSection` naming the section (and its first bad place, found by the
/// whole check the failed query runs), never a read out of bounds or a complete answer made
/// from it.
#[test]
fn normal_bounds_and_affine_spheres_are_refused_where_the_self_query_reads_them() {
    let (mesh, basis) = folding_sheet();
    let options = BuildOptions {
        self_cull: true,
        ..BuildOptions::default()
    };
    let image = built(&mesh, Some(&basis), options);
    let bytes = image.as_bytes().to_vec();
    let header = image.header().expect("header");
    let layout = header.layout().expect("layout");
    let [normal_rows, sphere_rows] = header.rows.map(|r| r as usize);
    assert!(normal_rows > 0 && sphere_rows > 0, "{:?}", header.rows);
    // Untouched: every state complete (and equal to the brute force).
    let clean = fold_statuses(&bytes, &mesh, &basis);
    assert!(clean.iter().all(QueryStatus::is_complete), "{clean:?}");

    let n = header.nodes as usize;
    let m = header.modes as usize;
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let put = |b: &mut Vec<u8>, at: usize, value: u32| {
        b[at..at + 4].copy_from_slice(&value.to_le_bytes());
    };
    // Each case changes every node's entry (or every row) of one section the same way, so
    // whichever node the walk reads first meets it.
    type Corrupt = Box<dyn Fn(&mut Vec<u8>, usize, usize, usize)>;
    let each_row = |position: usize, value: f32| -> Corrupt {
        Box::new(move |b, start, width, rows| {
            for r in 0..rows {
                put(b, start + 4 * (n + r * width + position), value.to_bits());
            }
        })
    };
    let each_entry = |f: fn(u32, usize) -> u32| -> Corrupt {
        Box::new(move |b, start, _, _| {
            for k in 0..n {
                let i = word(b, start + 4 * k);
                if i != u32::MAX {
                    put(b, start + 4 * k, f(i, k));
                }
            }
        })
    };
    let cases: Vec<(&str, usize, Corrupt)> = vec![
        // Row numbers past the rows, and above their own node's number.
        ("normals", normal_rows, each_entry(|_, _| u32::MAX - 1)),
        ("normals", normal_rows, each_entry(|_, k| k as u32 + 1)),
        // A NaN and a negative spread (position 3: the rest normal's spread).
        ("normals", normal_rows, each_row(3, f32::NAN)),
        ("normals", normal_rows, each_row(3, -1.0)),
        ("spheres", sphere_rows, each_entry(|_, _| u32::MAX - 1)),
        ("spheres", sphere_rows, each_entry(|_, k| k as u32 + 1)),
        // A NaN, a negative half-extent and a negative residual (the last value).
        ("spheres", sphere_rows, each_row(0, f32::NAN)),
        ("spheres", sphere_rows, each_row(0, -1.0)),
        ("spheres", sphere_rows, each_row(10 * m + 2, -1.0)),
        // An infinite map entry (position 3: mode 0's map).
        ("spheres", sphere_rows, each_row(3, f32::INFINITY)),
    ];
    for (name, rows, corrupt) in cases {
        let (section, width) = match name {
            "normals" => (Section::Normals, normal_row_width(m)),
            _ => (Section::Spheres, sphere_row_width(m)),
        };
        let start = layout.range(section).start;
        assert_eq!(layout.len_of(section), 4 * (n + rows * width));
        let mut b = bytes.clone();
        corrupt(&mut b, start, width, rows);
        reseal(&mut b);
        let statuses = fold_statuses(&b, &mesh, &basis);
        assert!(
            statuses.iter().any(|s| matches!(
                s,
                QueryStatus::BadSection { section, .. } if *section == name
            )),
            "{name}: {statuses:?}"
        );
        // Nothing else: each state complete (the section not read) or refused by name.
        for s in &statuses {
            assert!(
                s.is_complete()
                    || matches!(s, QueryStatus::BadSection { section, .. } if *section == name),
                "{name}: {s:?}"
            );
        }
    }
}
