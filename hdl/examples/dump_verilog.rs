//! Prints the Verilog of one exported top: `cargo run --release -p asr-hdl --example dump_verilog -- NAME`.
fn main() {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "matcher_m4_p1".into());
    match asr_hdl::export::verilog_of(&name) {
        Some(v) => print!("{v}"),
        None => eprintln!("unknown top {name}; known: {:?}", asr_hdl::export::TOPS),
    }
}
