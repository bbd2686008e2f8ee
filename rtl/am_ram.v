// am_ram — the SoC's program and data memory: one inferred single-port RAM
// with byte enables, initialised from a $readmemh image of 32-bit words.
//
// Owns: WORDS x 32 bits. Promises: an access happens in the cycle en_i is
// high: a write honours wstrb_i per byte, and rdata_o holds the word read
// from the next cycle on (until the next access). The SoC drives it from the
// core's look-ahead bus, so the word is there in the cycle the core's access
// starts: zero wait states. Inferred RAM
// (block RAM on iCE40/ECP5, SPRAM with synth_ice40 -spram when it fits), so
// one source simulates and synthesizes everywhere (iCE40 boards: rtl/boards/am_ram_ice40.v).
`default_nettype none

module am_ram #(
  parameter integer WORDS     = 16384,       // 64 KiB
  parameter         INIT_FILE = ""
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     en_i,
  input  wire [$clog2(WORDS)-1:0] addr_i,    // word address
  input  wire [31:0]              wdata_i,
  input  wire [3:0]               wstrb_i,
  output reg  [31:0]              rdata_o
);
  reg [31:0] mem_q [0:WORDS-1];

  initial begin
    if (INIT_FILE != "") $readmemh(INIT_FILE, mem_q);
  end

  wire unused_rst = rst_ni;   // (the array has no reset; the port keeps the SoC's list)
  always @(posedge clk_i) begin
    if (en_i) begin
      rdata_o <= mem_q[addr_i];
      if (wstrb_i[0]) mem_q[addr_i][ 7: 0] <= wdata_i[ 7: 0];
      if (wstrb_i[1]) mem_q[addr_i][15: 8] <= wdata_i[15: 8];
      if (wstrb_i[2]) mem_q[addr_i][23:16] <= wdata_i[23:16];
      if (wstrb_i[3]) mem_q[addr_i][31:24] <= wdata_i[31:24];
    end
  end
endmodule

`default_nettype wire
