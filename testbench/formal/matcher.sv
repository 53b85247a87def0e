// Properties of the combinational matchers (matcher_m{M}_p{P}), for every request matrix (no state: a check
// at depth 1 is a full proof): every row's grant is inside its requests, at most one column per row, and a
// row is assigned a column exactly when it requests one. Several rows may share a column (the grants are
// before conflict arbitration, docs/contracts.md): no per-column property is claimed, nor maximality.
// EQUIV: the grants equal a reference written here from the heuristic's text (thesis Fig. 2.3 as
// docs/contracts.md reads it), rotating one position at a time as the text says (the hardware computes the
// rotation in one step). Written for `asr prove` (docs/formal.md); @TOP@ is the exported top.
module formal(input [@M@*@M@-1:0] requests);
  localparam M = @M@, P = @P@, MM = M * M;
  wire [MM-1:0] grants;
  @TOP@ dut (.requests(requests), .grants(grants));
  genvar i;
  generate
    for (i = 0; i < M; i = i + 1) begin : row
      wire [M-1:0] g = grants[i*M +: M];
      wire [M-1:0] r = requests[i*M +: M];
      always @* begin
        assert ((g & ~r) == 0);          // inside the requests
        assert ((g & (g - 1)) == 0);     // at most one column
        assert ((g != 0) == (r != 0));   // a column exactly when one is requested
      end
    end
  endgenerate
  // Not vacuous (the job's `cover` task): every row granted, all in distinct columns.
  reg [M-1:0] cols;
  integer ci;
  always @* begin
    cols = 0;
    for (ci = 0; ci < M; ci = ci + 1) cols = cols | grants[ci*M +: M];
    cover (cols == {M{1'b1}});
  end
`ifdef EQUIV
  reg [MM-1:0] ref_m;
  reg [M-1:0] cur, c, col_or;
  reg done;
  integer p, j, k, n;
  always @* begin
    // 1. M[i] = the lowest set bit of R[i].
    ref_m = 0;
    for (j = 0; j < M; j = j + 1) begin
      cur = 0;
      done = 0;
      for (k = 0; k < M; k = k + 1)
        if (!done && requests[j*M + k]) begin
          cur[k] = 1'b1;
          done = 1;
        end
      ref_m[j*M +: M] = cur;
    end
    // 2. Each pass, rows in order: C = the OR of all rows (row j included) | !R[j]; unless C is all ones,
    // rotate M[j] toward higher columns, one position at a time, until M[j] & C == 0.
    for (p = 0; p < P; p = p + 1)
      for (j = 0; j < M; j = j + 1) begin
        col_or = 0;
        for (k = 0; k < M; k = k + 1) col_or = col_or | ref_m[k*M +: M];
        c = col_or | ~requests[j*M +: M];
        cur = ref_m[j*M +: M];
        if (~c != 0) begin
          done = 0;
          for (n = 0; n < M; n = n + 1)
            if (!done) begin
              cur = {cur[M-2:0], cur[M-1]};
              if ((cur & c) == 0) done = 1;
            end
          ref_m[j*M +: M] = cur;
        end
      end
  end
  always @* assert (grants == ref_m);
`endif
endmodule
