// Token properties of the v3 receiver (sp2_receiver_v3), a bounded model check from the initial state (the
// export's initial values; see docs/formal.md for the depth and why it is bounded).
//
// Environment: the link's contract (docs/sp2-switch.md G.2, input side, kept by V3.B): the upstream sender
// keeps at most RX_DEPTH = @RX_DEPTH@ bytes outstanding, counting the tokens it has seen (a byte in cycle t
// only when the bytes on the pins in cycles <= t, less the tokens in cycles < t, are at most RX_DEPTH). Every
// other input is arbitrary in every cycle, unless DRAIN: then the downstream is greedy — every transmitter
// connected, idle, with credit and a free candidate, a grant (to a requested output) whenever the receiver
// requests one, no admission, not in a matrix — and the sender sends whole packets (`LEN`, then `R1` and
// `LEN` more bytes, or one more byte for `LEN` = 0) with any gaps.
//
// Proven:
//   - never more tokens than bytes: `token` pulses only while a byte received has not had its token;
//   - DRAIN: no token withheld: while the sender is between packets and a byte has not had its token, a
//     token comes within @QUIET@ cycles (so every byte received yields its token, and a byte the receiver
//     stored twice, lost, or failed to consume shows as a token missing).
// Written for `asr prove` (docs/formal.md); @TOP@ is the exported top.
module formal(input clock, input pins_valid, input [7:0] pins, input grant_valid_in, input [2:0] grant_in,
              input [7:0] conn_in, input [7:0] tx_idle_in, input [7:0] credit_ok_in, input [7:0] cand_free_in,
              input admitted_valid_in, input [2:0] admitted_in, input in_matrix_in, input adm_busy,
              input [2:0] slot_bank, input ctrl_slot, input free_head_valid, input [6:0] free_head);
  localparam RX_DEPTH = @RX_DEPTH@;
  localparam QUIET = @QUIET@;
  wire offer_valid, offer_to_valid, ask_valid, near_end, wpos_valid, token, write_valid, pop, link_valid,
       push_valid;
  wire [9:0] offer_entry, write_entry;
  wire [2:0] offer_to, write_bank, push_out, push_start, push_writer;
  wire [7:0] req, ask_set, push_head, crc_errors, route_errors;
  wire [5:0] ask_chunks;
  wire [6:0] wpos, write_chunk, link_from, link_to, push_first;
`ifdef DRAIN
  wire [7:0] conn = 8'hff, tx_idle = 8'hff, credit_ok = 8'hff, cand_free = 8'hff;
  wire grant_valid = req != 0;
  wire [2:0] grant = grant_in;
  wire admitted_valid = 0, in_matrix = 0;
  wire [2:0] admitted = 0;
  always @* if (grant_valid) assume (req[grant]);
`else
  wire [7:0] conn = conn_in, tx_idle = tx_idle_in, credit_ok = credit_ok_in, cand_free = cand_free_in;
  wire grant_valid = grant_valid_in, admitted_valid = admitted_valid_in, in_matrix = in_matrix_in;
  wire [2:0] grant = grant_in, admitted = admitted_in;
  // V3.F: admission and the allocator never take the same receiver; no admission while in a matrix.
  always @* begin
    assume (!(grant_valid && admitted_valid));
    if (admitted_valid) assume (!in_matrix);
  end
`endif
  @TOP@ dut (.clock(clock), .pins_valid(pins_valid), .pins(pins), .grant_valid(grant_valid), .grant(grant),
             .conn(conn), .tx_idle(tx_idle), .credit_ok(credit_ok), .cand_free(cand_free),
             .admitted_valid(admitted_valid), .admitted(admitted), .in_matrix(in_matrix), .adm_busy(adm_busy),
             .slot_bank(slot_bank), .ctrl_slot(ctrl_slot), .free_head_valid(free_head_valid),
             .free_head(free_head), .offer_valid(offer_valid), .offer_entry(offer_entry),
             .offer_to_valid(offer_to_valid), .offer_to(offer_to), .req(req), .ask_valid(ask_valid),
             .ask_set(ask_set), .ask_chunks(ask_chunks), .near_end(near_end), .wpos_valid(wpos_valid),
             .wpos(wpos), .token(token), .write_valid(write_valid), .write_chunk(write_chunk),
             .write_bank(write_bank), .write_entry(write_entry), .pop(pop), .link_valid(link_valid),
             .link_from(link_from), .link_to(link_to), .push_valid(push_valid), .push_out(push_out),
             .push_head(push_head), .push_first(push_first), .push_start(push_start),
             .push_writer(push_writer), .crc_errors(crc_errors), .route_errors(route_errors));

  // Bytes received in earlier cycles that have not had their token (tokens of earlier cycles counted).
  reg [6:0] owed = 0;
  always @(posedge clock) owed <= owed + pins_valid - token;
  always @* begin
    if (pins_valid) assume (owed + 1 <= RX_DEPTH);   // G.2: at most RX_DEPTH bytes outstanding
    if (token) assert (owed > 0);                      // never more tokens than bytes
  end

  // The sender's packet boundaries: bytes left in the packet (0: between packets, the next byte a LEN).
  reg [8:0] left = 0;
  always @(posedge clock) if (pins_valid) begin
    if (left == 0) begin
      left <= pins == 0 ? 9'd1 : {1'b0, pins} + 9'd1;
    end else begin
      left <= left - 1;
    end
  end
  wire between = left == 0;
  // Cycles in a row in which the sender was between packets, a byte had no token, and no token came.
  reg [5:0] waiting = 0;
  always @(posedge clock) waiting <= (between && !pins_valid && owed > 0 && !token) ? waiting + 1 : 0;
`ifdef DRAIN
  always @* assert (waiting < QUIET);                  // no token withheld
`endif

  // Not vacuous (the job's `cover` task): a token; every token of a whole packet back; RX_DEPTH bytes
  // outstanding (not DRAIN); a token withheld for QUIET - 1 cycles (DRAIN: the bound is tight).
  reg whole = 0;
  always @(posedge clock) if (pins_valid && left == 1) whole <= 1;
  always @* begin
    cover (token);
    cover (whole && owed == 0);
`ifdef DRAIN
    cover (waiting == QUIET - 1);
`else
    cover (owed == RX_DEPTH);
`endif
  end
endmodule
