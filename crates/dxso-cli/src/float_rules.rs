//! The arithmetic rules a user chooses where drivers differ (`docs/SEMANTICS.md` 4.2 and 5.1):
//! one set of flags for `run` (every engine) and `translate`.

/// `--zero-times-anything` and `--ps1-range`.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct FloatRuleArgs {
    /// "0 * anything = 0" in every product (docs/SEMANTICS.md 5.1; DXVK's
    /// d3d9.floatEmulation).
    #[arg(long)]
    pub zero_times_anything: bool,
    /// The ps_1_x arithmetic range (MaxPixelShaderValue): `drivers` (the default: no clamp, as
    /// current drivers report FLT_MAX), `early` (the early hardware's [-1, 1] for ps_1_1-1_3,
    /// [-8, 8] for ps_1_4) or a number M for [-M, M].
    #[arg(long, value_name = "drivers|early|M", default_value = "drivers", value_parser = parse_range)]
    pub ps1_range: Ps1Range,
}

/// A parsed `--ps1-range`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Ps1Range {
    /// No clamp.
    #[default]
    Drivers,
    /// 1 or 8 by version.
    Early,
    /// [-M, M].
    Limit(f32),
}

fn parse_range(s: &str) -> Result<Ps1Range, String> {
    match s {
        "drivers" => Ok(Ps1Range::Drivers),
        "early" => Ok(Ps1Range::Early),
        _ => match s.parse::<f32>() {
            Ok(m) if m >= 0.0 => Ok(Ps1Range::Limit(m)),
            _ => Err(format!(
                "expected `drivers`, `early` or a non-negative number, found `{s}`"
            )),
        },
    }
}

impl FloatRuleArgs {
    /// The executor's range option.
    pub fn exec_range(&self) -> dxso_exec::Ps1Range {
        match self.ps1_range {
            Ps1Range::Drivers => dxso_exec::Ps1Range::Drivers,
            Ps1Range::Early => dxso_exec::Ps1Range::EarlyHardware,
            Ps1Range::Limit(m) => dxso_exec::Ps1Range::Limit(m),
        }
    }

    /// The translation's range option.
    #[cfg(feature = "translate")]
    pub fn naga_range(&self) -> dxso_naga::Ps1Range {
        match self.ps1_range {
            Ps1Range::Drivers => dxso_naga::Ps1Range::Drivers,
            Ps1Range::Early => dxso_naga::Ps1Range::EarlyHardware,
            Ps1Range::Limit(m) => dxso_naga::Ps1Range::Limit(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_forms() {
        assert_eq!(parse_range("drivers"), Ok(Ps1Range::Drivers));
        assert_eq!(parse_range("early"), Ok(Ps1Range::Early));
        assert_eq!(parse_range("2"), Ok(Ps1Range::Limit(2.0)));
        assert!(parse_range("-1").is_err());
        assert!(parse_range("big").is_err());
    }
}
