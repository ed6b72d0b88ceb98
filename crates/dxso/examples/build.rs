//! Build a shader in code with the typed model, encode it, and decode it back.
//!
//! ```sh
//! cargo run -p dxso --example build
//! ```

use dxso::{
    DstParam, Instruction, Item, Opcode, Register, RegisterType, Shader, Sources, SrcParam,
    Swizzle, Version, WriteMask,
};

fn main() -> Result<(), dxso::DecodeError> {
    // ps_2_0: mov oC0, c0
    let mut mov = Instruction::new(Opcode::Mov);
    mov.dst = Some(DstParam::new(
        Register::new(RegisterType::ColorOut, 0),
        WriteMask::ALL,
    ));
    mov.srcs = Sources::from_slice(&[SrcParam::new(
        Register::new(RegisterType::Const, 0),
        Swizzle::IDENTITY,
    )])
    .expect("one source fits");
    let shader = Shader {
        version: Version::ps(2, 0),
        items: vec![Item::Instruction(mov)],
    };
    let bytes = dxso::encode(&shader);
    println!("{} bytes: {:02x?}", bytes.len(), bytes);
    assert_eq!(dxso::decode(&bytes)?, shader);
    Ok(())
}
