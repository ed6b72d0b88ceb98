//! `named_enum!`: a `#[repr]` enum with its SDK numbers and names, read both ways.

/// Declares an enum whose variants carry a number and an SDK name without prefix, with
/// `from_raw`/`from_u8`-style lookup by number, `name`, and `from_name` (case-insensitive; a
/// `D3D..._` prefix such as `D3DBLEND_` or `D3DDECLTYPE_` is accepted and dropped).
macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident: $repr:ty, $from:ident { $($(#[$vm:meta])* $v:ident = $n:expr, $s:expr;)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr($repr)]
        pub enum $name { $($(#[$vm])* $v = $n,)* }
        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$v,)*];
            /// The value from its number.
            pub fn $from(v: $repr) -> Option<Self> {
                match v { $($n => Some($name::$v),)* _ => None }
            }
            /// The SDK name without prefix.
            pub fn name(self) -> &'static str {
                match self { $($name::$v => $s,)* }
            }
            /// The value from its SDK name (case-insensitive, `D3D..._` prefix optional).
            pub fn from_name(s: &str) -> Option<Self> {
                crate::named::lookup(s, Self::ALL, |v| v.name())
            }
        }
    };
}

pub(crate) use named_enum;

/// The entry of `all` whose name is `s` once any `D3D..._` prefix is dropped.
pub(crate) fn lookup<T: Copy>(s: &str, all: &[T], name: impl Fn(T) -> &'static str) -> Option<T> {
    let up = s.to_ascii_uppercase();
    let short = match up.strip_prefix("D3D") {
        Some(rest) => rest.split_once('_').map_or(up.as_str(), |x| x.1),
        None => up.as_str(),
    };
    all.iter().copied().find(|&v| name(v) == short)
}
