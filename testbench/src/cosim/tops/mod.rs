//! One definition per exported top: its stimulus, model twin and scoreboard ([`Top`]) and its rust-hdl
//! binding. Adding a top is one file here and one line in each of [`make`] and [`rusthdl`].

pub mod alloc;
pub mod benes;
pub mod central_queue;
pub mod central_queue_v2;
pub mod matcher;
pub mod receiver;
pub mod receiver_v2;
pub mod sp2_allocator;
pub mod sp2_board;
pub mod sp2_directed;
pub mod sp2_switch;
pub mod sp2_transmitter;
pub mod switch2;
pub mod transmitter;

use super::rusthdl::RustHdl;
use super::{Backend, Layout, Top};
use anyhow::{bail, Result};
use asr_model::switch2r::Switch2R;

/// The tops with a co-simulation definition: every exported top.
pub fn names() -> &'static [&'static str] {
    asr_hdl::export::TOPS
}

/// The definition of `top` with its random streams seeded from `seed`, for a run of `cycles` cycles of
/// traffic (the board's load phases are shorter in short runs, so that every phase is seen).
pub fn make(top: &str, seed: u64, cycles: u64) -> Result<Box<dyn Top>> {
    let m = |m, p| -> Box<dyn Top> { Box::new(matcher::MatcherTop::new(m, p, seed)) };
    Ok(match top {
        "matcher_m4_p1" => m(4, 1),
        "matcher_m4_p2" => m(4, 2),
        "matcher_m8_p1" => m(8, 1),
        "matcher_m8_p2" => m(8, 2),
        "matcher_m16_p1" => m(16, 1),
        "matcher_m16_p2" => m(16, 2),
        "switch2" => Box::new(switch2::Switch2Top::new(seed)),
        "benes8" => Box::new(benes::BenesTop::new(8, seed)),
        "benes16" => Box::new(benes::BenesTop::new(16, seed)),
        "benes32" => Box::new(benes::BenesTop::new(32, seed)),
        "switch2r" => Box::new(switch2::Switch2Top::<Switch2R>::of("switch2r", seed)),
        "benes8r" => Box::new(benes::BenesTop::<Switch2R>::of("benes8r", 8, seed)),
        "benes16r" => Box::new(benes::BenesTop::<Switch2R>::of("benes16r", 16, seed)),
        "central_queue" => Box::new(central_queue::CentralQueueTop::new(seed)),
        "central_queue_v2" => Box::new(central_queue_v2::CentralQueueV2Top::new(seed)),
        "receiver" => Box::new(receiver::ReceiverTop::new(seed)),
        "receiver_v2" => Box::new(receiver_v2::ReceiverV2Top::new(seed)),
        "transmitter" => Box::new(transmitter::TransmitterTop::new(seed)),
        "sp2_switch" => {
            Box::new(sp2_switch::Sp2SwitchTop::<asr_model::sp2::switch::Sp2Switch>::new(seed))
        }
        "sp2_switch_v2" => Box::new(sp2_switch::Sp2SwitchTop::<
            asr_model::sp2::v2::switch::Sp2SwitchV2,
        >::new(seed)),
        "sp2_allocator" => Box::new(sp2_allocator::Sp2AllocatorTop::new(seed)),
        "sp2_transmitter" => Box::new(sp2_transmitter::Sp2TransmitterTop::new(seed)),
        "sp2_board" => Box::new(
            sp2_board::Sp2BoardTop::<asr_model::sp2::switch::Sp2Switch>::new(
                seed,
                (cycles / 8).clamp(100, 1_000),
            ),
        ),
        "sp2_board_v2" => Box::new(sp2_board::Sp2BoardTop::<
            asr_model::sp2::v2::switch::Sp2SwitchV2,
        >::new(seed, (cycles / 8).clamp(100, 1_000))),
        "alloc_islip1_m8" | "alloc_pim1_m8" | "alloc_wavefront_m8" => {
            let name = names().iter().find(|&&n| n == top).expect("listed");
            Box::new(alloc::AllocTop::new(name, seed))
        }
        _ => bail!("unknown top `{top}` (known: {})", names().join(", ")),
    })
}

/// The rust-hdl description of `top` in rust-hdl's simulation, checked against `layout`.
pub fn rusthdl(top: &str, layout: &Layout) -> Result<Box<dyn Backend>> {
    fn b<I: super::rusthdl::HdlIo + 'static>(l: &Layout) -> Result<Box<dyn Backend>> {
        Ok(Box::new(RustHdl::<I>::new(l)?))
    }
    match top {
        "matcher_m4_p1" => b::<matcher::M4P1>(layout),
        "matcher_m4_p2" => b::<matcher::M4P2>(layout),
        "matcher_m8_p1" => b::<matcher::M8P1>(layout),
        "matcher_m8_p2" => b::<matcher::M8P2>(layout),
        "matcher_m16_p1" => b::<matcher::M16P1>(layout),
        "matcher_m16_p2" => b::<matcher::M16P2>(layout),
        "switch2" => b::<switch2::Switch2Io>(layout),
        "benes8" => b::<benes::Benes8Io>(layout),
        "benes16" => b::<benes::Benes16Io>(layout),
        "benes32" => b::<benes::Benes32Io>(layout),
        "switch2r" => b::<switch2::Switch2RIo>(layout),
        "benes8r" => b::<benes::Benes8RIo>(layout),
        "benes16r" => b::<benes::Benes16RIo>(layout),
        "central_queue" => b::<central_queue::CentralQueueIo>(layout),
        "central_queue_v2" => b::<central_queue_v2::CentralQueueV2Io>(layout),
        "receiver" => b::<receiver::ReceiverIo>(layout),
        "receiver_v2" => b::<receiver_v2::ReceiverV2Io>(layout),
        "transmitter" => b::<transmitter::TransmitterIo>(layout),
        "sp2_switch" => b::<sp2_switch::Sp2SwitchIo>(layout),
        "sp2_switch_v2" => b::<sp2_switch::Sp2SwitchV2Io>(layout),
        "sp2_board" => b::<sp2_board::Sp2BoardIo>(layout),
        "sp2_board_v2" => b::<sp2_board::Sp2BoardV2Io>(layout),
        "sp2_allocator" => b::<sp2_allocator::Sp2AllocatorIo>(layout),
        "sp2_transmitter" => b::<sp2_transmitter::Sp2TransmitterIo>(layout),
        "alloc_islip1_m8" => b::<alloc::Islip1M8>(layout),
        "alloc_pim1_m8" => b::<alloc::Pim1M8>(layout),
        "alloc_wavefront_m8" => b::<alloc::WavefrontM8>(layout),
        _ => bail!("unknown top `{top}` (known: {})", names().join(", ")),
    }
}
