// Properties of the v3 crossbar allocator (sp2_allocator_v3, docs/sp2-switch.md V3.A, V3.D), for all inputs in
// every reachable state (k-induction). Row = receiver, column = transmitter. The wrapper sees a capture at the
// pins exactly as V3.D and the model define it: in a cycle with `may_capture`, the matrix
// R[i] = req[i] & cand & !load_nz & !grant_valid (rows in adm_busy or granted in this cycle left out) is
// captured when it is not empty. Proven:
//   - one matrix at a time: `may_capture` is low in the four cycles after a capture and high otherwise;
//   - grants come 5 cycles after the capture (LATENCY), only then, and only inside the captured matrix: a
//     transmitter is granted only a receiver that requested it, while it was a candidate without queue
//     load, neither of them busy (adm_busy) nor granted in the capture's cycle;
//   - a matching: one receiver per column (its 3-bit number, 0 when not granting), no receiver in two columns;
//   - a non-empty matrix gets at least one grant (no matrix lost);
//   - `rows` and `cols` are the captured matrix's rows and columns from the cycle after its capture to its
//     grants' cycle, and 0 otherwise.
// WHITEBOX: the one-hot phase follows the capture (phase k in its cycle k+1); ring position p holds row
// (p + 2k) mod 8 of the captured matrix in phase k; every row's assignment is one of its requested columns
// (one-hot, none only for an empty row); the rows the allocator remembers as granted are those on the grant
// pins (the round-robin arbiters need no invariant: every pointer value is a legal state). Written for
// `asr prove` (docs/formal.md); @TOP@ is the exported top.
module formal(input clock, input [63:0] req, input [7:0] cand, input [7:0] load_nz, input [7:0] adm_busy);
  wire [7:0] grant_valid, rows, cols;
  wire [23:0] grant;
  wire may_capture;
  @TOP@ dut (.clock(clock), .req(req), .cand(cand), .load_nz(load_nz), .adm_busy(adm_busy),
             .grant_valid(grant_valid), .grant(grant), .rows(rows), .cols(cols), .may_capture(may_capture));

  // The matrix a capture takes in this cycle, from the pins.
  reg [7:0] rows_g;
  reg [63:0] rn;
  integer i, o;
  always @* begin
    rows_g = 0;
    for (o = 0; o < 8; o = o + 1)
      if (grant_valid[o]) rows_g = rows_g | (8'd1 << grant[3*o +: 3]);
    for (i = 0; i < 8; i = i + 1)
      rn[8*i +: 8] = (adm_busy[i] || rows_g[i]) ? 8'd0 : req[8*i +: 8] & cand & ~load_nz & ~grant_valid;
  end
  wire cap = may_capture && rn != 0;
  // The captured matrix, its rows and columns, and the cycles since its capture (0: none within 5).
  reg [63:0] rcap = 0;
  reg [2:0] cnt = 0;
  always @(posedge clock) begin
    if (cap) rcap <= rn;
    cnt <= cap ? 3'd1 : (cnt == 0 || cnt == 5) ? 3'd0 : cnt + 3'd1;
  end
  reg [7:0] rcap_rows, rcap_cols;
  always @* begin
    rcap_rows = 0;
    rcap_cols = 0;
    for (i = 0; i < 8; i = i + 1) begin
      if (rcap[8*i +: 8] != 0) rcap_rows[i] = 1;
      rcap_cols = rcap_cols | rcap[8*i +: 8];
    end
  end

  wire shown = cnt != 0;
  always @* begin
    assert (cnt <= 5);
    assert (may_capture == (cnt == 0 || cnt == 5));      // one matrix at a time
    if (grant_valid != 0) assert (cnt == 5);              // grants only 5 cycles after a capture
    if (cnt == 5 && rcap != 0) assert (grant_valid != 0); // no matrix lost
    assert (rows == (shown ? rcap_rows : 8'd0));
    assert (cols == (shown ? rcap_cols : 8'd0));
  end
  genvar j, k;
  generate
    for (j = 0; j < 8; j = j + 1) begin : col
      wire [2:0] row = grant[3*j +: 3];
      always @* begin
        if (grant_valid[j]) assert (rcap[8*row + j]);   // inside the captured matrix
        else assert (row == 0);
      end
      for (k = j + 1; k < 8; k = k + 1) begin : other
        always @* assert (!(grant_valid[j] && grant_valid[k] && grant[3*k +: 3] == row));
      end
    end
  endgenerate

  // Not vacuous (the job's `cover` task): a grant; two columns granted at once; a capture in the grants'
  // cycle (back to back); a captured row left without a grant.
  always @* begin
    cover (grant_valid != 0);
    cover (grant_valid[0] && grant_valid[7]);
    cover (cnt == 5 && cap);
    cover (cnt == 5 && (rows & ~rows_g) != 0);
  end

`ifdef WHITEBOX
  (* keep *) wire [3:0] ph;
  (* keep *) wire [7:0] rg;
  (* keep *) wire [7:0] rr0, rr1, rr2, rr3, rr4, rr5, rr6, rr7;
  (* keep *) wire [7:0] mm0, mm1, mm2, mm3, mm4, mm5, mm6, mm7;
  wire [63:0] rr = {rr7, rr6, rr5, rr4, rr3, rr2, rr1, rr0};
  wire [63:0] mm = {mm7, mm6, mm5, mm4, mm3, mm2, mm1, mm0};
  integer p;
  always @* begin
    assert (ph == (cnt == 1 ? 4'd1 : cnt == 2 ? 4'd2 : cnt == 3 ? 4'd4 : cnt == 4 ? 4'd8 : 4'd0));
    assert (rg == rows_g);
    for (p = 0; p < 8; p = p + 1) begin
      if (cnt >= 1 && cnt <= 4)
        assert (rr[8*p +: 8] == rcap[8*((p + 3*(cnt - 1)) % 8) +: 8]);
      assert ((mm[8*p +: 8] & ~rr[8*p +: 8]) == 0);
      assert ((mm[8*p +: 8] & (mm[8*p +: 8] - 8'd1)) == 0);
      assert ((mm[8*p +: 8] == 0) == (rr[8*p +: 8] == 0));
    end
  end
`endif
endmodule
