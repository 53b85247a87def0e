//! The central queue's logic, one cycle: the bank writes, the control operations in the owners' slots, the
//! reads, the admission pipeline (see the module documentation of [`super`]).

use super::*;

impl Logic for CentralQueueV3 {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Clocks.
        self.nram.read_clock.next = self.clock.val();
        self.nram.write_clock.next = self.clock.val();
        self.pram_hs.read_clock.next = self.clock.val();
        self.pram_hs.write_clock.next = self.clock.val();
        self.pram_f.read_clock.next = self.clock.val();
        self.pram_f.write_clock.next = self.clock.val();
        self.rd_arb.clock.next = self.clock.val();
        self.adm_arb.clock.next = self.clock.val();
        dff_setup!(
            self, clock, t, toh, room, nz, sp_v, pb, rdv, rdt, rdb, rds, a_v, a_r, a_oh, a_set,
            a_k, b_v, b_r, b_oh, b_o, b_ooh, b_set, b_k, b_k1, adm_v, adm_r, adm_o, busy
        );
        for o in 0..8 {
            self.ld[o].clock.next = self.clock.val();
            self.pres[o].clock.next = self.clock.val();
            self.pcnt[o].clock.next = self.clock.val();
            self.prd[o].clock.next = self.clock.val();
            self.at[o].clock.next = self.clock.val();
            self.pt[o].clock.next = self.clock.val();
            self.rs[o].clock.next = self.clock.val();
            self.rdy[o].clock.next = self.clock.val();
            self.e0[o].clock.next = self.clock.val();
            self.e1[o].clock.next = self.clock.val();
            self.w0p[o].clock.next = self.clock.val();
            self.w1p[o].clock.next = self.clock.val();
            self.w0d[o].clock.next = self.clock.val();
            self.w1d[o].clock.next = self.clock.val();
        }

        // ---- The slot counter.
        self.t.d.next = self.t.q.val() + 1;
        self.toh.d.next = (self.toh.q.val() << 1) | (self.toh.q.val() >> 7);

        // ---- The banks ([`Banks`]) and the read of the last edge: its entries, its end, its start bank.
        self.banks.clock.next = self.clock.val();
        self.banks.t.next = self.t.q.val();
        self.banks.wr_valid.next = self.wr_valid.val();
        self.banks.wr_chunk.next = self.wr_chunk.val();
        self.banks.wr_entry.next = self.wr_entry.val();
        self.rd_end.next = self.banks.ends.val();
        self.st_now.next = self.rds.q.val();
        self.rd_head.next = 0.into();
        if self.rdb.q.val() {
            self.st_now.next = self.pram_hs.read_data.val().get_bits::<3>(8);
            self.rd_head.next = self.pram_hs.read_data.val().get_bits::<8>(0);
        }
        self.rd_valid.next = self.rdv.q.val();
        self.rd_to.next = self.rdt.q.val();
        self.rd_banks.next = self.banks.data.val();
        self.rd_start.next = self.st_now.val();
        self.rd_head_valid.next = self.rdb.q.val();

        // ---- The control slot: the owner's operations (the others drive 0).
        self.c_pop.next = self.pop.val().any();
        self.c_lv.next = self.link_valid.val().any();
        self.c_pv.next = self.push_valid.val().any();
        self.lfa[0].next = 0.into();
        self.lta[0].next = 0.into();
        self.poa[0].next = 0.into();
        self.pha[0].next = 0.into();
        self.pfa[0].next = 0.into();
        self.psa[0].next = 0.into();
        for r in 0..8 {
            self.lfa[r + 1].next =
                self.lfa[r].val() | self.link_from.val().get_bits::<7>(self.o7[r].val().index());
            self.lta[r + 1].next =
                self.lta[r].val() | self.link_to.val().get_bits::<7>(self.o7[r].val().index());
            self.poa[r + 1].next =
                self.poa[r].val() | self.push_out.val().get_bits::<3>(self.o3[r].val().index());
            self.pha[r + 1].next =
                self.pha[r].val() | self.push_head.val().get_bits::<8>(self.o8[r].val().index());
            self.pfa[r + 1].next = self.pfa[r].val()
                | self
                    .push_first
                    .val()
                    .get_bits::<7>(self.o7[r].val().index());
            self.psa[r + 1].next = self.psa[r].val()
                | self
                    .push_start
                    .val()
                    .get_bits::<3>(self.o3[r].val().index());
        }
        self.nram.write_enable.next = self.c_lv.val();
        self.nram.write_address.next = self.lfa[8].val();
        self.nram.write_data.next = self.lta[8].val();

        // ---- Reads: who can read (`rdy`, registered at the last edge), the pick, its chunk.
        // Each receiver's position after this edge: its write's chunk, or none when the write ends its
        // packet; without a write, its position now (the receiver's `wpos` register follows its write so).
        for w in 0..8 {
            self.wnv[w].next = self.wpos_valid.val().get_bit(w);
            self.wnc[w].next = self.wpos.val().get_bits::<7>(self.o7[w].val().index());
            if self.wr_valid.val().get_bit(w) {
                self.wnv[w].next = !(self.wr_entry.val().get_bit(10 * w + 8)
                    | self.wr_entry.val().get_bit(10 * w + 9));
                self.wnc[w].next = self.wr_chunk.val().get_bits::<7>(self.o7[w].val().index());
            }
        }
        // The reading output's next head: read with the chunk, or pushed at the last edge.
        self.hs.next = self.pb.q.val();
        if self.sp_v.q.val() {
            self.hs.next = self.pram_f.read_data.val();
        }
        // The candidates for a pointer after this edge other than its own register (the chunk's link,
        // the next head read with it, the chunk pushed now), each against every position: written after
        // this edge? (Compared before the choice, so no RAM output passes a multiplexer first.)
        self.cn[0].next = false;
        self.ch[0].next = false;
        self.cf[0].next = false;
        for w in 0..8 {
            self.cn[w + 1].next = self.cn[w].val()
                | (self.wnv[w].val() & (self.wnc[w].val() == self.nram.read_data.val()));
            self.ch[w + 1].next =
                self.ch[w].val() | (self.wnv[w].val() & (self.wnc[w].val() == self.hs.val()));
            self.cf[w + 1].next =
                self.cf[w].val() | (self.wnv[w].val() & (self.wnc[w].val() == self.pfa[8].val()));
        }
        self.rqa[0].next = 0.into();
        for o in 0..8 {
            self.reading[o].next = self.rdv.q.val() & (self.rdt.q.val() == self.idx[o].val());
            // After this edge some receiver writes the pointer's chunk (only its writer can): the pointer
            // register's chunk, or the new pointer's, chosen as `ptn` is.
            self.blk[o * 9].next = false;
            for w in 0..8 {
                self.blk[o * 9 + w + 1].next = self.blk[o * 9 + w].val()
                    | (self.wnv[w].val() & (self.wnc[w].val() == self.pt[o].q.val()));
            }
            self.bsel[o].next = self.blk[o * 9 + 8].val();
            if !self.at[o].q.val() & !self.pcnt[o].q.val().any() {
                self.bsel[o].next = self.cf[8].val();
            }
            if self.reading[o].val() {
                self.bsel[o].next = self.cn[8].val();
                if self.rd_end.val() {
                    self.bsel[o].next = self.ch[8].val();
                    if !self.pcnt[o].q.val().any() {
                        self.bsel[o].next = self.cf[8].val();
                    }
                }
            }
            self.rdy[o].d.next = !self.rd_arb.onehot.val().get_bit(o)
                & (self.atn[o].val() | self.pcn[o].val().any())
                & !self.bsel[o].val();
            if self.rd_req.val().get_bit(o) & self.rdy[o].q.val() {
                self.rqa[o + 1].next = self.rqa[o].val() | self.bit[o].val();
            } else {
                self.rqa[o + 1].next = self.rqa[o].val();
            }
        }
        self.rd_arb.req.next = self.rqa[8].val();
        self.rca[0].next = 0.into();
        self.rba[0].next = false;
        self.rsa[0].next = 0.into();
        self.rpa[0].next = 0.into();
        self.rna[0].next = false;
        for o in 0..8 {
            self.pop_o[o].next = self.rd_arb.onehot.val().get_bit(o) & !self.at[o].q.val();
            if self.rd_arb.onehot.val().get_bit(o) {
                self.rca[o + 1].next = self.rca[o].val() | self.pt[o].q.val();
                self.rpa[o + 1].next = self.rpa[o].val() | self.prd[o].q.val();
            } else {
                self.rca[o + 1].next = self.rca[o].val();
                self.rpa[o + 1].next = self.rpa[o].val();
            }
            if self.rd_arb.onehot.val().get_bit(o) & self.at[o].q.val() {
                self.rsa[o + 1].next = self.rsa[o].val() | self.rs[o].q.val();
            } else {
                self.rsa[o + 1].next = self.rsa[o].val();
            }
            self.rba[o + 1].next = self.rba[o].val() | self.pop_o[o].val();
            // Its next packet's first chunk is in `pram_f` (inside a packet: the FIFO's head; at a start:
            // the one after it).
            if self.at[o].q.val() {
                self.rna[o + 1].next = self.rna[o].val()
                    | (self.rd_arb.onehot.val().get_bit(o) & self.pcnt[o].q.val().any());
            } else {
                self.rna[o + 1].next = self.rna[o].val()
                    | (self.rd_arb.onehot.val().get_bit(o)
                        & self.pcnt[o].q.val().get_bits::<4>(1).any());
            }
        }
        self.rd_c.next = self.rca[8].val();
        self.rd_prd.next = self.rpa[8].val();
        self.rd_prd1.next = self.rpa[8].val();
        if self.rba[8].val() {
            self.rd_prd1.next = self.rpa[8].val() + 1;
        }
        self.banks.read_address.next = self.rd_c.val();
        self.nram.read_address.next = self.rd_c.val();
        self.pram_hs.read_address.next =
            (bit_cast::<7, 3>(self.rd_arb.grant.val()) << 4) | bit_cast::<7, 4>(self.rd_prd.val());
        self.pram_f.read_address.next =
            (bit_cast::<7, 3>(self.rd_arb.grant.val()) << 4) | bit_cast::<7, 4>(self.rd_prd1.val());
        self.rdv.d.next = self.rd_arb.grant_valid.val();
        self.rdt.d.next = self.rd_arb.grant.val();
        self.rdb.d.next = self.rba[8].val();
        self.rds.d.next = self.rsa[8].val();
        self.sp_v.d.next = self.rna[8].val();
        self.pb.d.next = self.pfa[8].val();

        // ---- The free list ([`FreeList`]): the chunk read is pushed, the owner pops.
        self.free.clock.next = self.clock.val();
        self.free.pop.next = self.c_pop.val();
        self.free.push.next = self.rd_arb.grant_valid.val();
        self.free.push_c.next = self.rd_c.val();
        self.free_head_valid.next = self.free.valid.val();
        self.free_head.next = self.free.head.val();

        // ---- Admission stage C: the candidate of stage B, checked and committed.
        self.cva[0].next = false;
        self.csa[0].next = 0.into();
        self.cka[0].next = 0.into();
        self.pfa_full[0].next = false;
        self.e1a[0].next = 0.into();
        for r in 0..8 {
            if self.b_oh.q.val().get_bit(r) {
                self.cva[r + 1].next = self.cva[r].val() | self.ask_valid.val().get_bit(r);
                self.csa[r + 1].next =
                    self.csa[r].val() | self.ask_set.val().get_bits::<8>(self.o8[r].val().index());
                self.cka[r + 1].next = self.cka[r].val()
                    | self
                        .ask_chunks
                        .val()
                        .get_bits::<6>(self.o6[r].val().index());
            } else {
                self.cva[r + 1].next = self.cva[r].val();
                self.csa[r + 1].next = self.csa[r].val();
                self.cka[r + 1].next = self.cka[r].val();
            }
            self.pfa_full[r + 1].next = self.pfa_full[r].val()
                | (self.b_ooh.q.val().get_bit(r) & self.pres[r].q.val().get_bit(4));
            if self.e1[r].q.val() {
                self.e1a[r + 1].next = self.e1a[r].val() | self.bit[r].val();
            } else {
                self.e1a[r + 1].next = self.e1a[r].val();
            }
        }
        // Room: `room + (the output has no load) ≥ k`, both comparisons from registers, the output's
        // reserved chunk its own when it has no load (`room` counts one for it).
        self.z_b.next = (self.b_ooh.q.val() & !self.nz.q.val()).any();
        self.bk8.next = bit_cast::<8, 6>(self.b_k.q.val());
        self.kz8.next = self.bk8.val();
        self.fits.next = self.room.q.val() >= self.bk8.val();
        if self.z_b.val() {
            self.kz8.next = bit_cast::<8, 6>(self.b_k1.q.val());
            self.fits.next = self.room.q.val() >= bit_cast::<8, 6>(self.b_k1.q.val());
        }
        self.adm_go.next = self.b_v.q.val()
            & self.cva[8].val()
            & (self.csa[8].val() == self.b_set.q.val())
            & (self.cka[8].val() == self.b_k.q.val())
            & !(self.in_rows.val() & self.b_oh.q.val()).any()
            & !(self.e1a[8].val() & self.b_oh.q.val()).any()
            & !((self.in_cols.val() | self.xres.val()) & self.b_ooh.q.val()).any()
            & !(self.may_capture.val() & (self.cand.val() & self.b_ooh.q.val()).any())
            & self.fits.val()
            & !self.pfa_full[8].val();
        self.adm_v.d.next = self.adm_go.val();
        self.adm_r.d.next = 0.into();
        self.adm_o.d.next = 0.into();
        if self.adm_go.val() {
            self.adm_r.d.next = self.b_r.q.val();
            self.adm_o.d.next = self.b_o.q.val();
        }
        self.adm_valid.next = self.adm_v.q.val();
        self.adm_rx.next = self.adm_r.q.val();
        self.adm_out.next = self.adm_o.q.val();

        // ---- Stage B: the least-loaded permitted output of stage A's candidate.
        self.mset.next = self.a_set.q.val() & !(self.in_cols.val() | self.xres.val());
        self.lk[0].next = bit_cast::<9, 8>(self.ld[0].q.val());
        if !self.mset.val().get_bit(0) {
            self.lk[0].next = bit_cast::<9, 8>(self.ld[0].q.val()) | self.inf.val();
        }
        self.lk[1].next = bit_cast::<9, 8>(self.ld[1].q.val());
        if !self.mset.val().get_bit(1) {
            self.lk[1].next = bit_cast::<9, 8>(self.ld[1].q.val()) | self.inf.val();
        }
        self.lk[2].next = bit_cast::<9, 8>(self.ld[2].q.val());
        if !self.mset.val().get_bit(2) {
            self.lk[2].next = bit_cast::<9, 8>(self.ld[2].q.val()) | self.inf.val();
        }
        self.lk[3].next = bit_cast::<9, 8>(self.ld[3].q.val());
        if !self.mset.val().get_bit(3) {
            self.lk[3].next = bit_cast::<9, 8>(self.ld[3].q.val()) | self.inf.val();
        }
        self.lk[4].next = bit_cast::<9, 8>(self.ld[4].q.val());
        if !self.mset.val().get_bit(4) {
            self.lk[4].next = bit_cast::<9, 8>(self.ld[4].q.val()) | self.inf.val();
        }
        self.lk[5].next = bit_cast::<9, 8>(self.ld[5].q.val());
        if !self.mset.val().get_bit(5) {
            self.lk[5].next = bit_cast::<9, 8>(self.ld[5].q.val()) | self.inf.val();
        }
        self.lk[6].next = bit_cast::<9, 8>(self.ld[6].q.val());
        if !self.mset.val().get_bit(6) {
            self.lk[6].next = bit_cast::<9, 8>(self.ld[6].q.val()) | self.inf.val();
        }
        self.lk[7].next = bit_cast::<9, 8>(self.ld[7].q.val());
        if !self.mset.val().get_bit(7) {
            self.lk[7].next = bit_cast::<9, 8>(self.ld[7].q.val()) | self.inf.val();
        }
        for p in 0..4 {
            if self.lk[2 * p + 1].val() < self.lk[2 * p].val() {
                self.l1k[p].next = self.lk[2 * p + 1].val();
                self.l1i[p].next = self.idx[2 * p + 1].val();
            } else {
                self.l1k[p].next = self.lk[2 * p].val();
                self.l1i[p].next = self.idx[2 * p].val();
            }
        }
        for p in 0..2 {
            if self.l1k[2 * p + 1].val() < self.l1k[2 * p].val() {
                self.l2k[p].next = self.l1k[2 * p + 1].val();
                self.l2i[p].next = self.l1i[2 * p + 1].val();
            } else {
                self.l2k[p].next = self.l1k[2 * p].val();
                self.l2i[p].next = self.l1i[2 * p].val();
            }
        }
        if self.l2k[1].val() < self.l2k[0].val() {
            self.l3i.next = self.l2i[1].val();
        } else {
            self.l3i.next = self.l2i[0].val();
        }
        self.booa[0].next = 0.into();
        for o in 0..8 {
            if self.l3i.val() == self.idx[o].val() {
                self.booa[o + 1].next = self.booa[o].val() | self.bit[o].val();
            } else {
                self.booa[o + 1].next = self.booa[o].val();
            }
        }
        self.b_v.d.next = self.a_v.q.val() & self.mset.val().any();
        self.b_ohn.next = 0.into();
        if self.mset.val().any() {
            self.b_ohn.next = self.a_oh.q.val();
        }
        self.b_oh.d.next = self.b_ohn.val();
        self.b_r.d.next = self.a_r.q.val();
        self.b_o.d.next = self.l3i.val();
        self.b_ooh.d.next = self.booa[8].val();
        self.b_set.d.next = self.a_set.q.val();
        self.b_k.d.next = self.a_k.q.val();
        self.b_k1.d.next = self.a_k.q.val() - 1;

        // ---- Stage A: a receiver that asks, round robin.
        self.adm_arb.req.next =
            self.ask_valid.val() & !self.in_rows.val() & !self.e1a[8].val() & !self.busy.q.val();
        self.asa[0].next = 0.into();
        self.aka[0].next = 0.into();
        for r in 0..8 {
            if self.adm_arb.onehot.val().get_bit(r) {
                self.asa[r + 1].next =
                    self.asa[r].val() | self.ask_set.val().get_bits::<8>(self.o8[r].val().index());
                self.aka[r + 1].next = self.aka[r].val()
                    | self
                        .ask_chunks
                        .val()
                        .get_bits::<6>(self.o6[r].val().index());
            } else {
                self.asa[r + 1].next = self.asa[r].val();
                self.aka[r + 1].next = self.aka[r].val();
            }
        }
        self.a_v.d.next = self.adm_arb.grant_valid.val();
        self.a_r.d.next = self.adm_arb.grant.val();
        self.a_oh.d.next = self.adm_arb.onehot.val();
        self.a_set.d.next = self.asa[8].val();
        self.a_k.d.next = self.aka[8].val();
        self.busy.d.next = self.adm_arb.onehot.val() | self.b_ohn.val();
        if self.adm_go.val() {
            self.busy.d.next = self.adm_arb.onehot.val() | self.b_ohn.val() | self.b_oh.q.val();
        }
        self.adm_busy.next = self.busy.q.val();

        // ---- Room, loads, packet counts, packet FIFOs, read pointers.
        // The pushing output's write index, `prd + pcnt` (mod 16), one adder for all outputs.
        self.pwa[0].next = 0.into();
        self.pca[0].next = 0.into();
        for o in 0..8 {
            if self.poa[8].val() == self.idx[o].val() {
                self.pwa[o + 1].next = self.pwa[o].val() | self.prd[o].q.val();
                self.pca[o + 1].next = self.pca[o].val() | self.pcnt[o].q.val().get_bits::<4>(0);
            } else {
                self.pwa[o + 1].next = self.pwa[o].val();
                self.pca[o + 1].next = self.pca[o].val();
            }
        }
        self.pwi.next = self.pwa[8].val() + self.pca[8].val();
        self.pram_hs.write_enable.next = self.c_pv.val();
        self.pram_f.write_enable.next = self.c_pv.val();
        self.pram_hs.write_address.next =
            (bit_cast::<7, 3>(self.poa[8].val()) << 4) | bit_cast::<7, 4>(self.pwi.val());
        self.pram_f.write_address.next =
            (bit_cast::<7, 3>(self.poa[8].val()) << 4) | bit_cast::<7, 4>(self.pwi.val());
        self.pram_hs.write_data.next =
            (bit_cast::<11, 3>(self.psa[8].val()) << 8) | bit_cast::<11, 8>(self.pha[8].val());
        self.pram_f.write_data.next = self.pfa[8].val();
        // The admitted output's load, one adder: + the admitted chunks, − a chunk read from it now.
        self.lsa[0].next = 0.into();
        for o in 0..8 {
            if self.b_ooh.q.val().get_bit(o) {
                self.lsa[o + 1].next = self.lsa[o].val() | self.ld[o].q.val();
            } else {
                self.lsa[o + 1].next = self.lsa[o].val();
            }
        }
        self.l_rb.next = (self.rd_arb.onehot.val() & self.b_ooh.q.val()).any();
        self.l_s1.next = self.lsa[8].val() + self.bk8.val();
        self.l_adm.next = self.l_s1.val();
        if self.l_rb.val() {
            self.l_adm.next = self.l_s1.val() - 1;
        }
        // The room at the edge: + the chunk read (unless it was its output's last: that output's reserve
        // comes back), − k less the output's reserve when admitted (a read of the admitted output's last
        // chunk leaves it loaded).
        self.ld1[0].next = 0.into();
        for o in 0..8 {
            if self.ld[o].q.val() == 1 {
                self.ld1[o + 1].next = self.ld1[o].val() | self.bit[o].val();
            } else {
                self.ld1[o + 1].next = self.ld1[o].val();
            }
        }
        self.r_one.next = (self.rd_arb.onehot.val() & self.ld1[8].val()).any();
        self.rm0.next = self.room.q.val();
        if self.rd_arb.grant_valid.val() & !self.r_one.val() {
            self.rm0.next = self.room.q.val() + 1;
        }
        self.rm1.next = self.room.q.val() - self.kz8.val();
        if self.rd_arb.grant_valid.val() & (!self.r_one.val() | self.l_rb.val()) {
            self.rm1.next = self.room.q.val() - self.kz8.val() + 1;
        }
        self.room.d.next = self.rm0.val();
        if self.adm_go.val() {
            self.room.d.next = self.rm1.val();
        }
        // Outputs with load at the edge: those that keep one (not reading their last chunk) and the one
        // admitted (its new load is at least k ≥ 1).
        self.nz_keep.next = self.nz.q.val() & !(self.rd_arb.onehot.val() & self.ld1[8].val());
        for o in 0..8 {
            self.push_o[o].next = self.c_pv.val() & (self.poa[8].val() == self.idx[o].val());
            self.adm_here[o].next = self.adm_go.val() & self.b_ooh.q.val().get_bit(o);
            // Loads: − the chunk read, or the admitted output's new load.
            self.ldr[o].next = self.ld[o].q.val() - 1;
            self.ldn[o].next = self.ld[o].q.val();
            if self.rd_arb.onehot.val().get_bit(o) {
                self.ldn[o].next = self.ldr[o].val();
            }
            if self.adm_here[o].val() {
                self.ldn[o].next = self.l_adm.val();
            }
            self.ld[o].d.next = self.ldn[o].val();
            // Packets for o: + an admission, − a start.
            self.pres[o].d.next = self.pres[o].q.val();
            if self.adm_here[o].val() & !self.pop_o[o].val() {
                self.pres[o].d.next = self.pres[o].q.val() + 1;
            }
            if !self.adm_here[o].val() & self.pop_o[o].val() {
                self.pres[o].d.next = self.pres[o].q.val() - 1;
            }
            // The packet FIFO.
            self.pcn[o].next = self.pcnt[o].q.val();
            self.prd[o].d.next = self.prd[o].q.val();
            if self.pop_o[o].val() {
                self.prd[o].d.next = self.prd[o].q.val() + 1;
                if !self.push_o[o].val() {
                    self.pcn[o].next = self.pcnt[o].q.val() - 1;
                }
            } else if self.push_o[o].val() {
                self.pcn[o].next = self.pcnt[o].q.val() + 1;
            }
            self.pcnt[o].d.next = self.pcn[o].val();
            // The read pointer: the chunk read at the last edge leads to its link, or out of its packet to
            // the FIFO's head (a packet pushed into the empty FIFO now, or the head read with the chunk, or
            // pushed at the last edge); between packets it stays at the head, or takes the packet pushed
            // into the empty FIFO (with an empty FIFO, and in the cycle after a start, its value is not
            // used).
            self.atn[o].next = self.at[o].q.val();
            self.ptn[o].next = self.pt[o].q.val();
            if !self.at[o].q.val() & !self.pcnt[o].q.val().any() {
                self.ptn[o].next = self.pfa[8].val();
            }
            self.rs[o].d.next = self.rs[o].q.val();
            if self.reading[o].val() {
                self.atn[o].next = !self.rd_end.val();
                self.ptn[o].next = self.nram.read_data.val();
                if self.rd_end.val() {
                    self.ptn[o].next = self.hs.val();
                    if !self.pcnt[o].q.val().any() {
                        self.ptn[o].next = self.pfa[8].val();
                    }
                }
                self.rs[o].d.next = self.st_now.val();
            }
            self.at[o].d.next = self.atn[o].val();
            self.pt[o].d.next = self.ptn[o].val();
        }
        self.nz.d.next = self.nz_keep.val();
        if self.adm_go.val() {
            self.nz.d.next = self.nz_keep.val() | self.b_ooh.q.val();
        }
        self.load_nz.next = self.nz.q.val();

        // ---- Writer records: the owner's, in one datapath (only it pops and pushes).
        self.oe0a[0].next = false;
        self.oe1a[0].next = false;
        self.od0a[0].next = false;
        self.od1a[0].next = false;
        self.op0a[0].next = 0.into();
        self.op1a[0].next = 0.into();
        for r in 0..8 {
            if self.toh.q.val().get_bit(r) {
                self.oe0a[r + 1].next = self.oe0a[r].val() | self.e0[r].q.val();
                self.oe1a[r + 1].next = self.oe1a[r].val() | self.e1[r].q.val();
                self.od0a[r + 1].next = self.od0a[r].val() | self.w0d[r].q.val();
                self.od1a[r + 1].next = self.od1a[r].val() | self.w1d[r].q.val();
                self.op0a[r + 1].next = self.op0a[r].val() | self.w0p[r].q.val();
                self.op1a[r + 1].next = self.op1a[r].val() | self.w1p[r].q.val();
            } else {
                self.oe0a[r + 1].next = self.oe0a[r].val();
                self.oe1a[r + 1].next = self.oe1a[r].val();
                self.od0a[r + 1].next = self.od0a[r].val();
                self.od1a[r + 1].next = self.od1a[r].val();
                self.op0a[r + 1].next = self.op0a[r].val();
                self.op1a[r + 1].next = self.op1a[r].val();
            }
        }
        // A pop counts for the first record with pops left, a push marks the first record not pushed.
        self.n0p.next = self.op0a[8].val();
        self.n1p.next = self.op1a[8].val();
        if self.c_pop.val() {
            if self.oe0a[8].val() & self.op0a[8].val().any() {
                self.n0p.next = self.op0a[8].val() - 1;
            } else if self.oe1a[8].val() & self.op1a[8].val().any() {
                self.n1p.next = self.op1a[8].val() - 1;
            }
        }
        self.n0d.next = self.od0a[8].val();
        self.n1d.next = self.od1a[8].val();
        if self.c_pv.val() {
            if self.oe0a[8].val() & !self.od0a[8].val() {
                self.n0d.next = true;
            } else if self.oe1a[8].val() & !self.od1a[8].val() {
                self.n1d.next = true;
            }
        }
        // The first record retires when its pops are taken and it is pushed.
        self.f_e0.next = self.oe0a[8].val();
        self.f_e1.next = self.oe1a[8].val();
        self.f_0p.next = self.n0p.val();
        self.f_1p.next = self.n1p.val();
        self.f_0d.next = self.n0d.val();
        self.f_1d.next = self.n1d.val();
        if self.oe0a[8].val() & !self.n0p.val().any() & self.n0d.val() {
            self.f_e0.next = self.oe1a[8].val();
            self.f_e1.next = false;
            self.f_0p.next = self.n1p.val();
            self.f_0d.next = self.n1d.val();
        }
        for r in 0..8 {
            self.e0[r].d.next = self.e0[r].q.val();
            self.e1[r].d.next = self.e1[r].q.val();
            self.w0p[r].d.next = self.w0p[r].q.val();
            self.w1p[r].d.next = self.w1p[r].q.val();
            self.w0d[r].d.next = self.w0d[r].q.val();
            self.w1d[r].d.next = self.w1d[r].q.val();
            self.ce0[r].next = self.e0[r].q.val();
            if self.toh.q.val().get_bit(r) {
                self.e0[r].d.next = self.f_e0.val();
                self.e1[r].d.next = self.f_e1.val();
                self.w0p[r].d.next = self.f_0p.val();
                self.w1p[r].d.next = self.f_1p.val();
                self.w0d[r].d.next = self.f_0d.val();
                self.w1d[r].d.next = self.f_1d.val();
                self.ce0[r].next = self.f_e0.val();
            }
            // The admitted packet is appended.
            if self.adm_go.val() & self.b_oh.q.val().get_bit(r) {
                if self.ce0[r].val() {
                    self.e1[r].d.next = true;
                    self.w1p[r].d.next = self.b_k.q.val();
                    self.w1d[r].d.next = false;
                } else {
                    self.e0[r].d.next = true;
                    self.w0p[r].d.next = self.b_k.q.val();
                    self.w0d[r].d.next = false;
                }
            }
        }
    }
}
