//! The colours of pictures and exports (plain RGB triples: no drawing library needed).

/// Body colours of pictures and exports (muted, none of them red), in order.
pub const PALETTE: [(u8, u8, u8); 8] = [
    (76, 114, 176),
    (85, 168, 104),
    (129, 114, 179),
    (204, 185, 116),
    (100, 181, 205),
    (140, 86, 75),
    (218, 139, 195),
    (130, 130, 130),
];

/// The colour of highlighted (contact) triangles.
pub const HIGHLIGHT: (u8, u8, u8) = (220, 20, 20);

/// The colour of secondary highlighted triangles (self-contacts in contact pictures).
pub const SECONDARY: (u8, u8, u8) = (250, 160, 20);

/// The stops of the growth colour scale, evenly spaced over `[0, 1]`.
pub const GROWTH_STOPS: [(u8, u8, u8); 5] = [
    (13, 8, 135),
    (106, 0, 168),
    (177, 42, 144),
    (225, 100, 98),
    (245, 150, 40),
];

/// The growth colour scale (the dark part of "plasma": blue–purple–red–orange, legible on a
/// white background and over light grey triangles), at `t` in `[0, 1]` (clamped; non-finite
/// is 0): linear between evenly spaced stops, each channel rounded — the same colours as
/// plotters' `DerivedColorMap` over these stops.
pub fn growth_color(t: f64) -> (u8, u8, u8) {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let at = t * (GROWTH_STOPS.len() - 1) as f64;
    let (lower, upper) = (at.floor() as usize, at.ceil() as usize);
    // The weight of the lower stop.
    let r = at.ceil() - at;
    let (a, b) = (GROWTH_STOPS[upper], GROWTH_STOPS[lower]);
    let mix = |x: u8, y: u8| ((1.0 - r) * f64::from(x) + r * f64::from(y)).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}
