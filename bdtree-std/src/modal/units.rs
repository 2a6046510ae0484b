//! Units of a modal analysis: the mesh's length unit ([`LengthUnit`]), how modes are scaled
//! ([`Normalization`]), and lengths and areas as text in a readable unit.

/// The unit of a mesh's coordinates: the analysis takes lengths in it and reports geometry
/// (cell sides, walls, volumes) in it, frequencies in hertz whatever it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LengthUnit {
    /// Metres (SI; the default).
    #[default]
    Metre,
    /// Centimetres.
    Centimetre,
    /// Millimetres (most CAD exports).
    Millimetre,
    /// Micrometres.
    Micrometre,
    /// Inches.
    Inch,
}

impl LengthUnit {
    /// Every unit, in the order of [`LengthUnit::names`].
    pub const ALL: [LengthUnit; 5] = [
        LengthUnit::Metre,
        LengthUnit::Centimetre,
        LengthUnit::Millimetre,
        LengthUnit::Micrometre,
        LengthUnit::Inch,
    ];

    /// One unit in metres.
    pub fn metres(self) -> f64 {
        match self {
            LengthUnit::Metre => 1.0,
            LengthUnit::Centimetre => 1e-2,
            LengthUnit::Millimetre => 1e-3,
            LengthUnit::Micrometre => 1e-6,
            LengthUnit::Inch => 0.0254,
        }
    }

    /// Its symbol in text: `m`, `cm`, `mm`, `µm`, `in`.
    pub fn symbol(self) -> &'static str {
        match self {
            LengthUnit::Metre => "m",
            LengthUnit::Centimetre => "cm",
            LengthUnit::Millimetre => "mm",
            LengthUnit::Micrometre => "µm",
            LengthUnit::Inch => "in",
        }
    }

    /// The names [`LengthUnit::parse`] takes, one per unit: `m, cm, mm, um, in`.
    pub fn names() -> &'static str {
        "m, cm, mm, um, in"
    }

    /// A unit from its name (`m`, `cm`, `mm`, `um` or `µm`, `in`); the error lists the names.
    pub fn parse(name: &str) -> Result<LengthUnit, String> {
        match name.trim() {
            "m" => Ok(LengthUnit::Metre),
            "cm" => Ok(LengthUnit::Centimetre),
            "mm" => Ok(LengthUnit::Millimetre),
            "um" | "µm" => Ok(LengthUnit::Micrometre),
            "in" => Ok(LengthUnit::Inch),
            _ => Err(format!(
                "'{name}' is not a length unit (one of {})",
                LengthUnit::names()
            )),
        }
    }
}

impl std::fmt::Display for LengthUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.symbol())
    }
}

/// How the analysis scales each mode (see the [module documentation](super)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Normalization {
    /// The largest vertex displacement is 1 (a mesh unit per unit of `q`): `q_j` is the peak
    /// displacement of mode `j`. The default.
    #[default]
    Peak,
    /// Unit modal mass: the modal masses ([`super::Modes::modal_masses`]) are 1 and the
    /// stiffnesses `ω_j²`, so each mode's equation is `q̈_j + ω_j² q_j = Q_j`.
    Mass,
}

impl Normalization {
    /// Its name: `peak` or `mass`.
    pub fn name(self) -> &'static str {
        match self {
            Normalization::Peak => "peak",
            Normalization::Mass => "mass",
        }
    }

    /// A normalisation from its name (`peak` or `mass`).
    pub fn parse(name: &str) -> Result<Normalization, String> {
        match name.trim() {
            "peak" => Ok(Normalization::Peak),
            "mass" => Ok(Normalization::Mass),
            _ => Err(format!("'{name}' is not a normalisation (peak or mass)")),
        }
    }
}

/// A length `x` in mesh units of `unit` as text. A metre mesh (the default unit) gets a
/// readable metric unit (m, cm, mm, µm); a mesh in any other unit gets that unit, so a report
/// asked for in millimetres speaks millimetres throughout (issue 50: its lattice line said cm).
pub(super) fn length(x: f64, unit: LengthUnit) -> String {
    if unit != LengthUnit::Metre {
        return format!("{} {}", significant(x), unit.symbol());
    }
    if x >= 1.0 {
        format!("{x:.3} m")
    } else if x >= 0.01 {
        format!("{:.2} cm", x * 100.0)
    } else if x >= 1e-5 {
        format!("{:.2} mm", x * 1000.0)
    } else {
        format!("{:.2} µm", x * 1e6)
    }
}

/// An area `x` in squared mesh units of `unit` as text, in the unit [`length`] uses.
pub(super) fn area(x: f64, unit: LengthUnit) -> String {
    if unit != LengthUnit::Metre {
        return format!("{} {}²", significant(x), unit.symbol());
    }
    if x >= 1.0 {
        format!("{x:.2} m²")
    } else if x >= 1e-4 {
        format!("{:.1} cm²", x * 1e4)
    } else if x >= 1e-10 {
        format!("{:.2} mm²", x * 1e6)
    } else {
        format!("{:.2} µm²", x * 1e12)
    }
}

/// `x` with at least two decimals and at least four significant digits (at most 12
/// decimals): `50.00`, `8.333`, `0.004167`.
fn significant(x: f64) -> String {
    let magnitude = if x.is_finite() && x != 0.0 {
        x.abs().log10().floor() as i32
    } else {
        0
    };
    let decimals = (3 - magnitude).clamp(2, 12) as usize;
    format!("{x:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_speak_the_mesh_unit_issue_50() {
        assert_eq!(length(50.0, LengthUnit::Millimetre), "50.00 mm");
        assert_eq!(length(25.0 / 3.0, LengthUnit::Millimetre), "8.333 mm");
        assert_eq!(length(0.05, LengthUnit::Centimetre), "0.05000 cm");
        assert_eq!(length(0.05, LengthUnit::Metre), "5.00 cm");
        assert_eq!(length(1.5, LengthUnit::Inch), "1.500 in");
        assert_eq!(area(2500.0, LengthUnit::Millimetre), "2500.00 mm²");
        assert_eq!(area(0.0025, LengthUnit::Metre), "25.0 cm²");
    }
}
