// A generated network in a plain Verilog test bench: two processors on one switch (pair.topo). Processor 0
// sends "hello" to processor 1 through its AXI4-Stream port; processor 1 prints what arrives, with the
// sender (tid) and the CRC check (tuser). From the repository (docs/network.md, "In a Verilog test bench"):
//
//   ./target/release/asr network --topology examples/verilog/pair.topo --out out/pair
//   iverilog -o out/pair/tb out/pair/asr_network.v examples/verilog/network_tb.v && vvp out/pair/tb
`timescale 1ns / 1ps
module network_tb;
  reg clock = 0;
  always #5 clock = !clock;

  // Processor 0 sends: one beat per byte of "hello", the last with tlast, all to processor 1 (tdest).
  reg [39:0] text = "hello";
  reg [2:0] sent = 0;
  wire tvalid = sent < 5, tlast = sent == 4;
  wire tready;
  always @(posedge clock) if (tvalid && tready) sent <= sent + 1;

  // Processor 1 receives, always ready.
  wire m_tvalid, m_tlast, m_tuser;
  wire [7:0] m_tdata, m_tid;
  always @(posedge clock) if (m_tvalid) begin
    $write("%c", m_tdata);
    if (m_tlast) begin
      $display(" (from processor %0d, CRC %0s, at %0d ns)", m_tid, m_tuser ? "bad" : "good", $time);
      $finish;
    end
  end
  initial begin
    #20000 $display("network_tb: nothing arrived in 2000 cycles");
    $finish;
  end

  asr_network net (
    .clock(clock),
    .p0_s_axis_tvalid(tvalid), .p0_s_axis_tdata(text[39 - 8 * sent -: 8]), .p0_s_axis_tlast(tlast),
    .p0_s_axis_tdest(8'd1), .p0_s_axis_tready(tready), .p0_m_axis_tready(1'b1),
    .p0_cfg_we(1'b0), .p0_cfg_addr(3'd0), .p0_cfg_data(8'd0),
    .p1_s_axis_tvalid(1'b0), .p1_s_axis_tdata(8'd0), .p1_s_axis_tlast(1'b0), .p1_s_axis_tdest(8'd0),
    .p1_m_axis_tvalid(m_tvalid), .p1_m_axis_tdata(m_tdata), .p1_m_axis_tlast(m_tlast), .p1_m_axis_tid(m_tid),
    .p1_m_axis_tuser(m_tuser), .p1_m_axis_tready(1'b1),
    .p1_cfg_we(1'b0), .p1_cfg_addr(3'd0), .p1_cfg_data(8'd0));
endmodule
