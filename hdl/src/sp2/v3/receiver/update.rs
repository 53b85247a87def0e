//! The receiver's logic, one cycle: the header FIFO, the consumer, the look-ahead grant and admission,
//! the queue writer and the owed-token counter (see the module documentation of [`super`]).

use super::*;

impl Logic for Receiver {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            hv0,
            hv1,
            h0_len,
            h0_set,
            h1_len,
            h1_set,
            unheaded,
            s_route,
            s_wait,
            s_xbar,
            s_queue,
            out,
            cur_set,
            cur_headed,
            rem,
            first,
            nbank,
            start,
            la_g,
            la_a,
            la_o,
            wchunk_v,
            wchunk,
            held_v,
            held,
            link_pending,
            push_v,
            push_o,
            push_h,
            push_f,
            owed,
            off_v,
            off_e,
            off_to,
            req_r,
            ask_v,
            ask_s,
            ask_c,
            near_r,
            tok
        );
        self.trk.clock.next = self.clock.val();
        self.fifo.clock.next = self.clock.val();
        // The registers other blocks read.
        self.offer_valid.next = self.off_v.q.val();
        self.offer_entry.next = self.off_e.q.val();
        self.offer_to_valid.next = self.off_to.q.val();
        self.offer_to.next = 0.into();
        if self.off_to.q.val() {
            self.offer_to.next = self.out.q.val();
        }
        self.req.next = self.req_r.q.val();
        self.ask_valid.next = self.ask_v.q.val();
        self.ask_set.next = self.ask_s.q.val();
        self.ask_chunks.next = self.ask_c.q.val();
        self.near_end.next = self.near_r.q.val();
        self.wpos_valid.next = self.wchunk_v.q.val();
        self.wpos.next = self.wchunk.q.val();
        self.token.next = self.tok.q.val();
        self.crc_errors.next = self.trk.crc_errors.val();
        self.route_errors.next = self.trk.route_errors.val();
        // The tracker.
        self.trk.pins_valid.next = self.pins_valid.val();
        self.trk.pins.next = self.pins.val();
        self.trk.hdr_room.next = !self.hv1.q.val() & (self.unheaded.q.val() == 0);
        // The body FIFO's head.
        self.f_hdr.next = self.fifo.head.val().get_bit(10);
        self.f_kind.next = self.fifo.head.val().get_bits::<2>(8);
        self.f_byte.next = self.fifo.head.val().get_bits::<8>(0);
        self.f_two.next = (self.f_kind.val() == 1) | (self.f_kind.val() == 2);
        self.f_bad.next = self.f_kind.val() == 2;
        if self.f_kind.val() == 3 {
            self.f_bad.next = self.fifo.head.val().get_bit(0);
        }
        // The offer is taken: by the transmitter it is addressed to (the consumer's `out`), or the preload
        // by an idle transmitter granted now.
        self.taken.next = self.off_v.q.val()
            & self.grant_valid.val()
            & self.tx_idle.val().get_bit(self.grant.val().index())
            & self.credit_ok.val().get_bit(self.grant.val().index());
        if self.off_to.q.val() {
            self.taken.next = self.off_v.q.val()
                & self.conn.val().get_bit(self.out.q.val().index())
                & self.credit_ok.val().get_bit(self.out.q.val().index());
        }
        // A grant or an admission: for the packet in `Wait`, or for the look-ahead packet.
        self.streaming.next = self.s_xbar.q.val() | self.s_queue.q.val();
        self.la_free.next = self.streaming.val()
            & !self.la_g.q.val()
            & !self.la_a.q.val()
            & ((self.cur_headed.q.val() & self.hv1.q.val())
                | (!self.cur_headed.q.val() & self.hv0.q.val()));
        self.g_wait.next = self.grant_valid.val() & self.s_wait.q.val();
        self.g_la.next = self.grant_valid.val() & self.la_free.val();
        self.a_wait.next = self.admitted_valid.val() & self.s_wait.q.val();
        self.a_la.next = self.admitted_valid.val() & self.la_free.val();
        self.x1.next = self.s_xbar.q.val() | self.g_wait.val();
        self.q1.next = self.s_queue.q.val() | self.a_wait.val();
        self.out1.next = self.out.q.val();
        if self.g_wait.val() {
            self.out1.next = self.grant.val();
        }
        if self.a_wait.val() {
            self.out1.next = self.admitted.val();
        }
        self.lg1.next = self.la_g.q.val() | self.g_la.val();
        self.lad1.next = self.la_a.q.val() | self.a_la.val();
        self.lo1.next = self.la_o.q.val();
        if self.g_la.val() {
            self.lo1.next = self.grant.val();
        }
        if self.a_la.val() {
            self.lo1.next = self.admitted.val();
        }
        self.off_v1.next = self.off_v.q.val() & !self.a_wait.val();
        // The header FIFO after the tracker's push.
        self.hp_v0.next = self.hv0.q.val() | self.trk.hdr_push.val();
        self.hp_v1.next = self.hv1.q.val() | (self.hv0.q.val() & self.trk.hdr_push.val());
        self.hp0_len.next = self.h0_len.q.val();
        self.hp0_set.next = self.h0_set.q.val();
        self.hp1_len.next = self.h1_len.q.val();
        self.hp1_set.next = self.h1_set.q.val();
        if self.trk.hdr_push.val() {
            if self.hv0.q.val() {
                self.hp1_len.next = self.trk.hdr_len.val();
                self.hp1_set.next = self.trk.hdr_set.val();
            } else {
                self.hp0_len.next = self.trk.hdr_len.val();
                self.hp0_set.next = self.trk.hdr_set.val();
            }
        }
        // The consumer: `Idle` takes a stored `LEN`, `Route` its `R1`.
        self.idle.next = !self.s_route.q.val()
            & !self.s_wait.q.val()
            & !self.s_xbar.q.val()
            & !self.s_queue.q.val();
        self.i_len.next = self.idle.val() & self.fifo.nonempty.val() & self.f_hdr.val();
        self.r_pop.next = self.s_route.q.val() & self.fifo.nonempty.val();
        self.r_go.next = self.r_pop.val() & !self.fifo.head.val().get_bit(8);
        // `Xbar`: the offer taken, and the next one when the register is free after the edge.
        self.x_tk.next = self.x1.val() & self.taken.val();
        self.x_end.next = self.x_tk.val() & (self.off_e.q.val().get_bits::<2>(8) == 3);
        self.rem_d.next = self.rem.q.val() - 1;
        self.first2.next = self.first.q.val() & !self.x_tk.val();
        // After this edge's take, offer `j` = `LEN − 1 − rem`: the last body byte when `rem` is 0 (a `Last`
        // entry, not popped), the end when it is −1 (255; the `Last` or `End` entry, popped), else a body byte
        // (the FIFO's tags agree, as the model checks).
        self.rem2_is1.next = self.rem.q.val() == 0;
        self.rem2_end.next = self.rem.q.val() == 255;
        if self.x_tk.val() {
            self.rem2_is1.next = self.rem.q.val() == 1;
            self.rem2_end.next = self.rem.q.val() == 0;
        }
        self.x_need.next =
            self.x1.val() & !self.x_end.val() & (!self.off_v1.val() | self.x_tk.val());
        self.x_pre.next = self.x_need.val() & self.first2.val();
        self.x_off.next = self.x_need.val() & !self.first2.val() & self.fifo.nonempty.val();
        self.x_body.next = self.x_off.val() & !self.rem2_is1.val() & !self.rem2_end.val();
        self.x_lastb.next = self.x_off.val() & self.rem2_is1.val();
        self.x_endo.next = self.x_off.val() & self.rem2_end.val();
        self.x_pop.next = self.x_body.val() | self.x_endo.val();
        // `Queue`: the head into the bank of the slot when it is the next entry's bank (any bank for
        // entry 0); a new chunk needs the held chunk, and a new packet its predecessor's push. Not in the
        // cycle of the admission (from the state register: V3.F).
        self.newc.next = self.first.q.val() | (self.nbank.q.val() == self.start.q.val());
        self.q_wr.next = self.s_queue.q.val()
            & self.fifo.nonempty.val()
            & (self.first.q.val() | (self.slot_bank.val() == self.nbank.q.val()))
            & (!self.newc.val()
                | (self.held_v.q.val() & (!self.first.q.val() | !self.push_v.q.val())));
        self.q_nc.next = self.q_wr.val() & self.newc.val();
        self.q_first.next = self.q_wr.val() & self.first.q.val();
        // The last stored entry: `rem` 1 (`LEN` ≥ 2) or 0 (`LEN` = 1).
        self.q_end.next = self.q_wr.val() & (self.rem.q.val().get_bits::<7>(1) == 0);
        self.w_chunk.next = self.wchunk.q.val();
        if self.newc.val() {
            self.w_chunk.next = self.held.q.val();
        }
        self.held_v2.next = self.held_v.q.val() & !self.q_nc.val();
        self.wchunk_v2.next = (self.wchunk_v.q.val() | self.q_nc.val()) & !self.q_end.val();
        self.wchunk2.next = self.wchunk.q.val();
        if self.q_nc.val() {
            self.wchunk2.next = self.held.q.val();
        }
        if self.q_end.val() {
            self.wchunk2.next = 0.into();
        }
        self.lp2.next = self.link_pending.q.val();
        if self.q_nc.val() {
            // More than a chunk left after this one: `rem > CHUNK` (9 or more).
            self.lp2.next = (self.rem.q.val().get_bits::<4>(4) != 0)
                | (self.rem.q.val().get_bit(3) & (self.rem.q.val().get_bits::<3>(0) != 0));
        }
        self.push_o2.next = self.push_o.q.val();
        self.push_h2.next = self.push_h.q.val();
        self.push_f2.next = self.push_f.q.val();
        self.start2.next = self.start.q.val();
        if self.q_first.val() {
            self.push_o2.next = self.out.q.val();
            self.push_h2.next = self.rem.q.val();
            // Entry 0 starts a chunk: the held one.
            self.push_f2.next = self.held.q.val();
            self.start2.next = self.slot_bank.val();
        }
        // The control slot, after this edge's write: take the free list's head, link, push.
        self.c_pop.next = self.ctrl_slot.val() & !self.held_v2.val();
        self.held3.next = self.held.q.val();
        if self.c_pop.val() {
            self.held3.next = self.free_head.val();
        }
        self.c_link.next = self.ctrl_slot.val() & self.lp2.val();
        // A push only of a packet whose first entry was written before this cycle (V3.F: the push from
        // registers alone).
        self.c_push.next = self.ctrl_slot.val() & self.push_v.q.val();
        // The packet ends: its header leaves the header FIFO; the next packet starts (`next_packet`).
        self.ended.next = self.x_end.val() | self.q_end.val();
        self.pop_hdr.next = self.ended.val() & self.cur_headed.q.val();
        self.hq_v0.next = self.hp_v0.val();
        self.hq_v1.next = self.hp_v1.val();
        self.hq0_len.next = self.hp0_len.val();
        self.hq0_set.next = self.hp0_set.val();
        if self.pop_hdr.val() {
            self.hq_v0.next = self.hp_v1.val();
            self.hq_v1.next = false;
            self.hq0_len.next = self.hp1_len.val();
            self.hq0_set.next = self.hp1_set.val();
        }
        // (An idle consumer never sees a stored `LEN` and a header entry together: a `LEN` stored without a
        // header entry blocks the header FIFO until it is consumed, and the packets before it are done.)
        self.np.next = (self.idle.val() & self.hp_v0.val())
            | (self.r_pop.val() & !self.r_go.val())
            | self.ended.val();
        self.np_go.next = self.np.val() & self.hq_v0.val();
        self.np_x.next = self.np_go.val() & self.lg1.val();
        self.np_q.next = self.np_go.val() & !self.lg1.val() & self.lad1.val();
        self.np_w.next = self.np_go.val() & !self.lg1.val() & !self.lad1.val();
        // The consumer's next state.
        self.s_route.d.next = self.i_len.val() | (self.s_route.q.val() & !self.r_pop.val());
        self.s_wait_n.next = self.r_go.val()
            | self.np_w.val()
            | (self.s_wait.q.val() & !self.g_wait.val() & !self.a_wait.val());
        self.s_xbar_n.next = self.np_x.val() | (self.x1.val() & !self.ended.val());
        self.s_queue_n.next = self.np_q.val() | (self.q1.val() & !self.ended.val());
        self.s_wait.d.next = self.s_wait_n.val();
        self.s_xbar.d.next = self.s_xbar_n.val();
        self.s_queue.d.next = self.s_queue_n.val();
        self.out.d.next = self.out1.val();
        if self.np_x.val() | self.np_q.val() {
            self.out.d.next = self.lo1.val();
        }
        self.la_g_n.next = self.lg1.val() & !self.np.val();
        self.la_a_n.next = self.lad1.val() & !self.np.val();
        self.la_g.d.next = self.la_g_n.val();
        self.la_a.d.next = self.la_a_n.val();
        self.la_o.d.next = self.lo1.val();
        self.cur_set_n.next = self.cur_set.q.val();
        self.cur_headed_n.next = self.cur_headed.q.val();
        self.rem_n.next = self.rem.q.val();
        if self.x_tk.val() | self.q_wr.val() | self.r_pop.val() {
            self.rem_n.next = self.rem_d.val();
        }
        if self.i_len.val() {
            self.cur_headed_n.next = false;
            self.rem_n.next = self.f_byte.val();
        }
        if self.r_go.val() {
            self.cur_set_n.next = self.f_byte.val();
        }
        if self.np.val() {
            self.cur_headed_n.next = self.hq_v0.val();
        }
        if self.np_go.val() {
            self.cur_set_n.next = self.hq0_set.val();
            self.rem_n.next = self.hq0_len.val();
        }
        self.cur_set.d.next = self.cur_set_n.val();
        self.cur_headed.d.next = self.cur_headed_n.val();
        self.rem.d.next = self.rem_n.val();
        self.first.d.next = (self.first.q.val() & !self.x_tk.val() & !self.q_wr.val())
            | self.i_len.val()
            | self.np.val();
        if self.q_wr.val() {
            self.nbank.d.next = self.slot_bank.val() + 1;
        }
        self.start.d.next = self.start2.val();
        // The queue writer's registers.
        self.held_v.d.next = self.held_v2.val() | self.c_pop.val();
        self.held.d.next = self.held3.val();
        self.wchunk_v.d.next = self.wchunk_v2.val();
        self.wchunk.d.next = self.wchunk2.val();
        self.link_pending.d.next = self.lp2.val() & !self.ctrl_slot.val();
        self.push_v.d.next = (self.push_v.q.val() & !self.ctrl_slot.val()) | self.q_first.val();
        self.push_o.d.next = self.push_o2.val();
        self.push_h.d.next = self.push_h2.val();
        self.push_f.d.next = self.push_f2.val();
        // The offer register.
        self.off_v_n.next = self.off_v1.val() & !self.x_tk.val();
        self.off_to_n.next = self.off_to.q.val() | self.g_wait.val();
        self.off_e_n.next = self.off_e.q.val();
        if self.x_pre.val() | self.r_go.val() | self.np.val() {
            self.off_e_n.next = bit_cast::<ENTRY_BITS, 8>(self.rem_n.val());
        }
        if self.x_body.val() | self.x_lastb.val() {
            self.off_e_n.next = bit_cast::<ENTRY_BITS, 8>(self.f_byte.val());
        }
        if self.x_endo.val() {
            self.off_e_n.next = 0x300.into();
            if self.f_bad.val() {
                self.off_e_n.next = 0x301.into();
            }
        }
        if self.x_pre.val() | self.x_body.val() | self.x_lastb.val() | self.x_endo.val() {
            self.off_v_n.next = true;
            self.off_to_n.next = true;
        }
        if self.r_go.val() {
            self.off_v_n.next = true;
            self.off_to_n.next = false;
        }
        if self.np.val() {
            self.off_v_n.next = self.np_x.val() | self.np_w.val();
            self.off_to_n.next = self.np_x.val();
        }
        self.off_v.d.next = self.off_v_n.val();
        self.off_to.d.next = self.off_v_n.val() & self.off_to_n.val();
        self.off_e.d.next = 0.into();
        if self.off_v_n.val() {
            self.off_e.d.next = self.off_e_n.val();
        }
        // The body FIFO, the header FIFO, the `LEN`s without a header entry.
        self.pop_any.next =
            self.i_len.val() | self.r_pop.val() | self.x_pop.val() | self.q_wr.val();
        self.pop_two.next = (self.x_pop.val() | self.q_wr.val()) & self.f_two.val();
        self.fifo.pop.next = self.pop_any.val();
        self.fifo.push.next = self.trk.store.val();
        self.fifo.din.next = self.trk.tag.val();
        self.hv0.d.next = self.hq_v0.val();
        self.hv1.d.next = self.hq_v1.val();
        self.h0_len.d.next = self.hq0_len.val();
        self.h0_set.d.next = self.hq0_set.val();
        self.h1_len.d.next = self.hp1_len.val();
        self.h1_set.d.next = self.hp1_set.val();
        if self.trk.len_stored.val() & !self.i_len.val() {
            self.unheaded.d.next = self.unheaded.q.val() + 1;
        }
        if !self.trk.len_stored.val() & self.i_len.val() {
            self.unheaded.d.next = self.unheaded.q.val() - 1;
        }
        // Tokens: every byte consumed (popped, two for a last entry, or absorbed at arrival), one pulse
        // per cycle.
        // The bytes consumed this cycle, 0..3: the sum of three bits (`pop_two` only with `pop_any`).
        self.inc0.next = self.pop_any.val() ^ self.pop_two.val() ^ self.trk.absorbed.val();
        self.inc1.next = (self.pop_any.val() & self.pop_two.val())
            | (self.pop_any.val() & self.trk.absorbed.val())
            | (self.pop_two.val() & self.trk.absorbed.val());
        // A token leaves when one is owed after this cycle's: `owed' = owed + inc − 1` then.
        self.tok_n.next = (self.owed.q.val() != 0) | self.inc0.val() | self.inc1.val();
        self.dlt.next = 31.into();
        if self.inc0.val() {
            self.dlt.next = 0.into();
        }
        if self.inc1.val() {
            self.dlt.next = 1.into();
            if self.inc0.val() {
                self.dlt.next = 2.into();
            }
        }
        self.tok.d.next = self.tok_n.val();
        if self.tok_n.val() {
            self.owed.d.next = self.owed.q.val() + self.dlt.val();
        }
        // The requests, from the state after the edge: the packet in `Wait`, or the look-ahead packet when
        // the current one is near its end; the crossbar when one of its outputs is a candidate (or it is
        // in the matrix), else the queue. None in the cycle after a packet ended (V3.F), so they are
        // computed from the state after an edge at which no packet ends (`_r`: no header pop, `next_packet`
        // only from `Idle` or a dropped `R1`) and cleared by `ended`, which then reaches them through one
        // gate instead of the next packet's start.
        self.np0.next =
            (self.idle.val() & self.hp_v0.val()) | (self.r_pop.val() & !self.r_go.val());
        self.np_go0.next = self.np0.val() & self.hp_v0.val();
        self.s_wait_r.next = self.r_go.val()
            | (self.np_go0.val() & !self.lg1.val() & !self.lad1.val())
            | (self.s_wait.q.val() & !self.g_wait.val() & !self.a_wait.val());
        self.s_xbar_r.next = (self.np_go0.val() & self.lg1.val()) | self.x1.val();
        self.s_queue_r.next =
            (self.np_go0.val() & !self.lg1.val() & self.lad1.val()) | self.q1.val();
        self.cur_set_r.next = self.cur_set.q.val();
        self.cur_headed_r.next = self.cur_headed.q.val();
        self.rem_r.next = self.rem.q.val();
        if self.x_tk.val() | self.q_wr.val() | self.r_pop.val() {
            self.rem_r.next = self.rem_d.val();
        }
        if self.i_len.val() {
            self.cur_headed_r.next = false;
            self.rem_r.next = self.f_byte.val();
        }
        if self.r_go.val() {
            self.cur_set_r.next = self.f_byte.val();
        }
        if self.np0.val() {
            self.cur_headed_r.next = self.hp_v0.val();
        }
        if self.np_go0.val() {
            self.cur_set_r.next = self.hp0_set.val();
            self.rem_r.next = self.hp0_len.val();
        }
        self.la_v_n.next = self.hp_v0.val();
        self.la_len_n.next = self.hp0_len.val();
        self.la_set_n.next = self.hp0_set.val();
        if self.cur_headed_r.val() {
            self.la_v_n.next = self.hp_v1.val();
            self.la_len_n.next = self.hp1_len.val();
            self.la_set_n.next = self.hp1_set.val();
        }
        // Crossbar: `rem + 2 <= NEAR_END` offers left, `rem` in −1..=6; queue: `rem <= NEAR_END` entries. Both
        // tests of `rem_r` are made on each of its four sources (registers, or `rem − 1`) and chosen as
        // `rem_r` is, so the take or the write of this cycle reaches them through the last multiplexer only.
        self.rc[0].next = self.rem.q.val();
        self.rc[1].next = self.rem_d.val();
        self.rc[2].next = self.f_byte.val();
        self.rc[3].next = self.hp0_len.val();
        for k in 0..4 {
            self.nx[k].next = ((self.rc[k].val().get_bits::<5>(3) == 0)
                & (self.rc[k].val().get_bits::<3>(0) != 7))
                | (self.rc[k].val() == 255);
            self.nq[k].next = (self.rc[k].val().get_bits::<4>(4) == 0)
                & (!self.rc[k].val().get_bit(3) | (self.rc[k].val().get_bits::<3>(0) == 0));
        }
        self.nx_r.next = self.nx[0].val();
        self.nq_r.next = self.nq[0].val();
        if self.x_tk.val() | self.q_wr.val() | self.r_pop.val() {
            self.nx_r.next = self.nx[1].val();
            self.nq_r.next = self.nq[1].val();
        }
        if self.i_len.val() {
            self.nx_r.next = self.nx[2].val();
            self.nq_r.next = self.nq[2].val();
        }
        if self.np_go0.val() {
            self.nx_r.next = self.nx[3].val();
            self.nq_r.next = self.nq[3].val();
        }
        self.near_xn.next = self.s_xbar_r.val() & self.nx_r.val();
        self.near_qn.next = self.s_queue_r.val() & self.nq_r.val();
        self.la_ask.next = (self.near_xn.val() | self.near_qn.val())
            & self.la_v_n.val()
            & !(self.lg1.val() & !self.np0.val())
            & !(self.lad1.val() & !self.np0.val());
        self.asking.next = (self.s_wait_r.val() | self.la_ask.val()) & !self.ended.val();
        self.src_set.next = self.la_set_n.val();
        self.src_len.next = self.la_len_n.val();
        if self.s_wait_r.val() {
            self.src_set.next = self.cur_set_r.val();
            self.src_len.next = self.rem_r.val();
        }
        self.xreq.next = self.in_matrix.val() | ((self.src_set.val() & self.cand_free.val()) != 0);
        // `chunks_of(LEN)` from `LEN − 1` = m: `ceil(m / 8)`, at least 1.
        self.c_inc.next = 0.into();
        if (self.src_len.val().get_bits::<3>(0) != 0) | (self.src_len.val().get_bits::<5>(3) == 0) {
            self.c_inc.next = 1.into();
        }
        self.chunks.next = bit_cast::<6, 5>(self.src_len.val().get_bits::<5>(3)) + self.c_inc.val();
        self.req_r.d.next = 0.into();
        if self.asking.val() & self.xreq.val() {
            self.req_r.d.next = self.src_set.val();
        }
        self.ask_v.d.next = self.asking.val() & !self.xreq.val();
        self.ask_s.d.next = 0.into();
        self.ask_c.d.next = 0.into();
        if self.asking.val() & !self.xreq.val() {
            self.ask_s.d.next = self.src_set.val();
            self.ask_c.d.next = self.chunks.val();
        }
        self.near_r.d.next = self.near_xn.val() & !self.ended.val();
        // The cycle's RAM-port actions.
        self.write_valid.next = self.q_wr.val();
        self.write_chunk.next = 0.into();
        self.write_bank.next = 0.into();
        self.write_entry.next = 0.into();
        if self.q_wr.val() {
            self.write_chunk.next = self.w_chunk.val();
            self.write_bank.next = self.slot_bank.val();
            self.write_entry.next = self.fifo.head.val().get_bits::<ENTRY_BITS>(0);
        }
        self.pop.next = self.c_pop.val();
        self.link_valid.next = self.c_link.val();
        self.link_from.next = 0.into();
        self.link_to.next = 0.into();
        if self.c_link.val() {
            self.link_from.next = self.wchunk2.val();
            self.link_to.next = self.held3.val();
        }
        self.push_valid.next = self.c_push.val();
        self.push_out.next = 0.into();
        self.push_head.next = 0.into();
        self.push_first.next = 0.into();
        self.push_start.next = 0.into();
        self.push_writer.next = 0.into();
        if self.c_push.val() {
            self.push_out.next = self.push_o.q.val();
            self.push_head.next = self.push_h.q.val();
            self.push_first.next = self.push_f.q.val();
            self.push_start.next = self.start.q.val();
            self.push_writer.next = self.writer.val();
        }
    }
}
