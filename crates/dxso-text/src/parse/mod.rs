//! Microsoft assembly text to [`dxso::Shader`].
