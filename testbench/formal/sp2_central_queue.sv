// Chunk accounting of the v3 central queue (sp2_central_queue_v3, docs/sp2-switch.md V3.C), with one tracked
// chunk entry. The transmitters' side (`rd_req`) and the allocator's (`cand`, `xres`, `in_rows`, `in_cols`,
// `may_capture`) are arbitrary in every cycle; the receivers' admission requests are arbitrary (1..32
// chunks, as the port says). The receivers' RAM-port actions follow their contract (V3.C), which the
// wrapper keeps per receiver from what crosses the pins (`rx[r]`):
// - only the owner of the control slot (t mod 8, the wrapper's own count) pops, links or pushes; every field
//   of an action not taken is 0;
// - a receiver pops only a chunk it is owed: its first held chunk after reset, then the k chunks of each
//   admission (k: its request in the commit cycle), and only when it holds none (its held chunk was used);
// - it starts an admitted packet, and each further chunk of it, with a bank write of its held chunk; it
//   leaves a chunk only after all 8 banks of it are written, and a chunk that is not its packet's last only
//   after that chunk's link to its successor (the held chunk, or the one taken in the same slot) is written;
//   the entries of a chunk that is not its packet's last carry no end flag (bits 8, 9); the write of an entry
//   with an end flag into the packet's last chunk ends the packet, once it is pushed (earlier or in the same
//   cycle); it pushes each packet once, for its admitted output, with its first chunk;
// - its position (`wpos`) is the chunk it writes, as its writes leave it.
// Then, at the pins: an admission goes only to a receiver that asked in the commit cycle, for an output in
// its set, never a third packet to a receiver with two not started; a pop always finds the free list
// non-empty; a chunk taken (the solver's chunk C) is not taken again before it is read. With READS (in the
// job, whose depth reaches the first chunk reads: possible from cycle 11): per output, no more packet starts are read than packets pushed and no more chunks than the
// pushed packets have; the tracked entry (chunk C, bank B) is read back, when C's packet's chunk at C's
// position is read for the output it was pushed to, only after its writer left C and equal to the entry
// written there in C's current use.
// At the pins also: the free chunks (128 less the chunks taken plus the chunks read) cover the chunks owed to
// the receivers plus one chunk for every output without load (`load_nz`).
// WHITEBOX: the queue's free count equals the pins'; the room the admission compares with is exactly what
// the free chunks leave beyond that; its slot counter is the wrapper's.
// Written for `asr prove` (docs/formal.md); @TOP@ is the exported top.
module formal(input clock, input [7:0] ask_valid, input [63:0] ask_set, input [47:0] ask_chunks,
              input [7:0] wpos_valid, input [55:0] wpos, input [7:0] wr_valid, input [55:0] wr_chunk,
              input [79:0] wr_entry, input [7:0] pop, input [7:0] link_valid, input [55:0] link_from,
              input [55:0] link_to, input [7:0] push_valid, input [23:0] push_out, input [63:0] push_head,
              input [55:0] push_first, input [23:0] push_start, input [7:0] rd_req, input [7:0] cand,
              input [7:0] xres, input [7:0] in_rows, input [7:0] in_cols, input may_capture);
  wire [7:0] load_nz, adm_busy, rd_head;
  wire adm_valid, free_head_valid, rd_valid, rd_head_valid;
  wire [2:0] adm_rx, adm_out, rd_to, rd_start;
  wire [6:0] free_head;
  wire [79:0] rd_banks;
  @TOP@ dut (.clock(clock), .ask_valid(ask_valid), .ask_set(ask_set), .ask_chunks(ask_chunks),
             .wpos_valid(wpos_valid), .wpos(wpos), .wr_valid(wr_valid), .wr_chunk(wr_chunk),
             .wr_entry(wr_entry), .pop(pop), .link_valid(link_valid), .link_from(link_from),
             .link_to(link_to), .push_valid(push_valid), .push_out(push_out), .push_head(push_head),
             .push_first(push_first), .push_start(push_start), .rd_req(rd_req), .cand(cand), .xres(xres),
             .in_rows(in_rows), .in_cols(in_cols), .may_capture(may_capture), .load_nz(load_nz),
             .adm_valid(adm_valid), .adm_rx(adm_rx), .adm_out(adm_out), .adm_busy(adm_busy),
             .free_head_valid(free_head_valid), .free_head(free_head), .rd_valid(rd_valid), .rd_to(rd_to),
             .rd_banks(rd_banks), .rd_start(rd_start), .rd_head_valid(rd_head_valid), .rd_head(rd_head));

  // The tracked entry: chunk C, bank B.
  (* anyconst *) reg [6:0] C;
  (* anyconst *) reg [2:0] B;

  // The slot counter; the requests of the last cycle (an admission shown now was committed then).
  reg [2:0] t = 0;
  reg [7:0] ask_valid_q = 0;
  reg [63:0] ask_set_q = 0;
  reg [47:0] ask_chunks_q = 0;
  always @(posedge clock) begin
    t <= t + 1;
    ask_valid_q <= ask_valid;
    ask_set_q <= ask_set;
    ask_chunks_q <= ask_chunks;
  end

  // Free chunks counted at the pins: 128, less the pops, plus the chunks read (a chunk read at an edge is
  // back on the free list after it, and `rd_valid` shows it in the next cycle).
  reg [8:0] free_q = 128;
  wire [8:0] free_now = free_q + rd_valid;
  wire c_pop = |pop;
  always @(posedge clock) free_q <= free_now - c_pop;

  // Per output (`out[q]`, below): packets pushed, their chunks, packet starts and chunks read, and the chunks
  // read since the last start; flattened here for indexing.
  wire [63:0] pushes_f, heads_f, since_f;
  function automatic [7:0] at8(input [63:0] v, input [2:0] i);
    at8 = v[8*i +: 8];
  endfunction

  // The receivers' contract, and the tracked entry's history.
  wire [10:0] owed_now [0:7];
  wire [7:0] push_now;
  wire [5:0] push_k [0:7];
  wire [2:0] push_o [0:7];
  wire [7:0] t_wr;        // receiver r writes bank B of chunk C
  wire [7:0] t_cur;       // receiver r starts writing C (a packet's first chunk or a further one)
  wire [5:0] t_idx [0:7]; // its index in the packet
  wire [7:0] pushed_n;    // receiver r's packet is pushed after this cycle
  wire [7:0] pseq_n [0:7];// its number among its output's packets
  wire [7:0] act_w;
  wire [7:0] rec_any;     // receiver r has an admitted packet not started
  wire [6:0] cur_w [0:7];
  wire [9:0] t_entry [0:7];
  genvar r;
  generate
    for (r = 0; r < 8; r = r + 1) begin : rx
      reg act = 0, linked = 0, hv = 0, pushed = 0;
      reg [6:0] cur = 0, h = 0, first = 0;
      reg [5:0] krem = 0, kpkt = 0, cidx = 0;
      reg [2:0] o = 0;
      reg [7:0] owed = 1, mask = 0, pseq = 0;
      reg [1:0] nrec = 0;
      reg [2:0] rec_o0 = 0, rec_o1 = 0;
      reg [5:0] rec_k0 = 0, rec_k1 = 0;
      wire owner = t == r;
      wire [2:0] bank = t + r;
      wire [5:0] ak = ask_chunks[6*r +: 6];
      wire [6:0] wc = wr_chunk[7*r +: 7];
      wire [1:0] flags = wr_entry[10*r + 8 +: 2];
      wire adm_r = adm_valid && adm_rx == r;
      wire [5:0] k_adm = ask_chunks_q[6*r +: 6];
      assign owed_now[r] = owed + (adm_r ? k_adm : 0);
      wire [2:0] nrec_now = nrec + adm_r;
      // The oldest admitted packet not started (the one admitted now when there is no other).
      wire [2:0] next_o = nrec != 0 ? rec_o0 : adm_out;
      wire [5:0] next_k = nrec != 0 ? rec_k0 : k_adm;
      // This cycle's bank write: a packet's start, a chunk's start, or an entry of the chunk it writes.
      wire start = wr_valid[r] && !act;
      wire step = wr_valid[r] && act && wc != cur;
      wire inside = wr_valid[r] && act && wc == cur;
      wire ends = inside && flags != 0;
      wire [6:0] cur_n = start || step ? h : cur;
      wire [5:0] krem_n = start ? next_k : step ? krem - 1 : krem;
      wire act_n = start || (act && !ends);
      wire linked_n = start ? next_k == 1 : step ? krem == 2 : linked;
      wire [6:0] first_n = start ? h : first;
      wire [2:0] o_n = start ? next_o : o;
      wire hv_used = start || step;
      wire hv_n = (hv && !hv_used) || pop[r];
      wire [6:0] h_n = pop[r] ? free_head : h;
      always @* begin
        if (ask_valid[r]) assume (ak >= 1 && ak <= 32);
        // Admission: only a receiver that asked, for an output it permits; at most two not started.
        if (adm_r) begin
          assert (ask_valid_q[r] && ask_set_q[8*r + adm_out]);
          assert (nrec_now <= 2);
        end
        // The control slot.
        if (!owner) assume (!pop[r] && !link_valid[r] && !push_valid[r]);
        if (pop[r]) begin
          assume (owed_now[r] != 0 && (!hv || hv_used));
          assert (free_head_valid);
        end
        if (!link_valid[r]) assume (link_from[7*r +: 7] == 0 && link_to[7*r +: 7] == 0);
        else assume (act_n && !linked_n && link_from[7*r +: 7] == cur_n && hv_n
                     && link_to[7*r +: 7] == h_n);
        if (!push_valid[r])
          assume (push_out[3*r +: 3] == 0 && push_head[8*r +: 8] == 0 && push_first[7*r +: 7] == 0
                  && push_start[3*r +: 3] == 0);
        else assume (act_n && !pushed && push_first[7*r +: 7] == first_n && push_out[3*r +: 3] == o_n);
        // Bank writes.
        if (!wr_valid[r]) assume (wc == 0 && wr_entry[10*r +: 10] == 0);
        if (start) assume (nrec_now != 0 && hv && wc == h && flags == 0);
        if (step) assume (krem > 1 && linked && mask == 8'hff && hv && wc == h && flags == 0);
        if (ends) assume (krem == 1 && (pushed || push_valid[r]));
        if (inside && krem != 1) assume (flags == 0);
        // The position.
        assume (wpos_valid[r] == act && wpos[7*r +: 7] == (act ? cur : 7'd0));
      end
      always @(posedge clock) begin
        owed <= owed_now[r] - pop[r];
        act <= act_n;
        cur <= cur_n;
        krem <= krem_n;
        linked <= linked_n || link_valid[r];
        first <= first_n;
        o <= o_n;
        hv <= hv_n;
        h <= h_n;
        if (start) kpkt <= next_k;
        pushed <= pushed_n[r];
        pseq <= pseq_n[r];
        cidx <= start ? 0 : step ? cidx + 1 : cidx;
        mask <= start || step ? (8'h1 << bank) : wr_valid[r] ? mask | (8'h1 << bank) : mask;
        // The admitted packets not started: append the admission, drop the one started.
        if (start) begin
          if (nrec == 2) begin
            rec_o0 <= rec_o1; rec_k0 <= rec_k1; nrec <= adm_r ? 2 : 1;
            if (adm_r) begin rec_o1 <= adm_out; rec_k1 <= k_adm; end
          end else if (nrec == 1) begin
            if (adm_r) begin rec_o0 <= adm_out; rec_k0 <= k_adm; nrec <= 1; end
            else nrec <= 0;
          end else nrec <= 0;
        end else if (adm_r) begin
          if (nrec == 0) begin rec_o0 <= adm_out; rec_k0 <= k_adm; end
          else begin rec_o1 <= adm_out; rec_k1 <= k_adm; end
          nrec <= nrec + 1;
        end
      end
      assign push_now[r] = push_valid[r];
      assign push_k[r] = start ? next_k : kpkt;
      assign push_o[r] = o_n;
      assign t_wr[r] = wr_valid[r] && wc == C && bank == B;
      assign t_entry[r] = wr_entry[10*r +: 10];
      assign t_cur[r] = (start || step) && h == C;
      assign t_idx[r] = start ? 0 : cidx + 1;
      assign pushed_n[r] = start ? push_valid[r] : pushed || push_valid[r];
      assign pseq_n[r] = push_valid[r] ? at8(pushes_f, o_n) : pseq;
      assign act_w[r] = act;
      assign rec_any[r] = nrec != 0;
      assign cur_w[r] = cur;
    end
  endgenerate

  // The outputs without load.
  wire [3:0] empty = !load_nz[0] + !load_nz[1] + !load_nz[2] + !load_nz[3] + !load_nz[4] + !load_nz[5]
                     + !load_nz[6] + !load_nz[7];

  // The promise counted at the pins: the chunks the receivers are owed (one held chunk each after reset, + k
  // for the admission on the pins, − a pop; at most one receiver pops in a cycle). The free chunks cover it
  // and one chunk for every output without load (the deadlock-free rule).
  reg [10:0] owed_q = 8;
  wire [10:0] owed_all = owed_q + (adm_valid ? ask_chunks_q[6*adm_rx +: 6] : 0);
  always @(posedge clock) owed_q <= owed_all - c_pop;
  always @* assert ({2'b0, free_now} >= owed_all + empty);

  // Per output: starts and chunks read against the packets pushed.
  wire [2:0] pusher = push_now[1] ? 1 : push_now[2] ? 2 : push_now[3] ? 3 : push_now[4] ? 4 : push_now[5] ? 5
                      : push_now[6] ? 6 : push_now[7] ? 7 : 0;
  wire any_push = |push_now;
  wire [2:0] po = push_o[pusher];
  wire [5:0] pk = push_k[pusher];
  genvar q;
  generate
    for (q = 0; q < 8; q = q + 1) begin : out
      reg [7:0] pushes = 0, pushed_k = 0, heads = 0, reads = 0, since = 0;
      wire rd_q = rd_valid && rd_to == q;
      wire [7:0] heads_now = heads + (rd_q && rd_head_valid);
      wire [7:0] reads_now = reads + rd_q;
      assign pushes_f[8*q +: 8] = pushes;
      assign heads_f[8*q +: 8] = heads;
      assign since_f[8*q +: 8] = since;
`ifdef READS
      always @* begin
        assert (heads_now <= pushes);
        assert (reads_now <= pushed_k);
      end
`endif
      always @(posedge clock) begin
        heads <= heads_now;
        reads <= reads_now;
        since <= rd_q ? (rd_head_valid ? 8'd1 : since + 8'd1) : since;
        if (any_push && po == q) begin
          pushes <= pushes + 1;
          pushed_k <= pushed_k + pk;
        end
      end
    end
  endgenerate

  // The tracked entry: C taken (`tk`) by receiver `tr`, started as index `tidx` of its packet (`tst`); the
  // entry written to bank B in this use (`tval`, `twr`); its packet pushed (`tpu`) for output `to` as its
  // packet number `tseq`; C read (`tdone`).
  reg tk = 0, twr = 0, tst = 0, tpu = 0, tdone = 0;
  reg [2:0] tr = 0, to = 0;
  reg [5:0] tidx = 0;
  reg [7:0] tseq = 0;
  reg [9:0] tval = 0;
  wire [2:0] popper = pop[1] ? 1 : pop[2] ? 2 : pop[3] ? 3 : pop[4] ? 4 : pop[5] ? 5 : pop[6] ? 6
                      : pop[7] ? 7 : 0;
  wire t_pop = c_pop && free_head == C;
  wire rd_t = rd_valid && rd_to == to;
  // The chunk read at the last edge is C: its output, packet number and index.
  wire t_read = tk && tst && tpu && !tdone && rd_t && at8(heads_f, to) + rd_head_valid == tseq + 1
                && (rd_head_valid ? 6'd0 : at8(since_f, to)) == tidx;
  wire [9:0] rd_entry = rd_banks[10*B +: 10];
  always @(posedge clock) begin
    if (t_pop) begin
      tk <= 1; tr <= popper; twr <= 0; tst <= 0; tpu <= 0; tdone <= 0;
    end else if (tk && !tdone) begin
      if (t_wr[tr]) begin
        twr <= 1; tval <= t_entry[tr];
      end
      if (!tst && t_cur[tr]) begin
        tst <= 1; tidx <= t_idx[tr];
      end
      if (((!tst && t_cur[tr]) || (tst && !tpu)) && pushed_n[tr]) begin
        tpu <= 1; to <= push_o[tr]; tseq <= pseq_n[tr];
      end
      if (t_read) tdone <= 1;
    end
  end
  always @* begin
    // C is read back with its entry as written (when written in this use), after its writer left it.
`ifdef READS
    if (t_read) begin
      if (twr) assert (rd_entry == tval);
      assert (!(act_w[tr] && cur_w[tr] == C));
    end
`endif
    // C is not taken again before it is read.
    if (tk && !tdone) assert (!t_pop);
  end

  // Not vacuous (the job's `cover` task): a pop, an admission, two outputs loaded, a receiver with a second
  // admitted packet; under READS also a packet's first chunk read (possible from cycle 11); under READS_DEEP
  // a further chunk read and the tracked entry read back from its packet's second chunk.
  always @* begin
    cover (|pop);
    cover (adm_valid);
    cover (load_nz[0] + load_nz[1] + load_nz[2] + load_nz[3] + load_nz[4] + load_nz[5] + load_nz[6]
           + load_nz[7] >= 2);
    cover (adm_valid && rec_any[adm_rx]);
`ifdef READS
    cover (rd_valid && rd_head_valid);
`endif
`ifdef READS_DEEP
    // Beyond the job's depth (not reached at step 15 in 2.5 minutes).
    cover (rd_valid && !rd_head_valid);
    cover (t_read && twr && tidx == 1);
`endif
  end

`ifdef WHITEBOX
  // The queue's free count is the pins' (free + chunks in use = 128), its room register is what the free
  // chunks leave beyond the promise and one chunk for every output without load, and its slot counter is the
  // wrapper's.
  (* keep *) wire [7:0] fcnt, room;
  (* keep *) wire [2:0] slot;
  // A mutant's check may assume them instead (`WHITEBOX_ASSUMED`, proven of the design by the proof task).
`ifdef WHITEBOX_ASSUMED
`define WB_CHECK assume
`else
`define WB_CHECK assert
`endif
  always @* begin
    `WB_CHECK (fcnt == free_now);
    `WB_CHECK ({3'b0, room} == {2'b0, free_now} - owed_all - empty);
    `WB_CHECK (slot == t);
  end
`endif
endmodule
