// Properties of the 8x8 comparison allocators (alloc_islip1_m8, alloc_pim1_m8, alloc_wavefront_m8), for every
// request matrix in every state of the allocator (k-induction): the grants are a matching inside the requests
// (one-hot or empty rows and columns), and a non-empty request matrix gets at least one grant (iSLIP and PIM:
// an output with a request grants, an input with a grant accepts; wavefront: the first request served).
// MAXIMAL (wavefront only, the one that claims it): no request joins an ungranted row to an ungranted column.
// Written for `asr prove` (docs/formal.md); @TOP@ is the exported top.
module formal(input clock, input [63:0] requests);
  wire [63:0] grants;
  @TOP@ dut (.clock(clock), .requests(requests), .grants(grants));
  genvar i, j;
  generate
    for (i = 0; i < 8; i = i + 1) begin : row
      wire [7:0] g = grants[8*i +: 8];
      wire [7:0] r = requests[8*i +: 8];
      // Column i of the grants.
      wire [7:0] c;
      for (j = 0; j < 8; j = j + 1) begin : col
        assign c[j] = grants[8*j + i];
      end
      always @* begin
        assert ((g & ~r) == 0);       // every grant inside the requests
        assert ((g & (g - 1)) == 0);  // at most one grant per row
        assert ((c & (c - 1)) == 0);  // at most one grant per column
      end
    end
  endgenerate
  always @* if (requests != 0) assert (grants != 0);
  // Not vacuous (the job's `cover` task): a perfect matching (a grant in every row).
  wire [7:0] granted;
  generate
    for (i = 0; i < 8; i = i + 1) begin : any
      assign granted[i] = grants[8*i +: 8] != 0;
    end
  endgenerate
  always @* cover (granted == 8'hff);
`ifdef MAXIMAL
  // Rows and columns that hold a grant.
  wire [7:0] row_used, col_used;
  generate
    for (i = 0; i < 8; i = i + 1) begin : used
      assign row_used[i] = grants[8*i +: 8] != 0;
      assign col_used[i] = (grants & (64'h0101010101010101 << i)) != 0;
    end
    for (i = 0; i < 8; i = i + 1) begin : maximal
      always @* assert (row_used[i] || (requests[8*i +: 8] & ~col_used) == 0);
    end
  endgenerate
`endif
endmodule
