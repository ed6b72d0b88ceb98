//! What the generator refuses.

use thiserror::Error;

/// A fixed-function state the generator cannot turn into shaders, naming the state and the rule.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum FfpError {
    /// An FVF code with reserved bits, no position, or a combination Direct3D 9 does not define.
    #[error("FVF code {code:#x}: {rule}")]
    BadFvf {
        /// The code.
        code: u32,
        /// The rule broken.
        rule: &'static str,
    },
    /// A state whose value is not a member of its enumeration.
    #[error("{state} has the value {value:#x}, which it does not take")]
    BadState {
        /// The state's name.
        state: String,
        /// The value.
        value: u32,
    },
    /// More lights enabled than the pipeline runs at once.
    #[error("{0} lights are enabled; at most {max} may be", max = crate::state::MAX_ACTIVE_LIGHTS)]
    TooManyLights(usize),
    /// A state the generator does not implement.
    #[error("not supported by the fixed-function generator: {0}")]
    Unsupported(&'static str),
    /// The state needs more vertex-shader outputs than vs_3_0 has.
    #[error("the state needs {0} vertex-shader outputs; vs_3_0 has 12")]
    TooManyOutputs(usize),
    /// The state needs more pixel-shader inputs than ps_3_0 has.
    #[error("the state needs {0} pixel-shader inputs; ps_3_0 has 10")]
    TooManyInputs(usize),
}
