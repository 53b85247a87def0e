// Link and crossbar properties of the v3 transmitter (sp2_transmitter_v3, output @PORT@). Every input is
// arbitrary in every cycle (grants, offers, near_end, load_nz, chunk reads, tokens), including sequences that
// break the switch's internal protocol (a grant while busy, a chunk while the serializer is full), except the
// link's contract (docs/sp2-switch.md G.2, kept by V3.B): the downstream node returns a token only for a byte
// it holds — never while all RX_DEPTH = @RX_DEPTH@ credits are home (the model stops with "token arrived with
// the credit already full"; the v3 credit register has no overflow flag).
//
// The wrapper keeps the credit by the rule of G.1 from what crosses the pins (16 at the start, a byte on the
// link takes one, a token counts from the next cycle) and the downstream FIFO (bytes sent less tokens
// returned, the byte arriving now included). Proven:
//   - G.1: a byte is on the link only when the credit was positive (bytes in cycles <= t at most RX_DEPTH +
//     tokens in cycles <= t-2); the downstream FIFO never holds more than RX_DEPTH bytes;
//   - `credit_ok` is exactly "credit left" (the receivers decide from it that their offer is taken, V3.F);
//   - the crossbar handshake without a reply (V3.F): an offer is taken — on the link in the next cycle, its
//     byte unchanged unless it is the end — exactly when the pins say so (offer valid, credit_ok, and
//     connected with the offer for this output, or idle, granted and the offer a preload); while connected,
//     no other byte reaches the link.
// WHITEBOX: the credit register equals the wrapper's credit, and credit + held = RX_DEPTH (the invariants
// that make the properties inductive). Written for `asr prove` (docs/formal.md); @TOP@ is
// the exported top.
module formal(input clock, input grant_valid, input [2:0] grant, input offer_valid, input [9:0] offer_entry,
              input offer_to_valid, input [2:0] offer_to, input near_end, input load_nz, input rd_valid,
              input [79:0] rd_banks, input [2:0] rd_start, input rd_head_valid, input [7:0] rd_head,
              input token);
  localparam RX_DEPTH = @RX_DEPTH@;
  localparam [2:0] PORT = @PORT@;
  wire src_valid, idle, credit_ok, cand, xres, rd_req, soon, link_valid;
  wire [2:0] src;
  wire [7:0] link_byte;
  @TOP@ dut (.clock(clock), .grant_valid(grant_valid), .grant(grant), .offer_valid(offer_valid),
             .offer_entry(offer_entry), .offer_to_valid(offer_to_valid), .offer_to(offer_to),
             .near_end(near_end), .load_nz(load_nz), .rd_valid(rd_valid), .rd_banks(rd_banks),
             .rd_start(rd_start), .rd_head_valid(rd_head_valid), .rd_head(rd_head), .token(token),
             .src_valid(src_valid), .src(src), .idle(idle), .credit_ok(credit_ok), .cand(cand), .xres(xres),
             .rd_req(rd_req), .soon(soon), .link_valid(link_valid), .link_byte(link_byte));

  // The credit of G.1 (a byte decided at an edge is on the link in the next cycle, so the credit of a cycle
  // is known one cycle later): `credit` is the credit after this cycle's byte and last cycle's token.
  reg [5:0] credit_prev = RX_DEPTH;
  reg token_prev = 0;
  wire [5:0] credit = credit_prev - link_valid + token_prev;
  // Bytes the downstream FIFO holds, the one arriving now included.
  reg [6:0] held_prev = 0;
  wire [6:0] held = held_prev + link_valid;
  always @(posedge clock) begin
    credit_prev <= credit;
    token_prev <= token;
    held_prev <= held - token;
  end
  always @* begin
    if (token) assume (held > 0);      // G.2: a token only for a byte the node holds
    if (link_valid) assert (credit_prev > 0);
    assert (credit <= RX_DEPTH);
    assert (held <= RX_DEPTH);
    assert (credit_ok == (credit != 0));
  end

  // The take as the receiver computes it from the transmitter's registers and its own (V3.F).
  wire take = offer_valid && credit_ok
              && (src_valid ? offer_to_valid && offer_to == PORT : grant_valid && idle && !offer_to_valid);
  wire offer_end = offer_entry[9] && offer_entry[8];
  reg take_prev = 0, conn_prev = 0, byte_prev = 0;
  reg [7:0] offer_prev = 0;
  reg past = 0;
  always @(posedge clock) begin
    past <= 1;
    take_prev <= take;
    conn_prev <= src_valid;
    byte_prev <= take && !offer_end;
    offer_prev <= offer_entry[7:0];
  end
  always @* if (past) begin
    if (take_prev) assert (link_valid);
    if (conn_prev && !take_prev) assert (!link_valid);
    if (byte_prev) assert (link_byte == offer_prev);
  end

  // Not vacuous (the job's `cover` task): the credit runs out and comes back to RX_DEPTH; a connected
  // transmitter takes an offer and a preload is taken; a queued byte (not connected) reaches the link.
  reg exhausted = 0;
  always @(posedge clock) if (credit == 0) exhausted <= 1;
  always @* begin
    cover (credit == 0);
    cover (exhausted && credit == RX_DEPTH);
    cover (take && src_valid);
    cover (take && !src_valid);
    cover (past && link_valid && !conn_prev && !take_prev);
  end

`ifdef WHITEBOX
  (* keep *) wire [4:0] credit_q;
  always @* begin
    assert (credit_q == credit);
    assert (credit + held == RX_DEPTH);
  end
`endif
endmodule
