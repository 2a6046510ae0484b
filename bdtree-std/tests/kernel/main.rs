//! The kernel's queries (`bdtree_core`) against the independent f64 brute-force oracle, one
//! folder per floor of the kernel (its layout: `docs/src/reference/layout.md`) and one file per
//! query or topic.

#[path = "../support/mod.rs"]
mod support;

mod geometry {
    mod degenerate;
    mod degenerate_meshes;
}

mod bounds {
    mod coherence;
    mod fitted;
    mod options;
}

mod image {
    mod compact;
    mod corrupt;
    mod images;
    mod optional;
}

mod body {
    mod floating_origin;
    mod regions;
}

mod walk {
    mod capacity;
}

mod query {
    mod boxes;
    mod contacts;
    mod medial;
    mod primitives;
    mod proxies;
    mod refinement;
    mod self_collision;
    mod self_families;
    mod self_normals;
    mod self_steps;
    mod separation;
    mod swept;
    mod swept_front;
    mod traversal;
    mod triangles;
}

mod world {
    mod collide_world;
    mod grid;
    mod response;
    mod sweep;
}
