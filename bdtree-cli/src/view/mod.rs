//! **Seeing results**: pictures (PNG, SVG) and Rerun recordings; the colours and the exports
//! for MeshLab and Blender (PLY, OBJ) are the library's (`bdtree_std::export`). The
//! application's last room: it may import every other.
//!
//! | file | what | feature |
//! |---|---|---|
//! | `error.rs` | [`RenderError`] | |
//! | `render/` | pictures: spheres at a level, tightness curves, contacts, snapshots | `pictures` |
//! | `demo.rs` | the picture of `bdtree demo` | `pictures` |
//! | `rerun.rs` | a chairs simulation as a Rerun recording | `rerun` |

#[cfg(feature = "pictures")]
pub mod demo;
mod error;
#[cfg(feature = "pictures")]
pub mod render;
#[cfg(feature = "rerun")]
pub mod rerun;

pub use error::RenderError;

#[cfg(all(test, feature = "pictures"))]
mod tests {
    use bdtree_std::export::{growth_color, GROWTH_STOPS};
    use plotters::prelude::{ColorMap, DerivedColorMap, RGBColor};

    /// The library's growth scale ([`bdtree_std::export::growth_color`]) is plotters' derived
    /// colour map, colour for colour.
    #[test]
    fn growth_colors_match_plotters() {
        let stops = GROWTH_STOPS.map(|(r, g, b)| RGBColor(r, g, b));
        let map = DerivedColorMap::new(&stops);
        for k in 0..=10_000 {
            let t = f64::from(k) / 10_000.0;
            let c: RGBColor = map.get_color_normalized(t, 0.0, 1.0);
            assert_eq!(growth_color(t), (c.0, c.1, c.2), "t = {t}");
        }
        for t in [f64::NAN, f64::INFINITY, -1.0, 2.0] {
            let clamped = if t.is_finite() {
                t.clamp(0.0, 1.0)
            } else {
                0.0
            };
            let c: RGBColor = map.get_color_normalized(clamped, 0.0, 1.0);
            assert_eq!(growth_color(t), (c.0, c.1, c.2), "t = {t}");
        }
    }
}
