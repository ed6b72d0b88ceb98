//! The effect syntax: techniques and passes, state blocks, annotations and shader variables.
//! The shader language is parsed by the parent module; this reads what fx_2_0 adds to it.

use super::{Parser, R};
use crate::ast::*;
use crate::diag::{Code, Diagnostic};
use crate::lexer::Tok;
use crate::preprocess::parse_int;

impl Parser<'_> {
    /// `true` when the next token is the word `w` in any case (fxc reads the effect keywords
    /// `technique`, `pass`, `compile`, `VertexShader` and `PixelShader` without regard to case).
    pub(super) fn is_word_ci(&self, w: &str) -> bool {
        let t = self.peek();
        t.kind == Tok::Ident && t.text.eq_ignore_ascii_case(w)
    }

    /// An optional name: the identifier at the cursor, if there is one.
    fn optional_name(&mut self) -> Option<String> {
        (self.kind() == Tok::Ident).then(|| self.next().text)
    }

    /// `technique [name] [<annotations>] { pass ... }`.
    pub(super) fn technique(&mut self) -> R<TechniqueDecl> {
        let loc = self.loc();
        self.i += 1;
        let name = self.optional_name();
        let annotations = self.optional_annotations()?;
        self.expect(Tok::LBrace)?;
        let mut passes = Vec::new();
        while !self.eat(Tok::RBrace) {
            if !self.is_word_ci("pass") {
                return Err(self.err_here(format!(
                    "syntax error: expected 'pass' or '}}', found '{}'",
                    self.peek().text
                )));
            }
            self.i += 1;
            let name = self.optional_name();
            let annotations = self.optional_annotations()?;
            let states = self.state_block()?;
            passes.push(PassDecl {
                name,
                annotations,
                states,
            });
        }
        Ok(TechniqueDecl {
            name,
            annotations,
            passes,
            loc,
        })
    }

    fn optional_annotations(&mut self) -> R<Vec<AnnotationDecl>> {
        if self.kind() == Tok::Lt {
            self.annotations()
        } else {
            Ok(Vec::new())
        }
    }

    /// `< type name = value; ... >`.
    pub(super) fn annotations(&mut self) -> R<Vec<AnnotationDecl>> {
        self.expect(Tok::Lt)?;
        let mut out = Vec::new();
        while !self.eat(Tok::Gt) {
            let ty = self.type_spec()?;
            let name = self.ident()?;
            let loc = self.loc_of(&name);
            let mut ty = ty;
            ty.array.extend(self.array_dims()?);
            self.expect(Tok::Assign)?;
            let value = if self.kind() == Tok::Str {
                let t = self.next();
                AnnotationValue::Str(unquote(&t.text))
            } else {
                self.enter()?;
                let init = self.initializer();
                self.leave();
                AnnotationValue::Init(init?)
            };
            self.expect(Tok::Semi)?;
            out.push(AnnotationDecl {
                ty,
                name: name.text,
                value,
                loc,
            });
        }
        Ok(out)
    }

    /// `{ NAME[index] = value; ... }`, the body of a pass or a `sampler_state` block.
    pub(super) fn state_block(&mut self) -> R<Vec<StateAssign>> {
        self.expect(Tok::LBrace)?;
        let mut out = Vec::new();
        while !self.eat(Tok::RBrace) {
            let name = self.ident()?;
            let loc = self.loc_of(&name);
            let index = if self.eat(Tok::LBracket) {
                let n = self.expect(Tok::Int)?;
                let v = parse_int(&n.text)
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or_else(|| {
                        Diagnostic::error(
                            Code::Syntax,
                            self.loc_of(&n),
                            "a state index must be a non-negative integer",
                        )
                    })?;
                self.expect(Tok::RBracket)?;
                Some(v)
            } else {
                None
            };
            self.expect(Tok::Assign)?;
            let value = self.state_rhs()?;
            self.expect(Tok::Semi)?;
            out.push(StateAssign {
                name: name.text,
                index,
                value,
                loc,
            });
        }
        Ok(out)
    }

    fn state_rhs(&mut self) -> R<StateRhs> {
        if self.is_word_ci("compile") {
            return Ok(StateRhs::Compile(self.compile_expr()?));
        }
        if self.is_word_ci("asm") {
            return Ok(StateRhs::Asm(self.asm_block()?));
        }
        if self.kind() == Tok::LBrace {
            let loc = self.loc();
            self.enter()?;
            let init = self.initializer();
            self.leave();
            let mut items = Vec::new();
            flatten_list(init?, &mut items);
            return Ok(StateRhs::List(items, loc));
        }
        if self.eat(Tok::Lt) {
            let name = self.ident()?;
            let loc = self.loc_of(&name);
            self.expect(Tok::Gt)?;
            return Ok(StateRhs::Expr(Expr {
                kind: ExprKind::Ident(name.text),
                loc,
            }));
        }
        // `(Name)` names a parameter even when the name is also a type (`Texture`), which the
        // expression parser would read as the start of a cast.
        if self.kind() == Tok::LParen
            && self.peek_at(1).kind == Tok::Ident
            && self.peek_at(2).kind == Tok::RParen
        {
            self.i += 1;
            let name = self.next();
            self.i += 1;
            return Ok(StateRhs::Expr(Expr {
                kind: ExprKind::Ident(name.text.clone()),
                loc: self.loc_of(&name),
            }));
        }
        self.enter()?;
        let e = self.assignment();
        self.leave();
        Ok(StateRhs::Expr(e?))
    }

    /// `compile profile entry(args)`.
    fn compile_expr(&mut self) -> R<CompileExpr> {
        let loc = self.loc();
        self.i += 1;
        let profile = self.ident()?.text;
        let entry = self.ident()?.text;
        self.expect(Tok::LParen)?;
        self.enter()?;
        let args = self.args();
        self.leave();
        Ok(CompileExpr {
            profile,
            entry,
            args: args?,
            loc,
        })
    }

    /// `asm { ... }`: the tokens between the braces as assembly text, one source line per
    /// line, tokens that touched in the source still touching (`r0.xyz`).
    fn asm_block(&mut self) -> R<AsmBlock> {
        let loc = self.loc();
        self.i += 1;
        let open = self.expect(Tok::LBrace)?;
        let mut text = String::new();
        let mut first_line = None;
        let mut line = open.line;
        let mut depth = 1u32;
        loop {
            let t = self.peek().clone();
            match t.kind {
                Tok::Eof => {
                    return Err(Diagnostic::error(
                        Code::Syntax,
                        loc,
                        "syntax error: the assembly block has no closing '}'",
                    ))
                }
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        break;
                    }
                }
                _ => {}
            }
            self.i += 1;
            if t.kind == Tok::Newline {
                continue;
            }
            let first = *first_line.get_or_insert(t.line);
            if t.line != line && !text.is_empty() {
                // Blank lines keep their place so findings name the source line.
                for _ in line.max(first)..t.line {
                    text.push('\n');
                }
            } else if t.spaced && !text.is_empty() {
                text.push(' ');
            }
            line = t.line;
            text.push_str(&t.text);
        }
        text.push('\n');
        Ok(AsmBlock {
            text,
            first_line: first_line.unwrap_or(open.line),
            loc,
        })
    }

    /// `[shared] VertexShader name[n] = compile ... | asm { ... } | { ..., ... } | NULL;`.
    pub(super) fn shader_var(&mut self, shared: bool) -> R<()> {
        let vertex = self.is_word_ci("vertexshader");
        self.i += 1;
        let name = self.ident()?;
        let loc = self.loc_of(&name);
        let dims = self.array_dims()?;
        if dims.len() > 1 {
            return Err(Diagnostic::error(
                Code::Unsupported,
                loc,
                "shader arrays have one dimension",
            ));
        }
        let mut values = Vec::new();
        if self.eat(Tok::Assign) {
            if self.eat(Tok::LBrace) {
                while !self.eat(Tok::RBrace) {
                    values.push(self.shader_value()?);
                    if !self.eat(Tok::Comma) {
                        self.expect(Tok::RBrace)?;
                        break;
                    }
                }
            } else {
                values.push(self.shader_value()?);
            }
        }
        self.expect(Tok::Semi)?;
        let elements = dims
            .first()
            .map(|&d| if d == 0 { values.len() as u32 } else { d });
        let count = elements.unwrap_or(1) as usize;
        if values.len() > count {
            return Err(Diagnostic::error(
                Code::Syntax,
                loc,
                format!(
                    "'{}' has {count} element(s) but {} initialiser(s)",
                    name.text,
                    values.len()
                ),
            ));
        }
        values.resize(count, None);
        self.program.effect.shaders.push(ShaderVar {
            name: name.text,
            vertex,
            elements,
            values,
            shared,
            position: self.program.globals.len(),
            loc,
        });
        Ok(())
    }

    fn shader_value(&mut self) -> R<Option<ShaderCode>> {
        if self.is_word_ci("compile") {
            return Ok(Some(ShaderCode::Compile(self.compile_expr()?)));
        }
        if self.is_word("NULL") || self.is_word("null") {
            self.i += 1;
            return Ok(None);
        }
        if self.is_word_ci("asm") {
            return Ok(Some(ShaderCode::Asm(self.asm_block()?)));
        }
        Err(self.err_here(format!(
            "syntax error: expected 'compile' or NULL, found '{}'",
            self.peek().text
        )))
    }
}

/// The expressions of a list initialiser in order, inner braces dropped.
fn flatten_list(init: Init, out: &mut Vec<Expr>) {
    match init {
        Init::Expr(e) => out.push(e),
        Init::List(items, _) => items.into_iter().for_each(|i| flatten_list(i, out)),
        Init::SamplerState | Init::Str(..) => {}
    }
}

/// The text of a string literal without its quotes, escapes kept as written but `\"`.
pub(super) fn unquote(s: &str) -> String {
    let inner = s
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s);
    inner.replace("\\\"", "\"")
}

#[cfg(test)]
mod tests {
    use crate::ast::*;
    use crate::preprocess::preprocess;
    use crate::NoIncludes;

    fn parse_fx(src: &str) -> Result<Program, crate::Diagnostic> {
        let out = preprocess("t.fx", src, &[], &NoIncludes)?;
        super::super::parse_effect(&out.tokens, &out.files, false)
    }

    const SRC: &str = r#"
        float4 Color : DIFFUSE < string UIName = "Color"; float Max = 2; > = {1, 0, 0, 1};
        texture2D Tex;
        sampler Samp = sampler_state { Texture = <Tex>; MinFilter = Linear; AddressU[0] = Clamp; };
        float4 PS() : COLOR { return Color; }
        float4 VS(float4 p : POSITION) : POSITION { return p; }
        VertexShader VSArray[2] = { compile vs_2_0 VS(), NULL };
        int Index = 0;
        Technique T < int Order = 1; >
        {
            Pass P0 { ZEnable = false; VertexShader = (VSArray[Index]); PixelShader = compile ps_2_0 PS(); }
            pass { CullMode = None; }
        }
    "#;

    #[test]
    fn effect_syntax_is_kept() {
        let p = parse_fx(SRC).unwrap();
        let fx = &p.effect;
        assert_eq!(fx.annotations.len(), 1);
        assert_eq!(fx.annotations[0].0, "Color");
        assert_eq!(
            fx.annotations[0].1[0].value,
            AnnotationValue::Str("Color".into())
        );
        assert_eq!(fx.sampler_states[0].0, "Samp");
        let names: Vec<_> = fx.sampler_states[0].1.iter().map(|s| &s.name).collect();
        assert_eq!(names, ["Texture", "MinFilter", "AddressU"]);
        assert_eq!(fx.sampler_states[0].1[2].index, Some(0));
        assert_eq!(fx.shaders.len(), 1);
        assert_eq!(fx.shaders[0].elements, Some(2));
        assert!(fx.shaders[0].values[1].is_none());
        assert_eq!(fx.techniques.len(), 1);
        let t = &fx.techniques[0];
        assert_eq!(t.name.as_deref(), Some("T"));
        assert_eq!(t.annotations.len(), 1);
        assert_eq!(t.passes.len(), 2);
        assert_eq!(t.passes[0].states.len(), 3);
        assert!(matches!(t.passes[0].states[2].value, StateRhs::Compile(ref c) if c.entry == "PS"));
        assert_eq!(t.passes[1].name, None);
        // The shader compiler's view is unchanged: two functions and four variables.
        assert_eq!(p.globals.len(), 6);
    }

    #[test]
    fn effect_syntax_errors_name_the_place() {
        for (src, want) in [
            ("technique T { pas P { } }", "expected 'pass'"),
            ("technique T { pass P { ZEnable = ; } }", "syntax error"),
            (
                "technique T { pass P { ZEnable[-1] = 0; } }",
                "syntax error",
            ),
            (
                "VertexShader v[1] = { compile vs_2_0 A(), compile vs_2_0 B() };",
                "initialiser",
            ),
            ("PixelShader p = asm { ps_2_0 ", "closing"),
            (
                "technique T { pass P { VertexShader = compile vs_2_0 ; } }",
                "syntax error",
            ),
        ] {
            let e = parse_fx(src).unwrap_err();
            assert!(e.message.contains(want), "{src}: {}", e.message);
            assert!(e.loc.line >= 1);
        }
    }
}
