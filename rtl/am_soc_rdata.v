// am_soc_rdata — the SoC's read data: the addressed slave's.
//
// Owns: nothing (combinational; with TRACE=1 a check).
//
// Promises:
// * rdata_o is the read data of the slave selected (sel_*_i, one at a time)
//   for the access in progress (the dispatch point's: dp_rdata_i, the jump
//   am_soc makes of the dispatch table's word).
// * The actor unit's read data is 0 except in the cycle its read completes
//   (rtl/am_unit_rdata.v), so it is ORed in without a select; the other
//   slaves' are selected by their region. TRACE=1 checks every cycle that
//   the unit's read data is 0 outside its reads (au_read_i).
// * A board may replace this file by its own module of the same name and
//   ports (fpga.mk's <board>_RTL / <board>_RTL_OUT): the ULX3S's,
//   rtl/boards/am_mux_ports.v, selects the unit's read data too (its read
//   data port is not 0 outside a read).
`default_nettype none

module am_soc_rdata #(
  parameter integer TRACE = 0
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        sel_ram_i,
  input  wire        sel_dp_i,     // a fetch of the dispatch point completes
  input  wire        sel_au_i,
  input  wire        sel_urt_i,
  input  wire        sel_sys_i,
  input  wire        au_read_i,   // a read of the unit completes
  input  wire [31:0] addr_i,      // (for the check's message)
  input  wire [31:0] ram_rdata_i,
  input  wire [31:0] dp_rdata_i,
  input  wire [31:0] au_rdata_i,
  input  wire [31:0] urt_rdata_i,
  input  wire [31:0] sys_rdata_i,
  output reg  [31:0] rdata_o
);
  always @(*) begin
    rdata_o = au_rdata_i;
    if (sel_ram_i) rdata_o = rdata_o | ram_rdata_i;
    if (sel_dp_i)  rdata_o = rdata_o | dp_rdata_i;
    if (sel_urt_i) rdata_o = rdata_o | urt_rdata_i;
    if (sel_sys_i) rdata_o = rdata_o | sys_rdata_i;
  end
  wire unused_sel_au = sel_au_i;   // (the unit's read data needs no select)

  generate
    if (TRACE != 0) begin : g_check
      always @(posedge clk_i) begin
        if (rst_ni && au_rdata_i != 32'd0 && !au_read_i) begin
          $display("am_soc: the unit's read data %08x outside its read (addr %08x)", au_rdata_i,
                   addr_i);
          $stop;
        end
      end
    end else begin : g_no_check
      wire unused_check_only = ^{clk_i, rst_ni, au_read_i, addr_i};
    end
  endgenerate
endmodule

`default_nettype wire
