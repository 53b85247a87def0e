//! The v2 central queue's admission timing (docs/sp2-switch.md v2 §C): decided on the requests of the
//! previous cycle, taken into the state at the end of the next cycle, with no admission decided in between.

use asr_model::sp2::v2::central_queue::{AdmReq, CentralQueue, CqError, CqIn};

fn ask(reqs: &[(usize, AdmReq)], ask: u8) -> CqIn {
    let mut i = CqIn::default();
    for &(r, a) in reqs {
        i.adm[r] = Some(a);
    }
    i.ask = ask;
    i
}

#[test]
fn an_admission_takes_effect_a_cycle_later_and_blocks_the_next_one() {
    let a = AdmReq {
        set: 0b10,
        chunks: 3,
    };
    let b = AdmReq {
        set: 0b100,
        chunks: 2,
    };
    let mut q = CentralQueue::new();
    // Cycle 0: both present their requests (nothing registered yet: no admission).
    let o = q.step(&ask(&[(0, a), (1, b)], 0)).unwrap();
    assert_eq!(o.adm, None);
    // Cycle 1: both ask; one is admitted (receiver 0, the LRS order's first), to its only output.
    let o = q.step(&ask(&[(0, a), (1, b)], 0b11)).unwrap();
    assert_eq!(o.adm, Some((0, 1)));
    assert_eq!(q.adm_pend, Some((0, 1, 3)));
    assert!(q.admitted(0) && q.writer[0].is_none());
    // Cycle 2: the admission is pending, so receiver 1 is not admitted, and receiver 0 may not ask again;
    // the loads still show no promise.
    assert_eq!(
        q.eval(&ask(&[(0, a), (1, b)], 0b11)),
        Err(CqError::AdmWhileWriting(0))
    );
    let o = q.step(&ask(&[(1, b)], 0b10)).unwrap();
    assert_eq!((o.adm, o.adm_pick), (None, None));
    assert_eq!(o.load[1], 0);
    // At the end of cycle 2 receiver 0's packet is taken: its writer, the load and the promise.
    assert_eq!(q.writer[0].map(|w| (w.out, w.left)), Some((1, 3)));
    assert_eq!((q.load[1], q.promised), (3, 3));
    q.check().unwrap();
    // Cycle 3: receiver 1 is admitted.
    let o = q.step(&ask(&[(1, b)], 0b10)).unwrap();
    assert_eq!(o.adm, Some((1, 2)));
    assert_eq!(o.load[1], 3);
    q.step(&CqIn::default()).unwrap();
    assert_eq!((q.load[2], q.promised), (2, 5));
    q.check().unwrap();
}
