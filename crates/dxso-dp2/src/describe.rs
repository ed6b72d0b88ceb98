//! A JSON description of a capture (`dxso dp2 build FILE.json -o OUT.dp2`).
//!
//! ```json
//! {"buffers": [{"handle": 1, "f32": [0, 0, 0, 1, 0, 0]}, {"handle": 2, "u16": [0, 1, 2]}],
//!  "commands": [
//!    {"op": "CREATEVERTEXSHADERDECL", "handle": 1, "elements": [
//!       {"stream": 0, "offset": 0, "type": "FLOAT3", "method": "DEFAULT", "usage": "POSITION"}]},
//!    {"op": "SETVERTEXSHADERDECL", "handle": 1},
//!    {"op": "SETSTREAMSOURCE", "stream": 0, "buffer": 1, "stride": 12},
//!    {"op": "RENDERSTATE", "state": "PATCHSEGMENTS", "float": 4.0},
//!    {"op": "DRAWRECTPATCH", "handle": 7, "segments": [4, 4, 4, 4],
//!     "info": {"start_vertex_offset_width": 0, "start_vertex_offset_height": 0,
//!              "width": 4, "height": 4, "stride": 4, "basis": 0, "degree": 3}}]}
//! ```
//! Buffers take `f32`, `u16`, `u32` or `bytes` arrays; with a `texture` object (`format`,
//! `width`, `height`, `levels`) they are texture buffers. States go by number or by D3D name,
//! values by number, `true`/`false`, or the name of the state's enumeration (`"ZFUNC"`,
//! `"LESSEQUAL"`). `docs/DP2.md` lists every op's fields.

use crate::capture::{Capture, CaptureBuilder};
use crate::command::{
    Clear, Command, CommandKind, Commands, LightData, Op, ParseError, RectPatchInfo, TriPatchInfo,
};
use crate::decl::{DeclMethod, DeclType, DeclUsage, VertexElement};
use crate::device::rs::{self, StateInfo, ValueKind};
use crate::device::tss;
use crate::texture::{Texture, TextureFormat};
use serde_json::{json, Map, Value};
use thiserror::Error;

/// A description that cannot be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{place}: {message}")]
pub struct DescribeError {
    /// Where: `buffers[2]`, `commands[5] (DRAWRECTPATCH)`.
    pub place: String,
    /// What is wrong.
    pub message: String,
}

type Obj = Map<String, Value>;

struct At<'a> {
    place: String,
    obj: &'a Obj,
    /// The keys the reader asked for, whether or not the object has them: the names the
    /// object may use, which [`At::check`] compares its keys against.
    asked: std::cell::RefCell<Vec<String>>,
}

impl<'a> At<'a> {
    fn new(place: String, obj: &'a Obj) -> Self {
        At {
            place,
            obj,
            asked: Default::default(),
        }
    }

    /// The value of `key`, noting that the reader knows that key.
    fn get(&self, key: &str) -> Option<&'a Value> {
        let mut asked = self.asked.borrow_mut();
        if !asked.iter().any(|k| k == key) {
            asked.push(key.to_string());
        }
        self.obj.get(key)
    }

    /// After the object was read (`result`): a key the reader never asked for is a mistake
    /// (a misspelt key would otherwise be silently ignored), named with the nearest key the
    /// reader knows. When reading failed, the failure stands unless a key is a misspelling of
    /// one the reader asked for (which is then the likely cause: "missing `handle`" for a
    /// `handel`); keys after the failure were never asked for and say nothing.
    fn check(&self, result: Result<(), DescribeError>) -> Result<(), DescribeError> {
        let asked = self.asked.borrow();
        let mut unknown = self
            .obj
            .keys()
            .filter(|k| !asked.iter().any(|a| a == *k))
            .map(|k| (k, nearest(k, asked.iter().map(String::as_str))));
        let found = match result {
            Ok(()) => unknown.next(),
            Err(_) => unknown.find(|(_, near)| near.is_some()),
        };
        match found {
            Some((key, Some(near))) => {
                Err(self.err(format!("unknown key `{key}` (did you mean `{near}`?)")))
            }
            Some((key, None)) => Err(self.err(format!("unknown key `{key}`"))),
            None => result,
        }
    }

    fn err(&self, message: impl Into<String>) -> DescribeError {
        DescribeError {
            place: self.place.clone(),
            message: message.into(),
        }
    }

    fn u32(&self, key: &str) -> Result<u32, DescribeError> {
        self.opt_u32(key)?
            .ok_or_else(|| self.err(format!("missing `{key}`")))
    }

    fn opt_u32(&self, key: &str) -> Result<Option<u32>, DescribeError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => as_u32(v)
                .map(Some)
                .ok_or_else(|| self.err(format!("`{key}` is not a DWORD"))),
        }
    }

    fn i32(&self, key: &str) -> Result<i32, DescribeError> {
        self.get(key)
            .and_then(Value::as_i64)
            .and_then(|v| i32::try_from(v).ok())
            .ok_or_else(|| self.err(format!("`{key}` is missing or not a 32-bit integer")))
    }

    fn f32(&self, key: &str) -> Result<f32, DescribeError> {
        self.get(key)
            .and_then(as_f32)
            .ok_or_else(|| self.err(format!("`{key}` is missing or not a number")))
    }

    fn array(&self, key: &str) -> Result<Option<&Vec<Value>>, DescribeError> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a)),
            Some(_) => Err(self.err(format!("`{key}` is not an array"))),
        }
    }

    fn floats<const N: usize>(&self, key: &str) -> Result<Option<[f32; N]>, DescribeError> {
        let Some(a) = self.array(key)? else {
            return Ok(None);
        };
        let v: Option<Vec<f32>> = a.iter().map(as_f32).collect();
        v.and_then(|v| v.try_into().ok())
            .map(Some)
            .ok_or_else(|| self.err(format!("`{key}` must be {N} numbers")))
    }
}

/// The candidate closest to `key` by edit distance, when it is close enough to be a misspelling
/// (at most a third of the key's letters, and at least one, differ).
fn nearest<'k>(key: &str, candidates: impl Iterator<Item = &'k str>) -> Option<&'k str> {
    let limit = (key.chars().count() / 3).max(1);
    let key = key.to_ascii_lowercase();
    candidates
        .map(|c| (strsim::levenshtein(&key, &c.to_ascii_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn as_u32(v: &Value) -> Option<u32> {
    v.as_u64().and_then(|x| u32::try_from(x).ok())
}

fn as_f32(v: &Value) -> Option<f32> {
    v.as_f64().map(|x| x as f32)
}

fn named<T>(
    v: Option<&Value>,
    default: u8,
    from_name: impl Fn(&str) -> Option<T>,
    to: impl Fn(T) -> u8,
) -> Option<u8> {
    match v {
        None => Some(default),
        Some(Value::String(s)) => from_name(s).map(to),
        Some(v) => v.as_u64().and_then(|x| u8::try_from(x).ok()),
    }
}

/// A state by name (looked up in `table`) or number.
fn state_number(v: &Value, from_name: fn(&str) -> Option<&'static StateInfo>) -> Option<u32> {
    match v {
        Value::String(s) => from_name(s).map(|i| i.number),
        v => as_u32(v),
    }
}

/// A state's value: `value` (a DWORD, `true`/`false`, or a name of the state's enumeration)
/// or `float`.
fn state_value(at: &At<'_>, info: Option<&StateInfo>) -> Result<u32, DescribeError> {
    match (at.get("value"), at.get("float")) {
        (Some(v), None) => match v {
            Value::Bool(b) => Ok(u32::from(*b)),
            Value::String(name) => {
                info.and_then(|i| i.kind.value_from_name(name))
                    .ok_or_else(|| {
                        at.err(format!("`value` \"{name}\" is not a name this state takes"))
                    })
            }
            v => as_u32(v).ok_or_else(|| at.err("`value` is not a DWORD")),
        },
        (None, Some(f)) => Ok(as_f32(f)
            .ok_or_else(|| at.err("`float` is not a number"))?
            .to_bits()),
        _ => Err(at.err("give exactly one of `value` (DWORD or name) or `float`")),
    }
}

/// `D3DCLEAR_*` flags: a number or a list of `TARGET`, `ZBUFFER`, `STENCIL`.
fn clear_flags(at: &At<'_>) -> Result<u32, DescribeError> {
    match at.get("flags") {
        Some(Value::Array(names)) => names.iter().try_fold(0, |acc, n| {
            let bit = match n.as_str().map(|s| s.to_ascii_uppercase()) {
                Some(s) if s.trim_start_matches("D3DCLEAR_") == "TARGET" => 1,
                Some(s) if s.trim_start_matches("D3DCLEAR_") == "ZBUFFER" => 2,
                Some(s) if s.trim_start_matches("D3DCLEAR_") == "STENCIL" => 4,
                _ => return Err(at.err("`flags` names are TARGET, ZBUFFER, STENCIL")),
            };
            Ok(acc | bit)
        }),
        _ => at.u32("flags"),
    }
}

/// Builds a capture from its JSON description.
pub fn build(json: &str) -> Result<Capture, DescribeError> {
    let top: Value = serde_json::from_str(json).map_err(|e| DescribeError {
        place: "document".into(),
        message: e.to_string(),
    })?;
    let root = top.as_object().ok_or_else(|| DescribeError {
        place: "document".into(),
        message: "not an object".into(),
    })?;
    let document = At::new("document".into(), root);
    document.get("buffers");
    document.get("commands");
    document.check(Ok(()))?;
    let mut b = CaptureBuilder::new();
    let empty = Vec::new();
    let list = |key: &str| match root.get(key) {
        None => Ok(&empty),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(DescribeError {
            place: key.into(),
            message: "not an array".into(),
        }),
    };
    for (i, v) in list("buffers")?.iter().enumerate() {
        let place = format!("buffers[{i}]");
        let obj = v.as_object().ok_or_else(|| DescribeError {
            place: place.clone(),
            message: "not an object".into(),
        })?;
        let at = At::new(place, obj);
        let handle = at.u32("handle")?;
        let mut bytes = Vec::new();
        let mut kinds = 0;
        if let Some(a) = at.array("f32")? {
            kinds += 1;
            for x in a {
                bytes.extend(
                    as_f32(x)
                        .ok_or_else(|| at.err("`f32` holds a non-number"))?
                        .to_le_bytes(),
                );
            }
        }
        if let Some(a) = at.array("u16")? {
            kinds += 1;
            for x in a {
                let v = x
                    .as_u64()
                    .and_then(|x| u16::try_from(x).ok())
                    .ok_or_else(|| at.err("`u16` holds a value outside 0..65535"))?;
                bytes.extend(v.to_le_bytes());
            }
        }
        if let Some(a) = at.array("u32")? {
            kinds += 1;
            for x in a {
                bytes.extend(
                    as_u32(x)
                        .ok_or_else(|| at.err("`u32` holds a non-DWORD"))?
                        .to_le_bytes(),
                );
            }
        }
        if let Some(a) = at.array("bytes")? {
            kinds += 1;
            for x in a {
                bytes.push(
                    x.as_u64()
                        .and_then(|x| u8::try_from(x).ok())
                        .ok_or_else(|| at.err("`bytes` holds a non-byte"))?,
                );
            }
        }
        if kinds != 1 {
            return Err(at.err("give exactly one of `f32`, `u16`, `u32`, `bytes`"));
        }
        if let Some(t) = at.get("texture") {
            let tobj = t
                .as_object()
                .ok_or_else(|| at.err("`texture` is not an object"))?;
            let ta = At::new(format!("{} texture", at.place), tobj);
            let format = match ta.get("format") {
                Some(Value::String(name)) => TextureFormat::from_name(name),
                Some(v) => as_u32(v).and_then(TextureFormat::from_u32),
                None => None,
            }
            .ok_or_else(|| ta.err("`format` is missing or not a supported D3DFORMAT"))?;
            let (w, h) = (ta.u32("width")?, ta.u32("height")?);
            let levels = ta.opt_u32("levels")?.unwrap_or(1);
            ta.check(Ok(()))?;
            bytes = Texture::buffer(format, w, h, levels, &bytes);
            Texture::parse(&bytes).map_err(|e| ta.err(e.to_string()))?;
        }
        at.check(Ok(()))?;
        b.buffer(handle, bytes);
    }
    for (i, v) in list("commands")?.iter().enumerate() {
        let obj = v.as_object().ok_or_else(|| DescribeError {
            place: format!("commands[{i}]"),
            message: "not an object".into(),
        })?;
        let name = obj.get("op").and_then(Value::as_str).unwrap_or("");
        let at = At::new(format!("commands[{i}] ({name})"), obj);
        at.get("op");
        let op = Op::from_name(name).ok_or_else(|| at.err(format!("unknown op `{name}`")))?;
        let result = command(&mut b, op, &at);
        at.check(result)?;
    }
    Ok(b.finish())
}

fn command(b: &mut CaptureBuilder, op: Op, at: &At<'_>) -> Result<(), DescribeError> {
    match op {
        Op::RenderState => {
            let state = at
                .get("state")
                .and_then(|v| state_number(v, rs::from_name))
                .ok_or_else(|| {
                    at.err("`state` is missing or not a render state (number or D3DRS_ name)")
                })?;
            b.render_state(state, state_value(at, rs::info(state))?);
        }
        Op::TextureStageState => {
            let stage = at.u32("stage")?;
            let stage = u16::try_from(stage).map_err(|_| at.err("`stage` exceeds 65535"))?;
            let state = at
                .get("state")
                .and_then(|v| state_number(v, tss::from_name))
                .and_then(|n| u16::try_from(n).ok())
                .ok_or_else(|| at.err("`state` is missing or not a texture-stage state (number or D3DTSS_/D3DSAMP_ name)"))?;
            let value = state_value(at, tss::info(state as u32))?;
            b.texture_stage_state(stage, state, value);
        }
        Op::SetScissorRect => {
            let rect = at
                .get("rect")
                .and_then(Value::as_array)
                .filter(|a| a.len() == 4)
                .and_then(|a| {
                    a.iter()
                        .map(|v| v.as_i64().and_then(|v| i32::try_from(v).ok()))
                        .collect::<Option<Vec<i32>>>()
                })
                .ok_or_else(|| {
                    at.err("`rect` must be 4 whole numbers [left, top, right, bottom]")
                })?;
            b.scissor_rect([rect[0], rect[1], rect[2], rect[3]]);
        }
        Op::ViewportInfo => {
            b.viewport([
                at.u32("x")?,
                at.u32("y")?,
                at.u32("width")?,
                at.u32("height")?,
            ]);
        }
        Op::ZRange => {
            b.zrange(at.f32("min")?, at.f32("max")?);
        }
        Op::Clear => {
            let mut rects = Vec::new();
            for r in at.array("rects")?.into_iter().flatten() {
                let v: Option<Vec<i32>> = r.as_array().map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_i64().and_then(|x| i32::try_from(x).ok()))
                        .collect()
                });
                let rect: [i32; 4] = v
                    .and_then(|v| v.try_into().ok())
                    .ok_or_else(|| at.err("each of `rects` is [left, top, right, bottom]"))?;
                rects.push(rect);
            }
            let clear = Clear {
                flags: clear_flags(at)?,
                color: at.opt_u32("color")?.unwrap_or(0),
                depth: if at.get("depth").is_some() {
                    at.f32("depth")?
                } else {
                    1.0
                },
                stencil: at.opt_u32("stencil")?.unwrap_or(0),
                rects,
            };
            b.clear(&clear).map_err(|e| at.err(e.to_string()))?;
        }
        Op::SetStreamSource => {
            b.set_stream_source(at.u32("stream")?, at.u32("buffer")?, at.u32("stride")?);
        }
        Op::SetStreamSource2 => {
            b.set_stream_source2(
                at.u32("stream")?,
                at.u32("buffer")?,
                at.u32("offset")?,
                at.u32("stride")?,
            );
        }
        Op::SetStreamSourceUm => {
            let w = [at.u32("stream")?, at.u32("stride")?];
            b.command(
                op,
                1,
                &w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>(),
            );
        }
        Op::SetIndices => {
            b.set_indices(at.u32("buffer")?, at.u32("stride")?);
        }
        Op::CreateVertexShaderDecl => {
            let elements = at
                .array("elements")?
                .ok_or_else(|| at.err("missing `elements`"))?;
            let mut out = Vec::new();
            for (k, e) in elements.iter().enumerate() {
                let obj = e
                    .as_object()
                    .ok_or_else(|| at.err(format!("elements[{k}] is not an object")))?;
                let ea = At::new(format!("{} elements[{k}]", at.place), obj);
                let small = |key: &str| -> Result<u16, DescribeError> {
                    ea.opt_u32(key)?
                        .unwrap_or(0)
                        .try_into()
                        .map_err(|_| ea.err(format!("`{key}` exceeds 65535")))
                };
                out.push(VertexElement {
                    stream: small("stream")?,
                    offset: small("offset")?,
                    ty: named(ea.get("type"), 2, DeclType::from_name, |t| t as u8)
                        .ok_or_else(|| ea.err("bad `type`"))?,
                    method: named(ea.get("method"), 0, DeclMethod::from_name, |t| t as u8)
                        .ok_or_else(|| ea.err("bad `method`"))?,
                    usage: named(ea.get("usage"), 0, DeclUsage::from_name, |t| t as u8)
                        .ok_or_else(|| ea.err("bad `usage`"))?,
                    usage_index: named(ea.get("usage_index"), 0, |_| None::<u8>, |t| t)
                        .ok_or_else(|| ea.err("bad `usage_index`"))?,
                });
                ea.check(Ok(()))?;
            }
            b.create_vertex_decl(at.u32("handle")?, &out);
        }
        Op::CreateVertexShaderFunc | Op::CreatePixelShader => {
            let tokens = at
                .array("tokens")?
                .ok_or_else(|| at.err("missing `tokens` (DWORDs)"))?;
            let mut bytes = Vec::new();
            for t in tokens {
                bytes.extend(
                    as_u32(t)
                        .ok_or_else(|| at.err("`tokens` holds a non-DWORD"))?
                        .to_le_bytes(),
                );
            }
            b.create_shader(op, at.u32("handle")?, &bytes);
        }
        Op::SetVertexShaderDecl
        | Op::DeleteVertexShaderDecl
        | Op::SetVertexShaderFunc
        | Op::DeleteVertexShaderFunc
        | Op::SetPixelShader
        | Op::DeletePixelShader => {
            b.handle_op(op, at.u32("handle")?);
        }
        Op::SetVertexShaderConst
        | Op::SetPixelShaderConst
        | Op::SetVertexShaderConstI
        | Op::SetPixelShaderConstI
        | Op::SetVertexShaderConstB
        | Op::SetPixelShaderConstB => {
            let values = at
                .array("values")?
                .ok_or_else(|| at.err("missing `values`"))?;
            let boolean = matches!(op, Op::SetVertexShaderConstB | Op::SetPixelShaderConstB);
            let int = matches!(op, Op::SetVertexShaderConstI | Op::SetPixelShaderConstI);
            let mut w = vec![at.u32("register")?, values.len() as u32];
            for v in values {
                if boolean {
                    let x = v
                        .as_bool()
                        .map(u32::from)
                        .or_else(|| as_u32(v))
                        .ok_or_else(|| at.err("bool constants are true/false or DWORDs"))?;
                    w.push(x);
                } else {
                    let a = v
                        .as_array()
                        .filter(|a| a.len() == 4)
                        .ok_or_else(|| at.err("each register is 4 numbers"))?;
                    for x in a {
                        let bits = if int {
                            x.as_i64()
                                .and_then(|x| i32::try_from(x).ok())
                                .ok_or_else(|| at.err("int constants are 32-bit integers"))?
                                as u32
                        } else {
                            as_f32(x)
                                .ok_or_else(|| at.err("float constants are numbers"))?
                                .to_bits()
                        };
                        w.push(bits);
                    }
                }
            }
            b.command(
                op,
                1,
                &w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>(),
            );
        }
        Op::DrawPrimitive | Op::DrawPrimitive2 => {
            b.draw_primitive(
                op,
                at.u32("primitive_type")?,
                at.u32("start")?,
                at.u32("primitive_count")?,
            );
        }
        Op::DrawIndexedPrimitive | Op::DrawIndexedPrimitive2 => {
            b.draw_indexed_primitive(
                op,
                at.u32("primitive_type")?,
                at.get("base_vertex")
                    .map_or(Ok(0), |_| at.i32("base_vertex"))?,
                at.opt_u32("min_index")?.unwrap_or(0),
                at.u32("num_vertices")?,
                at.opt_u32("start_index")?.unwrap_or(0),
                at.u32("primitive_count")?,
            );
        }
        Op::DrawRectPatch => {
            let info = match at.get("info") {
                None | Some(Value::Null) => None,
                Some(v) => Some(
                    serde_json::from_value::<RectPatchInfo>(v.clone())
                        .map_err(|e| at.err(format!("`info`: {e}")))?,
                ),
            };
            b.draw_rect_patch(at.u32("handle")?, at.floats::<4>("segments")?, info);
        }
        Op::DrawTriPatch => {
            let info = match at.get("info") {
                None | Some(Value::Null) => None,
                Some(v) => Some(
                    serde_json::from_value::<TriPatchInfo>(v.clone())
                        .map_err(|e| at.err(format!("`info`: {e}")))?,
                ),
            };
            b.draw_tri_patch(at.u32("handle")?, at.floats::<3>("segments")?, info);
        }
        Op::SetMaterial => {
            let mut w = Vec::new();
            for key in ["diffuse", "ambient", "specular", "emissive"] {
                w.extend(at.floats::<4>(key)?.unwrap_or([0.0; 4]));
            }
            w.push(opt_f32(at, "power")?.unwrap_or(0.0));
            b.command(op, 1, &f32_bytes(&w));
        }
        Op::SetLight => {
            let index = at.u32("index")?;
            let mut bytes: Vec<u8> = Vec::new();
            bytes.extend(index.to_le_bytes());
            match (at.get("enable"), at.get("light")) {
                (Some(Value::Bool(on)), None) => bytes.extend(u32::from(!on).to_le_bytes()),
                (None, Some(Value::Object(l))) => {
                    let la = At::new(format!("{} light", at.place), l);
                    let ty = match la.get("type") {
                        Some(Value::String(t)) => {
                            match t.to_ascii_uppercase().trim_start_matches("D3DLIGHT_") {
                                "POINT" => 1,
                                "SPOT" => 2,
                                "DIRECTIONAL" => 3,
                                _ => return Err(la.err("`type` is POINT, SPOT or DIRECTIONAL")),
                            }
                        }
                        _ => la.u32("type")?,
                    };
                    bytes.extend(2u32.to_le_bytes());
                    bytes.extend(ty.to_le_bytes());
                    let mut w = Vec::new();
                    for key in ["diffuse", "specular", "ambient"] {
                        w.extend(la.floats::<4>(key)?.unwrap_or([0.0; 4]));
                    }
                    for key in ["position", "direction"] {
                        w.extend(la.floats::<3>(key)?.unwrap_or([0.0; 3]));
                    }
                    for key in [
                        "range",
                        "falloff",
                        "attenuation0",
                        "attenuation1",
                        "attenuation2",
                        "theta",
                        "phi",
                    ] {
                        w.push(opt_f32(&la, key)?.unwrap_or(0.0));
                    }
                    la.check(Ok(()))?;
                    bytes.extend(f32_bytes(&w));
                }
                _ => {
                    return Err(
                        at.err("give exactly one of `enable` (true/false) or `light` (an object)")
                    )
                }
            }
            b.command(op, 1, &bytes);
        }
        Op::CreateLight => {
            b.handle_op(op, at.u32("index")?);
        }
        Op::SetTransform | Op::MultiplyTransform => {
            let ty = match at.get("type") {
                Some(Value::String(name)) => transform_type(name),
                Some(v) => as_u32(v),
                None => None,
            }
            .ok_or_else(|| at.err("`type` is missing or not a transform (VIEW, PROJECTION, TEXTURE0-7, WORLD, WORLD1-3, WORLDMATRIX(n) or a number)"))?;
            let m = at
                .floats::<16>("matrix")?
                .ok_or_else(|| at.err("missing `matrix` (16 numbers, row by row)"))?;
            let mut bytes = ty.to_le_bytes().to_vec();
            bytes.extend(f32_bytes(&m));
            b.command(op, 1, &bytes);
        }
        Op::SetClipPlane => {
            let plane = at
                .floats::<4>("plane")?
                .ok_or_else(|| at.err("missing `plane` (4 numbers)"))?;
            let mut bytes = at.u32("index")?.to_le_bytes().to_vec();
            bytes.extend(f32_bytes(&plane));
            b.command(op, 1, &bytes);
        }
        Op::SetVertexShader => {
            let fvf = match at.get("fvf") {
                Some(Value::Array(names)) => names.iter().try_fold(0u32, |acc, n| {
                    n.as_str()
                        .and_then(fvf_bits)
                        .map(|bits| acc | bits)
                        .ok_or_else(|| at.err(format!("`fvf` name {n} is not a D3DFVF_ name")))
                })?,
                _ => at.u32("fvf")?,
            };
            b.handle_op(op, fvf);
        }
    }
    Ok(())
}

fn opt_f32(at: &At<'_>, key: &str) -> Result<Option<f32>, DescribeError> {
    match at.get(key) {
        None => Ok(None),
        Some(v) => as_f32(v)
            .map(Some)
            .ok_or_else(|| at.err(format!("`{key}` is not a number"))),
    }
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A `D3DTRANSFORMSTATETYPE` by name.
fn transform_type(name: &str) -> Option<u32> {
    let up = name.to_ascii_uppercase();
    let n = up
        .trim_start_matches("D3DTS_")
        .trim_start_matches("D3DTRANSFORMSTATE_");
    Some(match n {
        "VIEW" => 2,
        "PROJECTION" => 3,
        "WORLD" => 256,
        "WORLD1" => 257,
        "WORLD2" => 258,
        "WORLD3" => 259,
        _ => {
            if let Some(k) = n.strip_prefix("TEXTURE") {
                let k: u32 = k.parse().ok().filter(|k| *k < 8)?;
                16 + k
            } else {
                let k = n.strip_prefix("WORLDMATRIX(")?.strip_suffix(')')?;
                let k: u32 = k.parse().ok().filter(|k| *k < 256)?;
                256 + k
            }
        }
    })
}

/// The bits of one `D3DFVF_` name (`XYZ`, `TEX2`, `TEXCOORDSIZE3(1)`, ...).
fn fvf_bits(name: &str) -> Option<u32> {
    let up = name.to_ascii_uppercase();
    let n = up.trim_start_matches("D3DFVF_");
    Some(match n {
        "XYZ" => 0x002,
        "XYZRHW" => 0x004,
        "XYZB1" => 0x006,
        "XYZB2" => 0x008,
        "XYZB3" => 0x00A,
        "XYZB4" => 0x00C,
        "XYZB5" => 0x00E,
        "XYZW" => 0x4002,
        "NORMAL" => 0x010,
        "PSIZE" => 0x020,
        "DIFFUSE" => 0x040,
        "SPECULAR" => 0x080,
        "LASTBETA_UBYTE4" => 0x1000,
        "LASTBETA_D3DCOLOR" => 0x8000,
        _ => {
            if let Some(k) = n.strip_prefix("TEXCOORDSIZE") {
                // TEXCOORDSIZEn(set): the two bits of set `set` at 16 + 2 set.
                let (size, set) = k.strip_suffix(')')?.split_once('(')?;
                let set: u32 = set.parse().ok().filter(|s| *s < 8)?;
                let bits = match size {
                    "1" => 3,
                    "2" => 0,
                    "3" => 1,
                    "4" => 2,
                    _ => return None,
                };
                bits << (16 + 2 * set)
            } else {
                let k: u32 = n.strip_prefix("TEX")?.parse().ok().filter(|k| *k <= 8)?;
                k << 8
            }
        }
    })
}

/// The records of one command in the vocabulary [`build`] reads: one JSON object per record
/// (`{"op": "RENDERSTATE", "state": "PATCHSEGMENTS", "float": 4.0}`), so that a dump can be
/// edited and built again. States are named from the device's tables; float states carry
/// `float`, enumerations and booleans their names, the rest `value`.
pub fn describe_command(c: &Command) -> Vec<Value> {
    let op = c.op.name();
    let obj = |fields: Value| {
        let mut m = Map::new();
        m.insert("op".into(), Value::from(op));
        if let Value::Object(f) = fields {
            m.extend(f);
        }
        Value::Object(m)
    };
    let float = |f: f32| Value::from(f as f64);
    match &c.kind {
        CommandKind::RenderState(v) => v
            .iter()
            .map(|&(state, value)| {
                let mut o = obj(json!({}));
                state_fields(&mut o, state, value, rs::info(state));
                o
            })
            .collect(),
        CommandKind::TextureStageState(v) => v
            .iter()
            .map(|r| {
                let mut o = obj(json!({"stage": r.stage}));
                state_fields(&mut o, r.state.into(), r.value, tss::info(r.state.into()));
                o
            })
            .collect(),
        CommandKind::ViewportInfo(v) => v
            .iter()
            .map(|[x, y, w, h]| obj(json!({"x": x, "y": y, "width": w, "height": h})))
            .collect(),
        CommandKind::ScissorRect(v) => v.iter().map(|r| obj(json!({"rect": r}))).collect(),
        CommandKind::ZRange(v) => v
            .iter()
            .map(|[min, max]| obj(json!({"min": float(*min), "max": float(*max)})))
            .collect(),
        CommandKind::Clear(x) => vec![obj(json!({
            "flags": x.flags,
            "color": x.color,
            "depth": float(x.depth),
            "stencil": x.stencil,
            "rects": x.rects,
        }))],
        CommandKind::SetStreamSource(v) => v
            .iter()
            .map(|s| match c.op {
                Op::SetStreamSource2 => obj(json!({
                    "stream": s.stream, "buffer": s.buffer, "offset": s.offset, "stride": s.stride
                })),
                _ => obj(json!({"stream": s.stream, "buffer": s.buffer, "stride": s.stride})),
            })
            .collect(),
        CommandKind::SetStreamSourceUm(v) => v
            .iter()
            .map(|(s, stride)| obj(json!({"stream": s, "stride": stride})))
            .collect(),
        CommandKind::SetIndices(v) => v
            .iter()
            .map(|(h, stride)| obj(json!({"buffer": h, "stride": stride})))
            .collect(),
        CommandKind::DrawPrimitive(v) => v
            .iter()
            .map(|d| {
                obj(json!({
                    "primitive_type": d.primitive_type,
                    "start": d.start,
                    "primitive_count": d.primitive_count,
                }))
            })
            .collect(),
        CommandKind::DrawIndexedPrimitive(v) => v
            .iter()
            .map(|d| {
                obj(json!({
                    "primitive_type": d.primitive_type,
                    "base_vertex": d.base_vertex,
                    "min_index": d.min_index,
                    "num_vertices": d.num_vertices,
                    "start_index": d.start_index,
                    "primitive_count": d.primitive_count,
                }))
            })
            .collect(),
        CommandKind::DrawRectPatch(v) => v
            .iter()
            .map(|p| {
                patch_json(
                    obj(json!({"handle": p.handle})),
                    p.segments.as_ref().map(|s| &s[..]),
                    p.info.as_ref(),
                )
            })
            .collect(),
        CommandKind::DrawTriPatch(v) => v
            .iter()
            .map(|p| {
                patch_json(
                    obj(json!({"handle": p.handle})),
                    p.segments.as_ref().map(|s| &s[..]),
                    p.info.as_ref(),
                )
            })
            .collect(),
        CommandKind::CreateVertexShaderDecl(v) => v
            .iter()
            .map(|(h, elements)| {
                let elements: Vec<Value> = elements.iter().map(element_json).collect();
                obj(json!({"handle": h, "elements": elements}))
            })
            .collect(),
        CommandKind::CreateShader(v) => v
            .iter()
            .map(|s| {
                let tokens: Vec<u32> = dxso::encode(&s.shader)
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect();
                obj(json!({"handle": s.handle, "tokens": tokens}))
            })
            .collect(),
        CommandKind::Handles(v) => v
            .iter()
            .map(|h| match c.op {
                Op::CreateLight => obj(json!({"index": h})),
                Op::SetVertexShader => obj(json!({"fvf": h})),
                _ => obj(json!({"handle": h})),
            })
            .collect(),
        CommandKind::FloatConstants(v) => v
            .iter()
            .map(|k| {
                let values: Vec<Vec<Value>> = k
                    .values
                    .iter()
                    .map(|r| r.iter().map(|x| float(*x)).collect())
                    .collect();
                obj(json!({"register": k.register, "values": values}))
            })
            .collect(),
        CommandKind::IntConstants(v) => v
            .iter()
            .map(|k| obj(json!({"register": k.register, "values": k.values})))
            .collect(),
        CommandKind::BoolConstants(v) => v
            .iter()
            .map(|k| obj(json!({"register": k.register, "values": k.values})))
            .collect(),
        CommandKind::SetMaterial(v) => v
            .iter()
            .map(|m| {
                obj(json!({
                    "diffuse": m.diffuse.map(float),
                    "ambient": m.ambient.map(float),
                    "specular": m.specular.map(float),
                    "emissive": m.emissive.map(float),
                    "power": float(m.power),
                }))
            })
            .collect(),
        CommandKind::SetLight(v) => v
            .iter()
            .map(|l| match l.data {
                LightData::Enable => obj(json!({"index": l.index, "enable": true})),
                LightData::Disable => obj(json!({"index": l.index, "enable": false})),
                LightData::Data(d) => obj(json!({"index": l.index, "light": {
                    "type": d.ty,
                    "diffuse": d.diffuse.map(float),
                    "specular": d.specular.map(float),
                    "ambient": d.ambient.map(float),
                    "position": d.position.map(float),
                    "direction": d.direction.map(float),
                    "range": float(d.range),
                    "falloff": float(d.falloff),
                    "attenuation0": float(d.attenuation0),
                    "attenuation1": float(d.attenuation1),
                    "attenuation2": float(d.attenuation2),
                    "theta": float(d.theta),
                    "phi": float(d.phi),
                }})),
            })
            .collect(),
        CommandKind::Transforms(v) => v
            .iter()
            .map(|(ty, m)| obj(json!({"type": ty, "matrix": m.map(float)})))
            .collect(),
        CommandKind::ClipPlanes(v) => v
            .iter()
            .map(|(i, p)| obj(json!({"index": i, "plane": p.map(float)})))
            .collect(),
    }
}

/// `state` and its value in the words [`build`] reads: the state's name when the table knows it,
/// `float` for float states, `true`/`false` for booleans, an enumeration's name, else `value`.
fn state_fields(o: &mut Value, state: u32, value: u32, info: Option<&StateInfo>) {
    o["state"] = info.map_or(Value::from(state), |i| Value::from(i.name));
    match info.map(|i| i.kind) {
        Some(ValueKind::Float) => o["float"] = Value::from(f32::from_bits(value) as f64),
        Some(ValueKind::Bool) if value <= 1 => o["value"] = Value::from(value == 1),
        Some(ValueKind::Enum(_, name_of)) => {
            o["value"] = name_of(value).map_or(Value::from(value), Value::from)
        }
        _ => o["value"] = Value::from(value),
    }
}

/// A patch draw record: `segments` when HASSEGS, `info` when HASINFO.
fn patch_json(
    mut o: Value,
    segments: Option<&[f32]>,
    info: Option<&impl serde::Serialize>,
) -> Value {
    if let Some(s) = segments {
        o["segments"] = s.iter().map(|x| Value::from(*x as f64)).collect();
    }
    if let Some(info) = info {
        o["info"] = serde_json::to_value(info).unwrap_or(Value::Null);
    }
    o
}

/// A vertex element with its type, method and usage named as [`build`] reads them.
fn element_json(e: &VertexElement) -> Value {
    let name = |n: Option<&'static str>, raw: u8| n.map_or(Value::from(raw), Value::from);
    json!({
        "stream": e.stream,
        "offset": e.offset,
        "type": name(e.decl_type().map(|t| t.name()), e.ty),
        "method": name(e.method().map(|m| m.name()), e.method),
        "usage": e
            .decl_usage()
            .map_or(Value::from(e.usage), |u| Value::from(u.name().to_ascii_uppercase())),
        "usage_index": e.usage_index,
    })
}

/// The description of a whole capture: `{"buffers": [{"handle", "bytes"}], "commands": [...]}`.
/// [`build`] makes an equivalent capture from it (a command with several records comes back as
/// one command per record).
pub fn describe(capture: &Capture) -> Result<Value, ParseError> {
    let buffers: Vec<Value> = capture
        .buffers
        .iter()
        .map(|b| json!({"handle": b.handle, "bytes": b.bytes}))
        .collect();
    let mut commands = Vec::new();
    let mut reader = Commands::new(&capture.commands);
    while let Some(c) = reader.next_command()? {
        commands.extend(describe_command(&c));
    }
    Ok(json!({"buffers": buffers, "commands": commands}))
}
