//! Every test of the testbench, in one binary: `cargo test` runs a crate's test binaries one after another, and
//! most of these tests spend their time in one external tool at a time (a Verilator build, Icarus, Yosys), so
//! one binary per file left a core idle; in one binary the tests of every file share the cores, the Verilog of
//! each top is generated once ([`asr_testbench::tops::TopDef::verilog`]) and a Verilator library is built once
//! (`cosim::verilator`). One module per file, named as the file: `cargo test -p asr-testbench --test all
//! reset::` runs the tests of `reset.rs`.

mod alloc;
mod asr_network;
mod asr_nic;
mod benes;
mod cosim;
mod export;
mod formal;
mod matcher;
mod reset;
mod sp2_allocator_v2;
mod sp2_allocator_v3;
mod sp2_board;
mod sp2_central_queue_v2;
mod sp2_central_queue_v3;
mod sp2_pins;
mod sp2_receiver_v2;
mod sp2_receiver_v3;
mod sp2_switch_v2;
mod sp2_switch_v3;
mod sp2_transmitter_v2;
mod sp2_transmitter_v3;
mod switch2;
mod switch2r;
mod wave;
