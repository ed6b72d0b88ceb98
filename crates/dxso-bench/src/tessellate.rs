use crate::measure::{measure, measure_pair_within};
use crate::session::Session;
use anyhow::Result;
use dxso_dp2::{device, teapot, Device, Limits};
use serde_json::json;
use std::fmt::Write as _;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// Tessellation throughput: the Utah teapot DP2 stream (32 patches created, then the same 32
/// drawn from the patch cache) at 8, 16 and 64 segments per edge.
///
/// Measured as a driver runs it: one device runs the whole capture again and again (parsing
/// every command, re-capturing and re-tessellating all 32 patches each time, the second pass
/// served by the patch cache), handing each run's draws back with `Device::recycle` so meshes
/// are written into memory that earlier runs allocated. `fresh vertices/s` is the same work
/// on a new device per run (`device::run`: every mesh newly allocated), shown for comparison.
///
/// The limit, measured in the same run, is how fast this machine can merely write the same
/// output: one 32-byte vertex (position, normal, uv) per output vertex and every index, into
/// buffers allocated beforehand. The device's runs and the limit's passes alternate, so both
/// see the same machine load. `ratio` is achieved vertices/s divided by that limit (the lowest
/// of the three segment counts).
///
/// Example:
///   cargo run --release -p dxso-bench -- tessellate --json
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Opts {
    /// Seconds to spend on each measured side.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
}

/// The output a tessellated vertex costs at minimum: position, normal, uv.
#[derive(Clone, Copy, Default)]
struct OutVertex {
    _position: [f32; 3],
    _normal: [f32; 3],
    _uv: [f32; 2],
}

impl Opts {
    pub fn run(self, s: &Session) -> Result<ExitCode> {
        let mut out = String::new();
        let budget = Duration::from_secs_f64(self.seconds.clamp(0.01, 600.0));
        let mut rows = Vec::new();
        for segments in [8.0f32, 16.0, 64.0] {
            let capture = teapot::capture(segments);
            let draws = device::run(&capture, Limits::default())?;
            let vertices: usize = draws.iter().map(|d| d.vertices()).sum();
            let indices: usize = draws.iter().map(|d| d.mesh.indices.len()).sum();
            let mut reused = Device::new(Limits::default());
            let mut vbuf = vec![OutVertex::default(); vertices];
            let mut ibuf = vec![0u32; indices];
            // The device's runs and the limit's passes alternate, so both see the same load.
            let (runs, writes) = measure_pair_within(
                budget,
                || {
                    let draws = reused
                        .run_capture(black_box(&capture))
                        .expect("teapot runs");
                    reused.recycle(black_box(draws));
                },
                Some(Box::new(|| {
                    for (i, v) in vbuf.iter_mut().enumerate() {
                        let x = i as f32;
                        *v = OutVertex {
                            _position: [x, x, x],
                            _normal: [x, x, x],
                            _uv: [x, x],
                        };
                    }
                    for (i, ix) in ibuf.iter_mut().enumerate() {
                        *ix = i as u32;
                    }
                    black_box((&mut vbuf, &mut ibuf));
                })),
            );
            let writes = writes.expect("the limit is measured");
            let fresh_runs = measure(budget, || {
                black_box(
                    device::run(black_box(&capture), Limits::default()).expect("teapot runs"),
                );
            });
            let achieved = runs * vertices as f64;
            let limit = writes * vertices as f64;
            let fresh = fresh_runs * vertices as f64;
            rows.push((segments, vertices, indices, achieved, limit, fresh));
        }
        let ratio = rows.iter().map(|r| r.3 / r.4).fold(f64::INFINITY, f64::min);
        if s.json {
            let j = json!({
                "bench": "tessellate",
                "input": "Utah teapot DP2 stream: 32 created + 32 cached bicubic patches",
                "segments": rows.iter().map(|(s, v, i, a, l, f)| json!({
                    "segments": s,
                    "vertices_per_run": v,
                    "indices_per_run": i,
                    "vertices_per_s": a,
                    "limit_vertices_per_s": l,
                    "ratio": a / l,
                    "fresh_device_vertices_per_s": f,
                    "fresh_device_ratio": f / l,
                })).collect::<Vec<_>>(),
                "ratio": ratio,
            });
            s.print_json(&j)?;
        } else {
            writeln!(
                out,
                "tessellate: Utah teapot stream (32 created + 32 cached bicubic patches)"
            )?;
            writeln!(
                out,
                "{:>8} {:>12} {:>16} {:>18} {:>8} {:>18} {:>8}",
                "segments",
                "vertices",
                "vertices/s",
                "limit vertices/s",
                "ratio",
                "fresh vertices/s",
                "ratio"
            )?;
            for (s, v, _, a, l, f) in &rows {
                writeln!(
                    out,
                    "{s:>8} {v:>12} {a:>16.3e} {l:>18.3e} {:>7.1}% {f:>18.3e} {:>7.1}%",
                    100.0 * a / l,
                    100.0 * f / l
                )?;
            }
            writeln!(
                out,
                "ratio (achieved / write limit, lowest): {:.1}%",
                100.0 * ratio
            )?;
        }
        s.print(&out)?;
        Ok(ExitCode::SUCCESS)
    }
}
