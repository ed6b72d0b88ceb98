use super::dp2::read_capture;
use crate::input::FileArg;
use crate::session::Session;
use anyhow::{Context, Result};
use dxso_dp2::{Device, Limits};
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;

/// Print the shaders the fixed-function pipeline generates for a state.
///
/// STATE.json is a DP2 description in the words of `dxso dp2 build` (a `.dp2` capture works
/// too): its commands run on a device (draws included) and the fixed-function state they leave
/// (SETVERTEXSHADER's FVF, transforms, material, lights, render and texture-stage states,
/// bound textures) becomes a vs_3_0 and a ps_3_0, printed as Microsoft's listings. Both
/// shaders pass `dxso validate`; their constants are filled from the state's values when they
/// run (docs/SEMANTICS.md, "The fixed-function pipeline", gives what they compute).
///
/// Under --json: `{"vs": {"listing", "tokens"}, "ps": {"listing", "tokens"}}`.
///
/// Examples:
///   dxso ffp state.json
///   dxso ffp state.json --json
///   dxso ffp state.json --texture 0 --texture 1   (stages 0 and 1 sample a 2D texture)
///   echo '{"commands": [{"op": "SETVERTEXSHADER", "fvf": ["XYZ", "NORMAL"]},
///          {"op": "SETLIGHT", "index": 0, "enable": true}]}' | dxso ffp -
///
/// Exit status: 0 on success, 1 when the description cannot be built or run, or the state is
/// one the generator refuses (the error names the state), 2 on usage and I/O errors.
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    #[command(flatten)]
    input: FileArg,
    /// Treat texture stage STAGE as having a 2D texture bound (repeatable), so its sampling and
    /// coordinates are generated without a texture buffer in the description.
    #[arg(long = "texture", value_name = "STAGE")]
    textures: Vec<u32>,
    #[command(flatten)]
    printed: crate::output::PrintedArg,
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        self.printed.apply(s, &self.input.file.iter().map(|p| p.as_path()).collect::<Vec<_>>())?;
        let capture = read_capture(s, &self.input)?;
        let mut device = Device::new(Limits::default());
        device
            .run_capture(&capture)
            .context("running the description")?;
        let mut state = device.ffp_state();
        for &stage in &self.textures {
            let slot = state.stages.get_mut(stage as usize).ok_or_else(|| {
                crate::report::CliError::Usage(format!("--texture {stage}: stages are 0..=7"))
            })?;
            slot.texture = Some(dxso_ffp::TextureKind::Flat);
        }
        let key = dxso_ffp::ShaderKey::from_state(&state).context("the fixed-function state")?;
        let generated = dxso_ffp::generate(&key).context("the fixed-function state")?;
        let tokens = |shader: &dxso::Shader| -> Vec<u32> {
            dxso::encode(shader)
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect()
        };
        if s.json {
            s.print_json(&json!({
                "vs": {"listing": dxso_text::print(&generated.vs), "tokens": tokens(&generated.vs)},
                "ps": {"listing": dxso_text::print(&generated.ps), "tokens": tokens(&generated.ps)},
            }))?;
            return Ok(ExitCode::SUCCESS);
        }
        let mut out = s.out();
        out.write_all(dxso_text::print(&generated.vs).as_bytes())?;
        out.write_all(b"\n")?;
        out.write_all(dxso_text::print(&generated.ps).as_bytes())?;
        out.finish()?;
        Ok(ExitCode::SUCCESS)
    }
}
