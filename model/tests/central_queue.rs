//! The SP2 central queue under random enqueue and dequeue: every chunk comes out of its output's list once,
//! in order, intact; the lists never leak (checked every cycle); one chunk stays reserved per empty output;
//! the free list is full again after draining. Seeds are printed on failure (ASR_SEED overrides).

use asr_model::rng::stream;
use asr_model::sp2::v1::central_queue::{CentralQueue, CqInputs, WriteReq};
use asr_model::sp2::{CQ_CHUNKS, PORTS};
use rand::Rng;
use std::collections::VecDeque;

fn seed() -> u64 {
    std::env::var("ASR_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed)
}

fn run(seed: u64, cycles: usize, wr_p: f64, rd_p: f64, hot: Option<u8>) {
    let mut rng = stream(seed, 1);
    let mut q = CentralQueue::new();
    let mut expect: Vec<VecDeque<(u64, u8, bool, bool)>> = vec![VecDeque::new(); PORTS];
    let mut pending_read: Option<u8> = None;
    let mut next_data = 1u64;
    let (mut written, mut read) = (0u64, 0u64);
    for cyc in 0..cycles + 2000 {
        let drain = cyc >= cycles;
        let mut i = CqInputs::default();
        for rx in 0..PORTS {
            if !drain && rng.gen_bool(wr_p) {
                let out = hot.unwrap_or_else(|| rng.gen_range(0..PORTS as u8));
                let last = rng.gen_bool(0.3);
                let bytes = if last { rng.gen_range(1..=8) } else { 8 };
                i.wr[rx] = Some(WriteReq {
                    out,
                    data: next_data + rx as u64,
                    bytes,
                    last,
                    bad: rng.gen_bool(0.05),
                });
            }
        }
        for o in 0..PORTS {
            i.rd[o] = drain || (hot != Some(o as u8) && rng.gen_bool(rd_p));
        }
        let o = q
            .step(&i)
            .unwrap_or_else(|e| panic!("seed {seed} cycle {cyc}: {e}"));
        if let Some(c) = o.rd_data {
            let want = pending_read.take().expect("data without a read grant");
            assert_eq!(c.out, want, "seed {seed} cycle {cyc}");
            let e = expect[c.out as usize]
                .pop_front()
                .expect("read from an empty list");
            assert_eq!(
                (c.data, c.bytes, c.last, c.bad),
                e,
                "seed {seed} cycle {cyc}: chunk out of order or corrupted"
            );
            read += 1;
        } else {
            assert!(
                pending_read.is_none(),
                "seed {seed} cycle {cyc}: read grant without data"
            );
        }
        if let Some(t) = o.rd_grant {
            assert!(i.rd[t as usize] && o.count[t as usize] > 0);
            pending_read = Some(t);
        }
        if let Some(rx) = o.wr_grant {
            let w = i.wr[rx as usize].unwrap();
            expect[w.out as usize].push_back((w.data, w.bytes, w.last, w.bad));
            written += 1;
        }
        next_data += 16;
        q.check()
            .unwrap_or_else(|e| panic!("seed {seed} cycle {cyc}: {e}"));
        // The reservation: an output with an empty list can always be written.
        for out in 0..PORTS {
            if o.count[out] == 0 {
                assert!(
                    q.count(out) > 0 || q.can_write(out),
                    "seed {seed} cycle {cyc}: empty output {out} cannot be written"
                );
            }
        }
    }
    assert_eq!(written, read, "seed {seed}: chunks lost");
    assert_eq!(
        q.free() as usize,
        CQ_CHUNKS,
        "seed {seed}: free list not full after draining"
    );
    assert!(
        written > cycles as u64 / 4,
        "seed {seed}: too little traffic ({written})"
    );
}

#[test]
fn random_enqueue_dequeue() {
    let s = seed();
    for (k, (wr_p, rd_p)) in [(0.3, 0.9), (0.5, 0.5), (0.9, 0.3), (0.1, 0.1)]
        .into_iter()
        .enumerate()
    {
        run(s + k as u64, 50_000, wr_p, rd_p, None);
    }
}

#[test]
fn a_blocked_output_cannot_starve_the_others() {
    // Output 3 is never read and everyone writes to it: it fills the queue except the reserved chunks.
    let mut q = CentralQueue::new();
    let mut i = CqInputs::default();
    for rx in 0..PORTS {
        i.wr[rx] = Some(WriteReq {
            out: 3,
            data: rx as u64,
            bytes: 8,
            last: false,
            bad: false,
        });
    }
    for _ in 0..1000 {
        q.step(&i).unwrap();
    }
    q.check().unwrap();
    assert_eq!(q.count(3) as usize, CQ_CHUNKS - (PORTS - 1));
    for o in 0..PORTS {
        assert_eq!(q.can_write(o), o != 3, "output {o}");
    }
    // Another output still gets its chunk.
    let mut j = CqInputs::default();
    j.wr[0] = Some(WriteReq {
        out: 5,
        data: 9,
        bytes: 8,
        last: true,
        bad: false,
    });
    assert_eq!(q.step(&j).unwrap().wr_grant, Some(0));
    assert_eq!(q.count(5), 1);
    q.check().unwrap();
}

#[test]
fn bad_requests_are_errors() {
    let q = CentralQueue::new();
    let mut i = CqInputs::default();
    i.wr[2] = Some(WriteReq {
        out: 1,
        data: 0,
        bytes: 9,
        last: true,
        bad: false,
    });
    assert!(q.eval(&i).is_err());
    i.wr[2] = Some(WriteReq {
        out: 1,
        data: 0,
        bytes: 4,
        last: false,
        bad: false,
    });
    assert!(q.eval(&i).is_err());
    i.wr[2] = Some(WriteReq {
        out: 8,
        data: 0,
        bytes: 8,
        last: false,
        bad: false,
    });
    assert!(q.eval(&i).is_err());
}
