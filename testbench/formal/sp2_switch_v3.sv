// A watched packet through the whole v3 switch (sp2_switch_v3): a bounded model check from the initial state
// (the export's initial values; docs/formal.md says how deep and why so shallow).
//
// Environment (docs/sp2-switch.md G.1, G.2, kept for v3 by V3.B): two inputs carry traffic, P = @P@ (the
// watched packet's) and Q = @Q@; the other six are idle (wired to 0, so that Yosys removes what they
// drive). On P and Q every byte is arbitrary in every cycle — malformed packets (`LEN` = 0, `R1` = 0, bad
// CRCs), any gaps, packets back to back — within the link's contract: a sender keeps at most
// RX_DEPTH = @RX_DEPTH@ bytes outstanding (a byte in cycle t only when the bytes in cycles <= t, less the
// tokens on `token_out` in cycles < t, are at most RX_DEPTH). Every output's node returns a token only for a
// byte it holds (from the byte's own cycle on), otherwise when it likes.
// The watched packet: the solver chooses a LEN value L (1..255), constant; the packet whose LEN arrives at
// input P in the cycle the solver chooses (`start`, once) is the watched one: its LEN is L, its R1 is not 0,
// and no other packet in the run, on either input, has LEN = L. So L - 1 as the first byte of a packet on an
// output marks the watched packet (the marker of switch2.sv, here a length). The solver also chooses J, one
// of the watched packet's bytes after R1 (2 <= J <= L): the wrapper keeps that one byte, so the check of
// "byte J unchanged" covers every byte without storing the packet.
//
// Proven, for every such run of the job's depth:
//   - a packet starting with L - 1 on an output is the watched one: it **entered before**, starts on one
//     output at most and **once**, on an output **in its R1**, and is **intact**: byte J - 1 is the watched
//     packet's byte J (R1 consumed), each byte is sent only after its original arrived, and its last byte
//     is the CRC-8 of the bytes sent before it (XOR 0xFF when the watched packet's own CRC was wrong), sent
//     only after that CRC arrived;
//   - on every input, a token only for a byte received that has not had its token.
// Written for `asr prove` (docs/formal.md); @TOP@ is the exported top.
module formal(input clock, input [7:0] link_in_valid, input [63:0] link_in_data, input [7:0] token_in,
              input start);
  localparam [2:0] P = @P@, Q = @Q@;
  localparam [7:0] ACTIVE = (8'd1 << P) | (8'd1 << Q);
  localparam RX_DEPTH = @RX_DEPTH@;
  (* anyconst *) reg [7:0] L;
  wire [7:0] link_out_valid, token_out;
  wire [63:0] link_out_data, crc_errors, route_errors;
  wire [7:0] in_valid = link_in_valid & ACTIVE;
  wire [63:0] in_data = link_in_data & {{8{ACTIVE[7]}}, {8{ACTIVE[6]}}, {8{ACTIVE[5]}}, {8{ACTIVE[4]}},
                                        {8{ACTIVE[3]}}, {8{ACTIVE[2]}}, {8{ACTIVE[1]}}, {8{ACTIVE[0]}}};
  @TOP@ dut (.clock(clock), .link_in_valid(in_valid), .link_in_data(in_data), .token_in(token_in),
             .link_out_valid(link_out_valid), .link_out_data(link_out_data), .token_out(token_out),
             .crc_errors(crc_errors), .route_errors(route_errors));

  function [7:0] crc8(input [7:0] c, input [7:0] b);
    integer k;
    reg [7:0] x;
    begin
      x = c;
      for (k = 7; k >= 0; k = k - 1) x = {x[6:0], 1'b0} ^ ((x[7] ^ b[k]) ? 8'h07 : 8'h00);
      crc8 = x;
    end
  endfunction

  // ---- The watched packet at input P: its R1, its byte J (the solver's: any of R2.. and the payload),
  // and the CRC-8 of its bytes as they arrive.
  (* anyconst *) reg [8:0] J;
  reg armed = 0;                      // its LEN has arrived
  reg [8:0] tin = 0;                  // its bytes arrived (LEN is byte 0)
  reg [7:0] r1 = 0, tj = 0;
  reg [7:0] icrc = 0;                 // CRC-8 of its bytes so far
  reg bad = 0;                        // its CRC byte did not match
  wire [7:0] pb = in_data[8*P +: 8];
  wire pv = in_valid[P];
  wire tnow = pv && (start || (armed && tin < L + 2));   // a byte of the watched packet is on input P
  always @(posedge clock) if (tnow) begin
    armed <= 1;
    tin <= tin + 1;
    if (tin == 1) r1 <= pb;
    if (tin == J) tj <= pb;
    if (tin == L + 1) bad <= pb != icrc; else icrc <= crc8(icrc, pb);
  end
  always @* if (L >= 2) assume (J >= 2 && J <= L);

  // ---- Inputs: packet boundaries, the LEN rule, the sender's credit and the tokens.
  genvar i;
  generate for (i = 0; i < 8; i = i + 1) begin : in
    wire v = in_valid[i];
    wire [7:0] b = in_data[8*i +: 8];
    reg [8:0] left = 0;               // bytes left in the packet (0: the next byte is a LEN)
    always @(posedge clock) if (v) left <= left == 0 ? (b == 0 ? 9'd1 : {1'b0, b} + 9'd1) : left - 1;
    reg [6:0] owed = 0;               // bytes received in earlier cycles without their token
    always @(posedge clock) owed <= owed + v - token_out[i];
    always @* begin
      if (v) assume (owed + 1 <= RX_DEPTH);                  // G.2
      if (token_out[i]) assert (owed > 0);                   // a token only for a byte received
      if (start && i == P) assume (v && left == 0);          // the watched packet starts with a LEN
      if (v && left == 0 && !(start && i == P)) assume (b != L);   // no other packet has LEN = L
    end
  end endgenerate
  always @* begin
    if (start) assume (!armed && pb == L);
    if (armed && tin == 1 && pv) assume (pb != 0);         // its R1 is not 0
    assume (L != 0);
  end

  // ---- Outputs: packet boundaries, the watched packet, the nodes' tokens.
  reg done = 0;                       // the watched packet has started on an output
  reg [2:0] where = 0;                // that output
  reg [8:0] tout = 0;                 // its bytes sent
  reg [7:0] ocrc = 0;                 // CRC-8 of its bytes sent
  genvar o;
  generate for (o = 0; o < 8; o = o + 1) begin : out
    wire v = link_out_valid[o];
    wire [7:0] b = link_out_data[8*o +: 8];
    reg [8:0] left = 0;
    always @(posedge clock) if (v) left <= left == 0 ? {1'b0, b} + 9'd1 : left - 1;
    wire first = v && left == 0 && b == L - 1;             // a packet marked as the watched one starts
    wire body = v && done && where == o && tout != 0 && tout < L + 1;
    // The bytes the node holds, the one arriving now included.
    reg [6:0] held_prev = 0;
    wire [6:0] held = held_prev + v;
    always @(posedge clock) held_prev <= held - token_in[o];
    always @* begin
      if (token_in[o]) assume (held > 0);                    // G.2: a token only for a byte held
      if (first) begin
        assert (armed);                                      // entered before
        assert (!done);                                      // at most once
        assert (r1[o]);                                      // on an output of its R1
      end
      if (body) begin
        if (tout < L) begin
          assert (tin > tout + 1);                           // a byte that has arrived
          if (tout + 1 == J) assert (b == tj);               // the byte after R1, unchanged
        end else begin
          assert (tin == L + 2);                             // the CRC after the watched one's CRC arrived
          assert (b == (ocrc ^ (bad ? 8'hff : 8'h00)));      // CRC-8 of what was sent, flagged if bad
        end
      end
    end
  end endgenerate

  wire [7:0] firsts = {out[7].first, out[6].first, out[5].first, out[4].first,
                       out[3].first, out[2].first, out[1].first, out[0].first};
  wire [7:0] bodies = {out[7].body, out[6].body, out[5].body, out[4].body,
                       out[3].body, out[2].body, out[1].body, out[0].body};
  wire [7:0] wb = link_out_data[8*where +: 8];
  always @(posedge clock) begin
    if (firsts != 0) begin
      done <= 1;
      where <= firsts[1] ? 1 : firsts[2] ? 2 : firsts[3] ? 3 : firsts[4] ? 4 : firsts[5] ? 5 :
               firsts[6] ? 6 : firsts[7] ? 7 : 0;
      tout <= 1;
      ocrc <= crc8(0, L - 1);
    end else if (bodies != 0) begin
      tout <= tout + 1;
      ocrc <= crc8(ocrc, wb);
    end
  end
  always @* assert ($onehot0(firsts));

  // Not vacuous (the job's `cover` task): the watched packet delivered whole, the shortest one (L = 1) and
  // one with its CRC flagged; its byte J compared; a token on an input.
  always @* begin
    cover (done && tout == L + 1 && L == 1);
    cover (done && tout == L + 1 && bad);
    cover (done && tout > J - 1 && J >= 2 && L >= 2);
    cover (token_out[P] && token_out[Q]);
  end
endmodule
