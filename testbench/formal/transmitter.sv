// Credit properties of the v2 transmitter (sp2_transmitter_v2): every input is arbitrary in every cycle
// (grants, offers, chunks, loads, tokens), except that under LEGAL the downstream receiver returns a token
// only for a byte it holds. RX_DEPTH = @RX_DEPTH@ is the downstream FIFO's depth and the initial credit.
//
// Always: the wrapper's own credit counter, kept by the rule of docs/sp2-switch.md v2 §D from what crosses
// the pins (a byte on the link takes one credit, a token gives one back unless the credit is already
// RX_DEPTH, which sets the sticky `credit_overflow`), never exceeds RX_DEPTH, a byte appears on the link only
// when that credit was positive, and `credit_overflow` is exactly the sticky overflow of that counter.
// LEGAL: the downstream FIFO (bytes sent, less tokens returned) never holds more than RX_DEPTH bytes and
// `credit_overflow` never rises.
// WHITEBOX: the transmitter's credit register equals the wrapper's counter (the invariant that makes the
// properties inductive). Written for `asr prove` (docs/formal.md); @TOP@ is the exported top.
module formal(input clock, input [7:0] load, input grant, input [2:0] grant_rx, input offer_valid,
              input [7:0] offer_byte, input offer_end, input offer_bad, input read, input chunk_valid,
              input [63:0] chunk_data, input [3:0] chunk_bytes, input chunk_last, input chunk_bad,
              input token_in);
  localparam RX_DEPTH = @RX_DEPTH@;
  wire link_valid, free, wants, queued, takes, src_xbar, credit_overflow;
  wire [7:0] link_byte;
  wire [2:0] src_rx;
  @TOP@ dut (.clock(clock), .load(load), .grant(grant), .grant_rx(grant_rx), .offer_valid(offer_valid),
             .offer_byte(offer_byte), .offer_end(offer_end), .offer_bad(offer_bad), .read(read),
             .chunk_valid(chunk_valid), .chunk_data(chunk_data), .chunk_bytes(chunk_bytes),
             .chunk_last(chunk_last), .chunk_bad(chunk_bad), .token_in(token_in), .link_valid(link_valid),
             .link_byte(link_byte), .free(free), .wants(wants), .queued(queued), .takes(takes),
             .src_xbar(src_xbar), .src_rx(src_rx), .credit_overflow(credit_overflow));

  // The credit of the last cycle and its token: a byte decided at an edge is on the link in the next cycle,
  // so the credit of this cycle is known only now.
  reg [5:0] credit_prev = RX_DEPTH;
  reg token_prev = 0, ovf = 0;
  wire [5:0] after_send = credit_prev - link_valid;
  wire ovf_now = token_prev && after_send >= RX_DEPTH;
  wire [5:0] credit = after_send + (token_prev && !ovf_now);
  always @(posedge clock) begin
    credit_prev <= credit;
    token_prev <= token_in;
    ovf <= ovf || ovf_now;
  end
  always @* begin
    if (link_valid) assert (credit_prev > 0);
    assert (credit <= RX_DEPTH);
    assert (credit_overflow == (ovf || ovf_now));
  end

`ifdef LEGAL
  // Bytes the downstream FIFO holds, the one arriving now included.
  reg [6:0] held_prev = 0;
  wire [6:0] held = held_prev + link_valid;
  always @(posedge clock) held_prev <= held - token_in;
  always @* begin
    if (token_in) assume (held > 0);
    assert (held <= RX_DEPTH);
    assert (!credit_overflow);
  end
`endif

  // Not vacuous (the job's `cover` task): the credit runs out, and comes back to RX_DEPTH after that.
  reg exhausted = 0;
  always @(posedge clock) if (credit == 0) exhausted <= 1;
  always @* begin
    cover (credit == 0);
    cover (exhausted && credit == RX_DEPTH);
  end

`ifdef WHITEBOX
  (* keep *) wire [4:0] credit_q;
  always @* assert (credit_q == credit);
`ifdef LEGAL
  always @* assert (credit + held == RX_DEPTH);
`endif
`endif
endmodule
