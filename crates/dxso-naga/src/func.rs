//! Building one naga function: the expression arena with its `Emit` ranges, the block stack,
//! and a literal cache.
//!
//! naga's rules: literals, constants, arguments, globals and locals are pre-emitted (they must
//! never fall inside an `Emit` range), every other expression must be covered by exactly one
//! `Emit` statement placed before its first use. [`Func::expr`] opens a range, and every
//! statement or block change closes it first, so the rule holds by construction.

use naga::FastHashMap as HashMap;
use naga::{Block, Expression, Function, Handle, Literal, Span, Statement};

/// A function under construction.
pub(crate) struct Func {
    pub(crate) f: Function,
    /// The arena length when the open `Emit` range started.
    emit_from: Option<usize>,
    /// The current block last; the function body is at the bottom.
    blocks: Vec<Block>,
    literals: HashMap<LiteralKey, Handle<Expression>>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum LiteralKey {
    F32(u32),
    I32(i32),
    U32(u32),
    Bool(bool),
}

impl Func {
    pub(crate) fn new(name: &str) -> Self {
        Func {
            f: Function {
                name: Some(name.to_string()),
                ..Function::default()
            },
            emit_from: None,
            blocks: vec![Block::new()],
            literals: HashMap::default(),
        }
    }

    /// Appends an expression that needs emitting.
    pub(crate) fn expr(&mut self, e: Expression) -> Handle<Expression> {
        debug_assert!(!e.needs_pre_emit());
        if self.emit_from.is_none() {
            self.emit_from = Some(self.f.expressions.len());
        }
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    /// Appends a pre-emitted expression (argument, global, local, constant).
    pub(crate) fn pre(&mut self, e: Expression) -> Handle<Expression> {
        debug_assert!(e.needs_pre_emit());
        self.flush();
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    fn literal(&mut self, key: LiteralKey, lit: Literal) -> Handle<Expression> {
        if let Some(&h) = self.literals.get(&key) {
            return h;
        }
        let h = self.pre(Expression::Literal(lit));
        self.literals.insert(key, h);
        h
    }

    pub(crate) fn f32(&mut self, v: f32) -> Handle<Expression> {
        self.literal(LiteralKey::F32(v.to_bits()), Literal::F32(v))
    }

    pub(crate) fn i32(&mut self, v: i32) -> Handle<Expression> {
        self.literal(LiteralKey::I32(v), Literal::I32(v))
    }

    pub(crate) fn u32(&mut self, v: u32) -> Handle<Expression> {
        self.literal(LiteralKey::U32(v), Literal::U32(v))
    }

    pub(crate) fn bool(&mut self, v: bool) -> Handle<Expression> {
        self.literal(LiteralKey::Bool(v), Literal::Bool(v))
    }

    /// Closes the open `Emit` range into the current block.
    pub(crate) fn flush(&mut self) {
        if let Some(from) = self.emit_from.take() {
            if from < self.f.expressions.len() {
                let range = self.f.expressions.range_from(from);
                self.current().push(Statement::Emit(range), Span::UNDEFINED);
            }
        }
    }

    fn current(&mut self) -> &mut Block {
        self.blocks
            .last_mut()
            .expect("the body block is never popped")
    }

    /// Appends a statement to the current block.
    pub(crate) fn stmt(&mut self, s: Statement) {
        self.flush();
        self.current().push(s, Span::UNDEFINED);
    }

    /// Starts a nested block (the accept or reject arm of an `If`, a loop body).
    pub(crate) fn open(&mut self) {
        self.flush();
        self.blocks.push(Block::new());
    }

    /// Ends the innermost nested block and hands it back.
    pub(crate) fn close(&mut self) -> Block {
        self.flush();
        debug_assert!(self.blocks.len() > 1);
        self.blocks.pop().unwrap_or_default()
    }

    /// How many blocks are open above the body (0 in the body itself).
    pub(crate) fn depth(&self) -> usize {
        self.blocks.len() - 1
    }

    /// Finishes the function: closes the body and returns it.
    pub(crate) fn finish(mut self) -> Function {
        self.flush();
        debug_assert_eq!(self.blocks.len(), 1);
        self.f.body = self.blocks.pop().unwrap_or_default();
        self.f
    }
}
