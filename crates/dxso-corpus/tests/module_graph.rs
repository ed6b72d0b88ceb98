//! The workspace's modules import each other without cycles: within each crate, the graph of
//! `use` paths and `crate::`/`super::`/`self::` paths between module files has no strongly
//! connected component of two or more modules. A module reaching into its own ancestors
//! (`super::Item` from a child) is not an edge: a child is part of its parent.
//!
//! Paths are read from the source text (comments and `#[cfg(test)]` tails left out), which is
//! what a reader follows; the check needs no compiler.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every module file of a crate's `src`, by module path (`lib.rs` and `mod.rs` name their
/// folder's module).
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src");
            let mut parts: Module = rel
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            out.insert(parts, path);
        }
    }
    out
}

/// The code of a file without comments and without what follows its first `#[cfg(test)]`.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a file names: each `use` tree expanded one brace level, and every
/// `crate::`, `super::` or `self::` path in expressions and types.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let boundary = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
        let after = &rest[i + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if boundary {
            let tree: String = after[..end]
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            match tree.split_once("::{") {
                Some((prefix, items)) => {
                    let items = items.strip_suffix('}').unwrap_or(items);
                    let mut depth = 0;
                    let mut item = String::new();
                    for ch in items.chars().chain([',']) {
                        match ch {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            ',' if depth == 0 => {
                                let head = item.split("::{").next().unwrap_or("");
                                out.push(if head.is_empty() || head == "self" {
                                    prefix.to_string()
                                } else {
                                    format!("{prefix}::{head}")
                                });
                                item.clear();
                                continue;
                            }
                            _ => {}
                        }
                        item.push(ch);
                    }
                }
                None => out.push(tree),
            }
        }
        rest = &after[end.min(after.len())..];
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let len = code[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(code.len() - at);
            out.push(code[at..at + len].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The module file a path from module `from` lands in: the deepest module the path names.
fn resolve(mods: &BTreeMap<Module, PathBuf>, from: &Module, path: &str) -> Option<Module> {
    let path = path.split(" as ").next().unwrap_or(path);
    let mut parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
    let mut base: Module = match parts.first() {
        Some(&"crate") => {
            parts.remove(0);
            Vec::new()
        }
        Some(&"super") => {
            let mut base = from.clone();
            while parts.first() == Some(&"super") {
                base.pop();
                parts.remove(0);
            }
            base
        }
        Some(&"self") => {
            parts.remove(0);
            from.clone()
        }
        Some(first) => {
            // A child module named without `self::`; anything else is another crate.
            let mut child = from.clone();
            child.push(first.to_string());
            if !mods.contains_key(&child) {
                return None;
            }
            from.clone()
        }
        None => return None,
    };
    let mut best = base.clone();
    for part in parts {
        base.push(part.to_string());
        if mods.contains_key(&base) {
            best = base.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// The strongly connected components of two or more modules (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'g> {
        graph: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'g Module, usize>,
        low: BTreeMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        on_stack: BTreeSet<&'g Module>,
        found: Vec<Vec<Module>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in &s.graph[v] {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

fn graph_of(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mods = modules(src);
    let mut graph = BTreeMap::new();
    for (module, file) in &mods {
        let text = std::fs::read_to_string(file).expect("readable source");
        let mut edges = BTreeSet::new();
        for path in paths(&code(&text)) {
            if let Some(target) = resolve(&mods, module, &path) {
                let ancestor = target.len() < module.len() && module.starts_with(&target);
                if &target != module && !ancestor {
                    edges.insert(target);
                }
            }
        }
        graph.insert(module.clone(), edges);
    }
    graph
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate root".to_string()
    } else {
        m.join("::")
    }
}

#[test]
fn no_crate_has_a_module_cycle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut report = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(&crates)
        .expect("the crates folder")
        .flatten()
    {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        checked += 1;
        let graph = graph_of(&src);
        for component in cycles(&graph) {
            let members: BTreeSet<&Module> = component.iter().collect();
            let mut lines = vec![format!(
                "{}: {}",
                entry.file_name().to_string_lossy(),
                component.iter().map(name).collect::<Vec<_>>().join(" <-> ")
            )];
            for m in &component {
                for target in graph[m].iter().filter(|t| members.contains(t)) {
                    lines.push(format!("    {} uses {}", name(m), name(target)));
                }
            }
            report.push(lines.join("\n"));
        }
    }
    assert!(
        checked >= 10,
        "found only {checked} crates under {crates:?}"
    );
    assert!(
        report.is_empty(),
        "module cycles (move the shared piece to a leaf module):\n{}",
        report.join("\n")
    );
}

#[test]
fn the_check_sees_a_cycle_between_siblings() {
    let dir = std::env::temp_dir().join(format!("dxso-module-graph-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("tree")).expect("temp dir");
    let files = [
        ("lib.rs", "mod a;\nmod b;\nmod tree;\n"),
        ("a.rs", "use crate::b::B;\npub struct A;\n"),
        ("b.rs", "pub struct B(crate::a::A);\n"),
        (
            "tree/mod.rs",
            "mod leaf;\npub use leaf::L;\npub struct T;\n",
        ),
        ("tree/leaf.rs", "use super::T;\npub struct L(T);\n"),
    ];
    for (path, text) in files {
        std::fs::write(src.join(path), text).expect("temp file");
    }
    let found = cycles(&graph_of(&src));
    std::fs::remove_dir_all(&dir).ok();
    let names: Vec<Vec<String>> = found
        .iter()
        .map(|c| {
            let mut n: Vec<String> = c.iter().map(name).collect();
            n.sort();
            n
        })
        .collect();
    // The siblings are a cycle; a parent and the child that uses it are not.
    assert_eq!(names, vec![vec!["a".to_string(), "b".to_string()]]);
}
