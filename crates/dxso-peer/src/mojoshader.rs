//! A small FFI module over MojoShader's C API (`mojoshader.h`, Debian's hg1314 build).
//!
//! Only the leading fields of the result structs are declared: they are read through the pointer
//! MojoShader returns and never constructed or moved on the Rust side.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

#[repr(C)]
struct MojoError {
    error: *const c_char,
    filename: *const c_char,
    error_position: c_int,
}

/// The leading fields of `MOJOSHADER_parseData`, in header order.
#[repr(C)]
struct ParseDataPrefix {
    error_count: c_int,
    errors: *const MojoError,
    profile: *const c_char,
    output: *const c_char,
    output_len: c_int,
    instruction_count: c_int,
}

type MallocFn = Option<unsafe extern "C" fn(c_int, *mut c_void) -> *mut c_void>;
type FreeFn = Option<unsafe extern "C" fn(*mut c_void, *mut c_void)>;

extern "C" {
    fn MOJOSHADER_parse(
        profile: *const c_char,
        mainfn: *const c_char,
        tokenbuf: *const u8,
        bufsize: c_uint,
        swiz: *const c_void,
        swizcount: c_uint,
        smap: *const c_void,
        smapcount: c_uint,
        m: MallocFn,
        f: FreeFn,
        d: *mut c_void,
    ) -> *const ParseDataPrefix;
    fn MOJOSHADER_freeParseData(data: *const ParseDataPrefix);
    fn MOJOSHADER_assemble(
        filename: *const c_char,
        source: *const c_char,
        sourcelen: c_uint,
        comments: *const *const c_char,
        comment_count: c_uint,
        symbols: *const c_void,
        symbol_count: c_uint,
        defines: *const c_void,
        define_count: c_uint,
        include_open: *const c_void,
        include_close: *const c_void,
        m: MallocFn,
        f: FreeFn,
        d: *mut c_void,
    ) -> *const ParseDataPrefix;
}

/// What a MojoShader call produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The profile's output (for `d3d`, the disassembly text; for the assembler, bytecode).
    pub output: Vec<u8>,
    /// MojoShader's instruction-slot estimate.
    pub instruction_count: i32,
    /// The first error message, if any.
    pub error: Option<String>,
}

/// Reads the result and frees it.
///
/// # Safety
/// `data` must be a pointer MojoShader returned and not yet freed.
unsafe fn take(data: *const ParseDataPrefix) -> Output {
    // SAFETY: the caller passes a live pointer from MOJOSHADER_parse/assemble; MojoShader never
    // returns NULL (it returns a static out-of-memory object instead), and the prefix struct
    // matches the header's field order.
    let d = unsafe { &*data };
    let error = if d.error_count > 0 && !d.errors.is_null() {
        // SAFETY: errors points to error_count elements whose `error` is a C string.
        let e = unsafe { &*d.errors };
        Some(if e.error.is_null() {
            String::from("(no message)")
        } else {
            // SAFETY: a NUL-terminated string owned by `data`, copied before the free below.
            unsafe { CStr::from_ptr(e.error) }
                .to_string_lossy()
                .into_owned()
        })
    } else {
        None
    };
    let output = if d.output.is_null() || d.output_len <= 0 {
        Vec::new()
    } else {
        // SAFETY: output points to output_len bytes owned by `data`, copied before the free.
        unsafe { std::slice::from_raw_parts(d.output as *const u8, d.output_len as usize) }.to_vec()
    };
    let instruction_count = d.instruction_count;
    // SAFETY: freed exactly once, after every read above.
    unsafe { MOJOSHADER_freeParseData(data) };
    Output {
        output,
        instruction_count,
        error,
    }
}

/// Parses bytecode with `profile` (`"d3d"` prints MojoShader's disassembly, `"bytecode"` copies).
pub fn parse(profile: &str, bytecode: &[u8]) -> Output {
    let profile = std::ffi::CString::new(profile).unwrap_or_default();
    // SAFETY: every pointer is valid for the duration of the call (the profile string and the
    // bytecode slice outlive it); NULL allocators select MojoShader's defaults.
    unsafe {
        let data = MOJOSHADER_parse(
            profile.as_ptr(),
            std::ptr::null(),
            bytecode.as_ptr(),
            bytecode.len() as c_uint,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            None,
            None,
            std::ptr::null_mut(),
        );
        take(data)
    }
}

/// Translates bytecode to GLSL with MojoShader's `glsl` profile (`output` is the GLSL text;
/// `error` is set when MojoShader cannot translate the shader).
pub fn glsl(bytecode: &[u8]) -> Output {
    parse("glsl", bytecode)
}

/// Assembles Direct3D assembly source into bytecode.
pub fn assemble(source: &str) -> Output {
    // SAFETY: `source` outlives the call and its length is passed; NULL selects defaults for
    // every optional argument.
    unsafe {
        let data = MOJOSHADER_assemble(
            std::ptr::null(),
            source.as_ptr() as *const c_char,
            source.len() as c_uint,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            std::ptr::null(),
            0,
            std::ptr::null(),
            std::ptr::null(),
            None,
            None,
            std::ptr::null_mut(),
        );
        take(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_assembles_a_tiny_shader() {
        // vs_1_1: mov oPos, v0
        let words = [
            0xFFFE_0101u32,
            0x0000_0001,
            0xC00F_0000,
            0x90E4_0000,
            0x0000_FFFF,
        ];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let out = parse("d3d", &bytes);
        assert_eq!(out.error, None);
        let text = String::from_utf8_lossy(&out.output);
        assert!(text.contains("mov"), "{text}");
        let glsl = glsl(&bytes);
        assert_eq!(glsl.error, None);
        let text = String::from_utf8_lossy(&glsl.output);
        assert!(text.contains("gl_Position"), "{text}");
        let asm = assemble("vs_1_1\nmov oPos, v0\n");
        assert_eq!(asm.error, None);
        assert!(asm.output.len() >= 16);
    }
}
