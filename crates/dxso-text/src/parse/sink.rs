//! Where the single-pass assembler ([`super::fast`]) puts what it reads: one parser, two
//! outputs. [`Items`] builds the [`Shader`] that [`crate::parse()`] returns; [`Bytes`] writes
//! the DWORDs [`dxso::encode()`] would write for that shader straight into the output, so that
//! [`crate::assemble()`] neither builds an [`Instruction`] per line nor walks them again. The
//! parser is instantiated once per output (no dynamic calls), and every call comes in stream
//! order: `begin`, then `dcl`, the destination, `def` values, the sources, then `end` (or
//! `cancel`, after which the line parser's [`Instruction`] comes whole through `instruction`).

use crate::ctab::HeaderTable;
use dxso::encode::InstructionToken;
use dxso::opcode::END_TOKEN;
use dxso::{
    Comment, DclToken, DstParam, Extra, Instruction, Item, Opcode, Relative, Shader, SrcParam,
    Version,
};

/// The receiver of the single-pass assembler's instructions.
pub(super) trait Sink {
    /// The version statement was read; `capacity` is how many instructions may follow (a
    /// hint) and `table` the constant table rebuilt from the header, which goes first.
    fn start(&mut self, version: Version, table: Option<HeaderTable<'_>>, capacity: usize);
    /// An instruction starts.
    fn begin(&mut self, opcode: Opcode, control: u8, coissue: bool);
    /// The usage token of the `dcl` begun.
    fn dcl(&mut self, dcl: DclToken);
    /// The destination.
    fn dst(&mut self, dst: DstParam);
    /// The immediate values of `def`, `defi` or `defb` (never [`Extra::Dcl`] or
    /// [`Extra::None`]).
    fn def(&mut self, values: Extra);
    /// The next source.
    fn src(&mut self, src: SrcParam);
    /// What the single-pass reader's tables keep of a destination without a relative
    /// address: what [`Sink::known_dst`] needs (the token alone for bytes, so that the
    /// tables' slots are small and more of them stay in the processor's nearest cache).
    type KnownDst: Copy + Default;
    /// What the tables keep of a source without a relative address.
    type KnownSrc: Copy + Default;
    /// What the tables keep of `dst` (of token `token`).
    fn keep_dst(dst: DstParam, token: u32) -> Self::KnownDst;
    /// What the tables keep of `src` (of token `token`).
    fn keep_src(src: SrcParam, token: u32) -> Self::KnownSrc;
    /// The destination, from the tables.
    fn known_dst(&mut self, dst: Self::KnownDst);
    /// The next source, from the tables.
    fn known_src(&mut self, src: Self::KnownSrc);
    /// The instruction begun is whole.
    fn end(&mut self);
    /// The instruction begun, if one is, is dropped (with what came of it).
    fn cancel(&mut self);
    /// A whole instruction from elsewhere (the line parser).
    fn instruction(&mut self, inst: Instruction);
}

/// Builds a [`Shader`] (of the version [`Sink::start`] gives).
pub(super) struct Items {
    pub(super) shader: Shader,
    /// An instruction is begun and not ended: its item is the last.
    open: bool,
}

impl Items {
    pub(super) fn new() -> Self {
        Items {
            shader: Shader::new(Version::vs(1, 1)),
            open: false,
        }
    }

    /// The instruction begun.
    #[inline(always)]
    fn current(&mut self) -> Option<&mut Instruction> {
        match self.shader.items.last_mut() {
            Some(Item::Instruction(inst)) => Some(inst),
            _ => None,
        }
    }
}

/// What each new item slot starts as.
const BLANK: Item = Item::Instruction(Instruction::new(Opcode::Nop));

impl Sink for Items {
    fn start(&mut self, version: Version, table: Option<HeaderTable<'_>>, capacity: usize) {
        let shader = &mut self.shader;
        shader.version = version;
        shader.items.reserve(capacity + 1);
        if let Some(table) = table {
            shader.items.push(Item::Comment(Comment {
                data: table.into_table(version).to_words(),
            }));
        }
    }

    #[inline(always)]
    fn begin(&mut self, opcode: Opcode, control: u8, coissue: bool) {
        // The instruction is built in its slot of the item vector (built elsewhere and moved
        // in, its narrow field stores are read back as wide moves: a store-forwarding stall).
        self.shader.items.push(BLANK);
        self.open = true;
        if let Some(inst) = self.current() {
            inst.opcode = opcode;
            inst.control = control;
            inst.coissue = coissue;
        }
    }

    #[inline(always)]
    fn dcl(&mut self, dcl: DclToken) {
        if let Some(inst) = self.current() {
            inst.extra = Extra::Dcl(dcl);
        }
    }

    #[inline(always)]
    fn dst(&mut self, dst: DstParam) {
        if let Some(inst) = self.current() {
            inst.dst = Some(dst);
        }
    }

    #[inline(always)]
    fn def(&mut self, values: Extra) {
        if let Some(inst) = self.current() {
            inst.extra = values;
        }
    }

    #[inline(always)]
    fn src(&mut self, src: SrcParam) {
        if let Some(inst) = self.current() {
            // The parser gives at most `Sources::CAPACITY` sources.
            let _ = inst.srcs.push(src);
        }
    }

    type KnownDst = DstParam;
    type KnownSrc = SrcParam;

    #[inline(always)]
    fn keep_dst(dst: DstParam, _: u32) -> DstParam {
        dst
    }

    #[inline(always)]
    fn keep_src(src: SrcParam, _: u32) -> SrcParam {
        src
    }

    #[inline(always)]
    fn known_dst(&mut self, dst: DstParam) {
        self.dst(dst);
    }

    #[inline(always)]
    fn known_src(&mut self, src: SrcParam) {
        self.src(src);
    }

    #[inline(always)]
    fn end(&mut self) {
        self.open = false;
    }

    #[inline(always)]
    fn cancel(&mut self) {
        if self.open {
            self.shader.items.pop();
            self.open = false;
        }
    }

    fn instruction(&mut self, inst: Instruction) {
        self.shader.items.push(Item::Instruction(inst));
    }
}

/// Writes the encoded shader: DWORDs, the version token first and the end token last, as
/// little-endian bytes, straight into the vector [`Bytes::finish`] gives (DWORDs gathered and
/// copied to bytes at the end cost a second buffer and a copy of the whole output).
pub(super) struct Bytes {
    out: Vec<u8>,
    version: Version,
    /// Shader model 2 or later: the instruction token counts the DWORDs after it.
    counts_length: bool,
    /// The instruction begun: where its token is (`None`: none is open), and the token
    /// without its length.
    at: Option<usize>,
    token: u32,
}

impl Bytes {
    pub(super) fn new() -> Self {
        Bytes {
            out: Vec::new(),
            version: Version::vs(1, 1),
            counts_length: false,
            at: None,
            token: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, token: u32) {
        self.out.extend_from_slice(&token.to_le_bytes());
    }

    /// The bytes, with the end token.
    pub(super) fn finish(mut self) -> Vec<u8> {
        self.push(END_TOKEN);
        self.out
    }
}

impl Sink for Bytes {
    fn start(&mut self, version: Version, table: Option<HeaderTable<'_>>, capacity: usize) {
        self.version = version;
        self.counts_length = !version.is_sm1();
        // Instructions take three to five DWORDs mostly. The output is empty here: allocated
        // at once (a reservation of an empty vector goes through its growth path).
        let room = 4 * (8 + 5 * capacity);
        if self.out.is_empty() {
            self.out = Vec::with_capacity(room);
        } else {
            self.out.reserve(room);
        }
        self.push(version.to_token());
        if let Some(table) = table {
            table.append_comment(version, &mut self.out);
        }
    }

    #[inline(always)]
    fn begin(&mut self, opcode: Opcode, control: u8, coissue: bool) {
        self.at = Some(self.out.len());
        self.token = InstructionToken {
            opcode,
            control,
            length: 0,
            predicated: false,
            reserved: false,
            coissue,
        }
        .to_token();
        self.push(self.token);
    }

    #[inline(always)]
    fn dcl(&mut self, dcl: DclToken) {
        self.push(dcl.to_token());
    }

    #[inline(always)]
    fn dst(&mut self, dst: DstParam) {
        self.push(dst.to_token());
        if let Some(Relative::Token(t)) = dst.relative {
            self.push(t.to_token());
        }
    }

    #[inline(always)]
    fn def(&mut self, values: Extra) {
        values.for_each_immediate(|x| self.push(x));
    }

    #[inline(always)]
    fn src(&mut self, src: SrcParam) {
        self.push(src.to_token());
        if let Some(Relative::Token(t)) = src.relative {
            self.push(t.to_token());
        }
    }

    type KnownDst = u32;
    type KnownSrc = u32;

    #[inline(always)]
    fn keep_dst(_: DstParam, token: u32) -> u32 {
        token
    }

    #[inline(always)]
    fn keep_src(_: SrcParam, token: u32) -> u32 {
        token
    }

    #[inline(always)]
    fn known_dst(&mut self, token: u32) {
        self.push(token);
    }

    #[inline(always)]
    fn known_src(&mut self, token: u32) {
        self.push(token);
    }

    #[inline(always)]
    fn end(&mut self) {
        let Some(at) = self.at.take() else {
            return;
        };
        if self.counts_length {
            let length = ((self.out.len() - at) / 4 - 1) as u32;
            if let Some(slot) = self.out.get_mut(at..at + 4) {
                slot.copy_from_slice(
                    &InstructionToken::with_length(self.token, length).to_le_bytes(),
                );
            }
        }
    }

    #[inline(always)]
    fn cancel(&mut self) {
        if let Some(at) = self.at.take() {
            self.out.truncate(at);
        }
    }

    fn instruction(&mut self, inst: Instruction) {
        let version = self.version;
        inst.for_each_token(version, |_, t| self.push(t));
    }
}
