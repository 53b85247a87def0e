// Properties of the v2 crossbar allocator (sp2_allocator_v2), for all inputs in every state (k-induction):
// a column grants only while it is free and only a row that waits with that column in its set, its row is 0
// when it does not grant, and no row is granted two columns (a matching).
// WHITEBOX: every column's least-recently-served order (a triangular precedence matrix) is a total order, the
// invariant that makes the properties inductive (the pipeline banks are flushed within the induction depth).
// Written for `asr prove` (docs/formal.md); @TOP@ is the exported top.
module formal(input clock, input [63:0] req, input [7:0] free, input [7:0] mat_free, input [63:0] wait_set);
  wire [7:0] grant_valid;
  wire [23:0] grant_row;
  @TOP@ dut (.clock(clock), .req(req), .free(free), .mat_free(mat_free), .wait_set(wait_set),
             .grant_valid(grant_valid), .grant_row(grant_row));
  genvar j, k;
  generate
    for (j = 0; j < 8; j = j + 1) begin : col
      wire [2:0] row = grant_row[3*j +: 3];
      always @* begin
        if (grant_valid[j]) begin
          assert (free[j]);                 // only a free transmitter
          assert (wait_set[8*row + j]);     // inside the granted receiver's waiting set
        end else begin
          assert (row == 0);
        end
      end
      for (k = j + 1; k < 8; k = k + 1) begin : other
        always @* assert (!(grant_valid[j] && grant_valid[k] && grant_row[3*k +: 3] == row));
      end
    end
  endgenerate
  // Not vacuous (the job's `cover` task): a column grants, and all eight grant at once.
  always @* begin
    cover (grant_valid != 0);
    cover (grant_valid == 8'hff);
  end
`ifdef WHITEBOX
  // Bit 8a+b (a < b): receiver a is before receiver b in the order of column j.
  (* keep *) wire [63:0] order0, order1, order2, order3, order4, order5, order6, order7;
  wire [511:0] orders = {order7, order6, order5, order4, order3, order2, order1, order0};
  // before[64*j + 8*a + b]: receiver a is before receiver b in column j's order.
  reg [511:0] before;
  reg [7:0] total;
  integer jj, a, b, c;
  always @* begin
    for (jj = 0; jj < 8; jj = jj + 1)
      for (a = 0; a < 8; a = a + 1)
        for (b = 0; b < 8; b = b + 1)
          before[64*jj + 8*a + b] = a < b ? orders[64*jj + 8*a + b] : a > b ? !orders[64*jj + 8*b + a] : 1'b0;
    // Transitive: a before b before c gives a before c.
    total = 8'hff;
    for (jj = 0; jj < 8; jj = jj + 1)
      for (a = 0; a < 8; a = a + 1)
        for (b = 0; b < 8; b = b + 1)
          for (c = 0; c < 8; c = c + 1)
            if (before[64*jj + 8*a + b] && before[64*jj + 8*b + c] && !before[64*jj + 8*a + c] && a != c)
              total[jj] = 1'b0;
    assert (total == 8'hff);
  end
`endif
endmodule
