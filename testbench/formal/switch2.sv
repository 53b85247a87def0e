// Packet properties of the 2x2 ASR switch (switch2; switch2r with SKID), with one watched packet: the solver chooses a
// word `w` and a marker bit k above the hop (2 <= k <= 25, w[k] = 1), both constant over the run; the
// environment offers arbitrary well-formed words (hop set not 00) and applies arbitrary backpressure; the only
// word it ever offers with bit k set is w, accepted at most once. Then: a word leaving with bit k-2 set is w,
// after it entered (no packet made up), at most once (none duplicated), at an output its hop set permits
// (none misrouted), shifted right by 2 with zeros above (none corrupted), and it leaves within MAX_READY
// consecutive cycles with both outputs ready (none lost): 3 for switch2, 5 for switch2r (a skid buffer).
// Written for `asr prove` (docs/formal.md); @TOP@ is the exported top.
module formal(input clock, input [1:0] in_valid, input [51:0] in_data, input [1:0] out_ready);
  localparam W = 26;
  localparam MAX_READY = @MAX_READY@;
  (* anyconst *) reg [W-1:0] w;
  (* anyconst *) reg [4:0] k;
  wire [1:0] in_ready, out_valid;
  wire [51:0] out_data;
  @TOP@ dut (.clock(clock), .in_valid(in_valid), .in_data(in_data), .out_ready(out_ready),
             .in_ready(in_ready), .out_valid(out_valid), .out_data(out_data));

  reg sent = 0, got = 0;
  reg [7:0] ready_run = 0;
  wire [1:0] acc = in_valid & in_ready;
  wire [1:0] acc_w, del_w;
  genvar p;
  generate
    for (p = 0; p < 2; p = p + 1) begin : port
      wire [W-1:0] din = in_data[p*W +: W];
      wire [W-1:0] dout = out_data[p*W +: W];
      assign acc_w[p] = acc[p] && din[k];
      assign del_w[p] = out_valid[p] && out_ready[p] && dout[k - 2];
      always @* begin
        // The environment: well-formed words; bit k only on w, accepted once.
        if (in_valid[p]) assume (din[1:0] != 2'b00);
        if (acc_w[p]) assume (din == w && !sent);
        // The switch: the watched word leaves after it entered, once, where its hop permits, unmodified.
        if (del_w[p]) begin
          assert (sent && !got);
          assert (w[p]);
          assert (dout == (w >> 2));
        end
      end
    end
  endgenerate
  always @* begin
    assume (k >= 2 && k < W && w[k]);
    assume (!(acc_w[0] && acc_w[1]));
    assert (!(del_w[0] && del_w[1]));
    // Not lost: in flight for at most MAX_READY consecutive cycles with both outputs ready.
    assert (ready_run < MAX_READY);
  end
  wire in_flight = sent && !got;
  // Not vacuous (the job's `cover` task): the watched word leaves at either output, and after two
  // consecutive ready cycles in flight (the bound is tight).
  always @* begin
    cover (del_w[0]);
    cover (del_w[1]);
    cover (in_flight && ready_run == MAX_READY - 1);
  end
`ifdef WHITEBOX
  // Invariants over the switch's registers, which make the properties inductive (k-induction closes). The
  // wrapper's wires below are driven by the registers of the flattened design (Yosys `connect` in the job's
  // script): they observe, they change nothing.
  (* keep *) wire ib_full0, ib_full1, ob_full0, ob_full1, in_ptr;
  (* keep *) wire [W-1:0] ib_data0, ib_data1, ob_data0, ob_data1;
  wire [1:0] ib_full = {ib_full1, ib_full0}, ob_full = {ob_full1, ob_full0};
  // Where the watched word is: input buffer (head) i, or output buffer q.
  wire [1:0] ib_w = ib_full & {ib_data1[k], ib_data0[k]};
  wire [1:0] ob_w = ob_full & {ob_data1[k - 2], ob_data0[k - 2]};
`ifdef SKID
  // switch2r: the skid buffer behind each head.
  (* keep *) wire sk_full0, sk_full1;
  (* keep *) wire [W-1:0] sk_data0, sk_data1;
  wire [1:0] sk_full = {sk_full1, sk_full0};
  wire [1:0] sk_w = sk_full & {sk_data1[k], sk_data0[k]};
  always @* begin
    if (sk_full0) assert (ib_full0 && sk_data0[1:0] != 2'b00);
    if (sk_full1) assert (ib_full1 && sk_data1[1:0] != 2'b00);
    if (sk_w[0]) assert (sk_data0 == w);
    if (sk_w[1]) assert (sk_data1 == w);
  end
`else
  wire [1:0] sk_w = 2'b00;
`endif
  // Cycles with both outputs ready that the watched word still needs at most: 1 in an output buffer, 2 in
  // the head the input pointer favours (it wins a conflict), 3 in the other head (it may lose one), 4 and 5
  // in a skid buffer behind a head that the pointer favours or not. Each such cycle lowers it by one.
  wire [2:0] need = ob_w != 0 ? 3'd1 : ib_w[in_ptr] ? 3'd2 : ib_w != 0 ? 3'd3 : sk_w[in_ptr] ? 3'd4 : 3'd5;
  always @* begin
    if (ib_full0) assert (ib_data0[1:0] != 2'b00);
    if (ib_full1) assert (ib_data1[1:0] != 2'b00);
    if (ib_w[0]) assert (ib_data0 == w);
    if (ib_w[1]) assert (ib_data1 == w);
    if (ob_w[0]) assert (ob_data0 == (w >> 2) && w[0]);
    if (ob_w[1]) assert (ob_data1 == (w >> 2) && w[1]);
    // Exactly one copy while in flight, none otherwise.
    assert ({2'b0, ib_w[0]} + ib_w[1] + ob_w[0] + ob_w[1] + sk_w[0] + sk_w[1] == (in_flight ? 3'd1 : 3'd0));
    if (got) assert (sent);
    if (!in_flight) assert (ready_run == 0);
    else assert (need + ready_run <= MAX_READY);
  end
`endif
  always @(posedge clock) begin
    if (acc_w != 0) sent <= 1;
    if (del_w != 0) got <= 1;
    if (in_flight && del_w == 0 && out_ready == 2'b11) ready_run <= ready_run + 1;
    else ready_run <= 0;
  end
endmodule
