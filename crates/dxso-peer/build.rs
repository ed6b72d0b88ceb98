fn main() {
    // Link only when the peer is asked for, so a fresh machine builds the workspace without it.
    if std::env::var_os("CARGO_FEATURE_PEER_MOJOSHADER").is_some() {
        println!("cargo:rustc-link-lib=mojoshader");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
