// A watched packet through the 8-input Beneš network of 2x2 ASR switches (benes8, hdl/src/benes.rs,
// docs/switch2.md). The solver chooses a word `w` and a marker bit k above the header (10 <= k <= 25,
// w[k] = 1), both constant over the run; the environment offers arbitrary words with a well-formed header
// (none of the 5 hop sets 00, as docs/switch2.md requires of every switch) and applies arbitrary
// backpressure; the only word it ever offers with bit k set is w, accepted once, at one input. Then a word
// leaving with bit k-10 set is w, after it entered (no packet made up), at most once (none duplicated), at an
// output its header permits from the input it entered (some choice of one permitted port per stage reaches
// it through the wiring, `FOLLOW`), equal to w >> 10 (the five hops stripped, zeros above: none
// corrupted). No liveness is claimed: nothing here says when w leaves. Written for `asr prove`
// (docs/formal.md); @TOP@ is the exported top.
module formal(input clock, input [7:0] in_valid, input [207:0] in_data, input [7:0] out_ready);
  localparam W = 26;
  localparam HDR = 10;
  // FOLLOW[3*(32*p + c) +: 3]: the output reached from input p when stage s takes port c[s].
  localparam [767:0] FOLLOW = @FOLLOW@;
  (* anyconst *) reg [W-1:0] w;
  (* anyconst *) reg [4:0] k;
  wire [7:0] in_ready, out_valid;
  wire [207:0] out_data;
  @TOP@ dut (.clock(clock), .in_valid(in_valid), .in_data(in_data), .out_ready(out_ready),
             .in_ready(in_ready), .out_valid(out_valid), .out_data(out_data));

  reg sent = 0, got = 0;
  reg [2:0] port = 0;  // the input w entered
  wire [7:0] acc = in_valid & in_ready;
  wire [7:0] acc_w, del_w;
  // The outputs w's header permits from input `port`.
  wire [7:0] permitted [0:7];
  genvar p, c;
  generate
    for (p = 0; p < 8; p = p + 1) begin : reach
      wire [7:0] m [0:32];
      assign m[0] = 0;
      for (c = 0; c < 32; c = c + 1) begin : choice
        wire ok = w[0 + c[0]] && w[2 + c[1]] && w[4 + c[2]] && w[6 + c[3]] && w[8 + c[4]];
        assign m[c + 1] = m[c] | (ok ? 8'h1 << FOLLOW[3*(32*p + c) +: 3] : 8'h0);
      end
      assign permitted[p] = m[32];
    end
    for (p = 0; p < 8; p = p + 1) begin : pin
      wire [W-1:0] din = in_data[p*W +: W];
      wire [W-1:0] dout = out_data[p*W +: W];
      assign acc_w[p] = acc[p] && din[k];
      assign del_w[p] = out_valid[p] && out_ready[p] && dout[k - HDR];
      always @* begin
        // The environment: well-formed headers; bit k only on w, accepted once.
        if (in_valid[p])
          assume (din[1:0] != 0 && din[3:2] != 0 && din[5:4] != 0 && din[7:6] != 0 && din[9:8] != 0);
        if (acc_w[p]) assume (din == w && !sent);
        // The network: w leaves after it entered, once, where its header permits, unmodified.
        if (del_w[p]) begin
          assert (sent && !got);
          assert (permitted[port][p]);
          assert (dout == (w >> HDR));
        end
      end
    end
  endgenerate
  wire [2:0] acc_port = acc_w[1] ? 1 : acc_w[2] ? 2 : acc_w[3] ? 3 : acc_w[4] ? 4 : acc_w[5] ? 5
                        : acc_w[6] ? 6 : acc_w[7] ? 7 : 0;
  always @(posedge clock) begin
    if (|acc_w) begin
      sent <= 1;
      port <= acc_port;
    end
    if (|del_w) got <= 1;
  end
  always @* begin
    assume (k >= HDR && k < W && w[k]);
    assume ($onehot0(acc_w));
    assert ($onehot0(del_w));
  end
  // Not vacuous (the job's `cover` task): w leaves at every output, from input 0 to output 7 and from
  // input 7 to output 0.
  generate
    for (p = 0; p < 8; p = p + 1) begin : cov
      always @* cover (del_w[p]);
    end
  endgenerate
  always @* begin
    cover (|del_w && port == 0 && del_w[7]);
    cover (|del_w && port == 7 && del_w[0]);
  end
  wire in_flight = sent && !got;
`ifdef WHITEBOX
  // Invariants over the 20 switches' buffers (switch i of stage s is number 4s + i; buffer j of switch n at
  // bit 2n + j of the flags, word bits [26(2n + j) +: 26]), which make the properties inductive. A stage-s
  // input buffer holds words with 2s bits stripped, an output buffer 2s + 2: w is marked there by bit k - 2s,
  // k - 2s - 2. Where w is must be reachable from its input: some choice of permitted ports in the stages
  // before reaches that switch (`SWAT`, from the wiring), and in an output buffer its hop permits the port.
  // SWAT[2*(5*(32*p + c) + s) +: 2]: the switch of stage s reached from input p when stage s' takes c[s'].
  localparam [2559:0] SWAT = @SWAT@;
  // The buffers of switch n: `ibf<n>_<j>` (input buffer j full), `obf`, `ibd` (its word), `obd`.
  (* keep *) wire ibf0_0, ibf0_1, ibf1_0, ibf1_1, ibf2_0, ibf2_1, ibf3_0, ibf3_1, ibf4_0, ibf4_1;
  (* keep *) wire ibf5_0, ibf5_1, ibf6_0, ibf6_1, ibf7_0, ibf7_1, ibf8_0, ibf8_1, ibf9_0, ibf9_1;
  (* keep *) wire ibf10_0, ibf10_1, ibf11_0, ibf11_1, ibf12_0, ibf12_1, ibf13_0, ibf13_1, ibf14_0, ibf14_1;
  (* keep *) wire ibf15_0, ibf15_1, ibf16_0, ibf16_1, ibf17_0, ibf17_1, ibf18_0, ibf18_1, ibf19_0, ibf19_1;
  wire [39:0] ibf = {ibf19_1, ibf19_0, ibf18_1, ibf18_0, ibf17_1, ibf17_0, ibf16_1, ibf16_0, ibf15_1, ibf15_0, ibf14_1, ibf14_0, ibf13_1, ibf13_0, ibf12_1, ibf12_0, ibf11_1, ibf11_0, ibf10_1, ibf10_0, ibf9_1, ibf9_0, ibf8_1, ibf8_0, ibf7_1, ibf7_0, ibf6_1, ibf6_0, ibf5_1, ibf5_0, ibf4_1, ibf4_0, ibf3_1, ibf3_0, ibf2_1, ibf2_0, ibf1_1, ibf1_0, ibf0_1, ibf0_0};
  (* keep *) wire obf0_0, obf0_1, obf1_0, obf1_1, obf2_0, obf2_1, obf3_0, obf3_1, obf4_0, obf4_1;
  (* keep *) wire obf5_0, obf5_1, obf6_0, obf6_1, obf7_0, obf7_1, obf8_0, obf8_1, obf9_0, obf9_1;
  (* keep *) wire obf10_0, obf10_1, obf11_0, obf11_1, obf12_0, obf12_1, obf13_0, obf13_1, obf14_0, obf14_1;
  (* keep *) wire obf15_0, obf15_1, obf16_0, obf16_1, obf17_0, obf17_1, obf18_0, obf18_1, obf19_0, obf19_1;
  wire [39:0] obf = {obf19_1, obf19_0, obf18_1, obf18_0, obf17_1, obf17_0, obf16_1, obf16_0, obf15_1, obf15_0, obf14_1, obf14_0, obf13_1, obf13_0, obf12_1, obf12_0, obf11_1, obf11_0, obf10_1, obf10_0, obf9_1, obf9_0, obf8_1, obf8_0, obf7_1, obf7_0, obf6_1, obf6_0, obf5_1, obf5_0, obf4_1, obf4_0, obf3_1, obf3_0, obf2_1, obf2_0, obf1_1, obf1_0, obf0_1, obf0_0};
  (* keep *) wire [W-1:0] ibd0_0, ibd0_1, ibd1_0, ibd1_1, ibd2_0, ibd2_1, ibd3_0, ibd3_1, ibd4_0, ibd4_1;
  (* keep *) wire [W-1:0] ibd5_0, ibd5_1, ibd6_0, ibd6_1, ibd7_0, ibd7_1, ibd8_0, ibd8_1, ibd9_0, ibd9_1;
  (* keep *) wire [W-1:0] ibd10_0, ibd10_1, ibd11_0, ibd11_1, ibd12_0, ibd12_1, ibd13_0, ibd13_1, ibd14_0, ibd14_1;
  (* keep *) wire [W-1:0] ibd15_0, ibd15_1, ibd16_0, ibd16_1, ibd17_0, ibd17_1, ibd18_0, ibd18_1, ibd19_0, ibd19_1;
  wire [1039:0] ibd = {ibd19_1, ibd19_0, ibd18_1, ibd18_0, ibd17_1, ibd17_0, ibd16_1, ibd16_0, ibd15_1, ibd15_0, ibd14_1, ibd14_0, ibd13_1, ibd13_0, ibd12_1, ibd12_0, ibd11_1, ibd11_0, ibd10_1, ibd10_0, ibd9_1, ibd9_0, ibd8_1, ibd8_0, ibd7_1, ibd7_0, ibd6_1, ibd6_0, ibd5_1, ibd5_0, ibd4_1, ibd4_0, ibd3_1, ibd3_0, ibd2_1, ibd2_0, ibd1_1, ibd1_0, ibd0_1, ibd0_0};
  (* keep *) wire [W-1:0] obd0_0, obd0_1, obd1_0, obd1_1, obd2_0, obd2_1, obd3_0, obd3_1, obd4_0, obd4_1;
  (* keep *) wire [W-1:0] obd5_0, obd5_1, obd6_0, obd6_1, obd7_0, obd7_1, obd8_0, obd8_1, obd9_0, obd9_1;
  (* keep *) wire [W-1:0] obd10_0, obd10_1, obd11_0, obd11_1, obd12_0, obd12_1, obd13_0, obd13_1, obd14_0, obd14_1;
  (* keep *) wire [W-1:0] obd15_0, obd15_1, obd16_0, obd16_1, obd17_0, obd17_1, obd18_0, obd18_1, obd19_0, obd19_1;
  wire [1039:0] obd = {obd19_1, obd19_0, obd18_1, obd18_0, obd17_1, obd17_0, obd16_1, obd16_0, obd15_1, obd15_0, obd14_1, obd14_0, obd13_1, obd13_0, obd12_1, obd12_0, obd11_1, obd11_0, obd10_1, obd10_0, obd9_1, obd9_0, obd8_1, obd8_0, obd7_1, obd7_0, obd6_1, obd6_0, obd5_1, obd5_0, obd4_1, obd4_0, obd3_1, obd3_0, obd2_1, obd2_0, obd1_1, obd1_0, obd0_1, obd0_0};
  wire [39:0] ib_w, ob_w;
  // reach[4s + i]: switch i of stage s is reachable from `port` by permitted choices (one OR per input, the
  // table's entries constant in each).
  wire [19:0] reach;
  genvar s, i, j;
  generate
    for (s = 0; s < 5; s = s + 1) begin : st
      for (i = 0; i < 4; i = i + 1) begin : swi
        wire [7:0] from;
        for (p = 0; p < 8; p = p + 1) begin : src
          wire [32:0] r;
          assign r[0] = 0;
          for (c = 0; c < 32; c = c + 1) begin : ch
            if (SWAT[2*(5*(32*p + c) + s) +: 2] == i) begin : hit
              assign r[c + 1] = r[c] || ((s < 1 || w[0 + c[0]]) && (s < 2 || w[2 + c[1]])
                                         && (s < 3 || w[4 + c[2]]) && (s < 4 || w[6 + c[3]]));
            end else begin : miss
              assign r[c + 1] = r[c];
            end
          end
          assign from[p] = r[32];
        end
        assign reach[4*s + i] = from[port];
        for (j = 0; j < 2; j = j + 1) begin : bf
          localparam n = 2*(4*s + i) + j;
          wire [W-1:0] id = ibd[W*n +: W];
          wire [W-1:0] od = obd[W*n +: W];
          assign ib_w[n] = ibf[n] && id[k - 2*s];
          assign ob_w[n] = obf[n] && od[k - 2*s - 2];
          always @* begin
            if (ib_w[n]) assert (id == (w >> 2*s) && reach[4*s + i]);
            if (ob_w[n]) assert (od == (w >> (2*s + 2)) && reach[4*s + i] && w[2*s + j]);
          end
        end
      end
    end
  endgenerate
  // Exactly one copy while in flight, none otherwise.
  wire [6:0] copies;
  generate
    wire [6:0] acc_c [0:40];
    assign acc_c[0] = 0;
    for (i = 0; i < 40; i = i + 1) begin : cnt
      assign acc_c[i + 1] = acc_c[i] + ib_w[i] + ob_w[i];
    end
    assign copies = acc_c[40];
  endgenerate
  always @* begin
    assert (copies == (in_flight ? 7'd1 : 7'd0));
    if (got) assert (sent);
  end
`endif
endmodule
