// am_unit_con — the console's state, readable between transactions: the
// window through which the host link's service reads the export table
// (lib/am_console.c keeps it as the console's state words; docs/link.md).
//
// Owns: the console's state length (len_q), a copy of the SLEN field of
// slot 0's meta word.
//
// Promises:
// * len_o is the state length slot 0's meta word holds: 0 after reset (the
//   table writes the console's meta word then), and every write of that
//   meta word -- the console's BECOME at its commit, a collection's
//   rewrite -- is followed from the next cycle on. The table's meta RAM is
//   not read for it, so the window costs the sequencer's and the
//   collector's port nothing.
// * While no transaction is open, a STATE[i] read is slot 0's state word
//   i, 0 at or past len_o (am_actor_unit routes the state RAM's read
//   address and am_unit_regs the length); the words past the length are 0
//   in the RAM too (a BECOME zeroes what it shortens), so what the firmware
//   reads is what the reference runtime's am_peek of the console returns.
`default_nettype none
`include "am_defs.vh"

module am_unit_con #(
  parameter integer SLOT_W = 7,
  parameter integer BEH_W  = 8,
  parameter integer META_W = `AM_META_W
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              meta_we_i,     // the table's meta write port
  input  wire [SLOT_W-1:0] meta_waddr_i,
  input  wire [META_W-1:0] meta_wdata_i,
  output wire [3:0]        len_o
);
  reg [3:0] len_q;
  always @(posedge clk_i) begin
    if (!rst_ni) len_q <= 4'd0;
    else if (meta_we_i && meta_waddr_i == {SLOT_W{1'b0}})
      len_q <= meta_wdata_i[`AM_META_SLEN_LSB +: `AM_META_SLEN_W];
  end
  assign len_o = len_q;

  wire unused_con = ^{meta_wdata_i[META_W-1:`AM_META_SLEN_LSB + `AM_META_SLEN_W],
                      meta_wdata_i[`AM_META_SLEN_LSB-1:0]};
endmodule

`default_nettype wire
