use bdtree_benches::self_scene::by_name;
use bdtree_std::build::{build, self_contours, BuildOptions};
fn main() {
    let scene = by_name(&std::env::var("SCENE").unwrap_or("bent".into())).unwrap();
    let buf = build(&scene.mesh, Some(&scene.basis), BuildOptions::default(), &mut |_| {}).unwrap().0;
    let image = buf.parse::<f32>().unwrap();
    let table = self_contours(&image.tree, image.model.triangles());
    let n = image.tree.node_count();
    let mut by_depth = vec![(0usize, 0usize); 40];
    for k in 0..n {
        let d = image.tree.node_depth(k).unwrap() as usize;
        by_depth[d].0 += 1;
        if table.starts[k + 1] > table.starts[k] { by_depth[d].1 += 1; }
    }
    for (d, (all, with)) in by_depth.iter().enumerate() { if *all > 0 { println!("depth {d}: {with}/{all} nodes with a loop"); } }
}
