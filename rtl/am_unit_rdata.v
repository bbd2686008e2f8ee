// am_unit_rdata — the actor unit's read data port: a register's value, or
// a message or state word from the queue's or the table's RAM, in the cycle
// a read completes.
//
// Owns: the read data registers (rdata_q, q_on_q, st_on_q).
//
// Promises:
// * A read that starts in one cycle (rd_acc_i, with its address a_i)
//   completes in the next, with its value on rdata_o: reg_i as it was when
//   the read started for a register; for MSG[i] / STATE[i] the RAM's output
//   (q_rdata_i / st_rdata_i, valid that cycle), or 0 when no transaction is
//   open or i is not below the message's / state's length.
// * rdata_o is 0 in every other cycle, so the SoC ORs it with its other
//   slaves' read data (rtl/am_soc_rdata.v): rdata_q takes the addressed
//   register's value every cycle, r_on_q / q_on_q / st_on_q say that a
//   register / a message / state word below its length is read, each for
//   one cycle, and the output is the OR of the three -- no multiplexer on a
//   select register (74 iCE40 LCs fewer on the iCEBreaker than the
//   multiplexers, here and in the SoC). Only the three flags depend on the
//   read starting: a read that starts in the look-ahead cycle has its
//   address late in that cycle, out of the core, and the 32-bit register
//   path must not wait for the decode of whether it is the unit's.
// * A board may replace this file by its own module of the same name and
//   ports (fpga.mk's <board>_RTL / <board>_RTL_OUT): the ULX3S's,
//   rtl/boards/am_mux_ports.v, selects with multiplexers and holds a
//   register's value after the read.
`default_nettype none
`include "am_defs.vh"

module am_unit_rdata (
  input  wire        clk_i,
  input  wire        rd_acc_i,   // a read starts
  input  wire [7:0]  a_i,        // its register (mem_addr[9:2])
  input  wire        open_i,     // a transaction is open
  input  wire [3:0]  len_i,      // its message length
  input  wire [3:0]  slen_i,     // ... and self's state length
  input  wire [31:0] reg_i,      // the addressed register's value
  input  wire [31:0] q_rdata_i,  // the queue's word, the cycle after
  input  wire [31:0] st_rdata_i, // the table's state word, the cycle after
  output wire [31:0] rdata_o
);
  wire a_msg_w = `AM_AU_MSG_AT(a_i);
  wire a_st_w  = `AM_AU_STATE_AT(a_i);
  wire a_in    = open_i && ({1'b0, a_i[2:0]} < (a_msg_w ? len_i : slen_i));
  reg  [31:0] rdata_q;
  reg         r_on_q, q_on_q, st_on_q;
  always @(posedge clk_i) begin
    rdata_q <= reg_i;
    r_on_q  <= rd_acc_i && !a_msg_w && !a_st_w;
    q_on_q  <= rd_acc_i && a_msg_w && a_in;
    st_on_q <= rd_acc_i && a_st_w && a_in;
  end
  assign rdata_o = (q_on_q ? q_rdata_i : 32'd0) | (st_on_q ? st_rdata_i : 32'd0) |
                   (r_on_q ? rdata_q : 32'd0);
endmodule

`default_nettype wire
