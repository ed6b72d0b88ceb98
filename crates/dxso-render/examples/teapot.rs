//! Renders the demo teapot with shaders assembled from the repository's assembly text:
//! `cargo run --release -p dxso-render --example teapot -- OUT.png [SIZE]`.
use dxso_render::teapot::{Scene, PIXEL_SHADER, VERTEX_SHADER};
use dxso_render::{ExecEngine, RenderLimits, Renderer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "teapot.png".into());
    let size: u32 = args.next().map_or(Ok(512), |s| s.parse())?;
    let assemble = |text: &str| -> Result<Vec<u8>, Box<dyn std::error::Error>> {
        let shader = dxso_text::parse(text).map_err(|d| d.to_string())?;
        Ok(dxso::encode(&shader))
    };
    let scene = Scene {
        size: [size, size],
        ..Scene::default()
    };
    let capture = scene.capture(&assemble(VERTEX_SHADER)?, &assemble(PIXEL_SHADER)?);
    let engine = ExecEngine::default();
    let mut renderer = Renderer::new(size, size, Some(&engine), RenderLimits::default())?;
    let start = std::time::Instant::now();
    renderer.render_capture(&capture)?;
    println!("{:?} in {:?}", renderer.stats(), start.elapsed());
    std::fs::write(&out, renderer.image().to_png()?)?;
    Ok(())
}
